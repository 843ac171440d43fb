import { useRef } from '@werkbank/sdk/react';
import { Button, InputGroup } from '@werkbank/sdk/ui';
import { NotificationService, useService, useT } from '@werkbank/sdk/browser';

/** Copies `text`: the clipboard API where the page may use it, else the selected field's copy command. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Not allowed here (an insecure origin, no permission): try the field below.
  }
  if (!field || typeof document.execCommand !== 'function') return false;
  field.select();
  return document.execCommand('copy');
}

/**
 * The address to run the switchboard through the API (spec 002 §7: its resource address followed
 * by 'execute'), absolute, with a copy button that says 'Text copied to clipboard' (spec 000 §8).
 */
export function ApiUrlField({ path }: { path: string }) {
  const t = useT('sb-lists');
  const notifications = useService(NotificationService);
  const field = useRef<HTMLInputElement>(null);
  const url = `${location.origin}${path}`;
  const copy = async () => {
    if (await copyText(url, field.current)) notifications.success(String(t('core:common.copied')));
    else notifications.error(String(t('execution.copy_failed')));
  };
  return (
    <InputGroup
      id="switchboard-api-url"
      inputRef={field}
      readOnly
      value={url}
      data-testid="switchboard-api-url"
      onFocus={(e) => e.currentTarget.select()}
      rightElement={
        <Button
          variant="minimal"
          icon="clipboard"
          aria-label={String(t('execution.copy_url'))}
          data-testid="copy-api-url"
          onClick={() => void copy()}
        />
      }
    />
  );
}
