import { Button, Callout, InputGroup } from '@werkbank/sdk/ui';
import { NotificationService, useService, useT } from '@werkbank/sdk/browser';

/** A newly created API key, shown this once (the server never lists it again), with Copy. */
export function ApiKeyShownOnce({ value, onDismiss }: { value: string; onDismiss(): void }) {
  const notifications = useService(NotificationService);
  const t = useT('admin');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notifications.success(String(t('apikeys.copied')));
    } catch (e) {
      notifications.error((e as Error).message);
    }
  };
  return (
    <Callout intent="success" icon="key" className="wb-gap" data-testid="apikey-created">
      <p id="apikey-created-label">{t('apikeys.created_once')}</p>
      <InputGroup
        readOnly
        value={value}
        aria-labelledby="apikey-created-label"
        data-testid="apikey-created-value"
        onFocus={(e) => e.currentTarget.select()}
        rightElement={<Button icon="duplicate" variant="minimal" text={t('apikeys.copy')} onClick={() => void copy()} />}
      />
      <Button variant="minimal" icon="cross" text={t('core:common.close')} onClick={onDismiss} />
    </Callout>
  );
}
