import { useRef, useState } from '@werkbank/sdk/react';
import { Button } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import type { Switchboard } from '../../common/switchboard-types';
import type { SwitchboardActions } from './use-switchboard-actions';

/**
 * "Import from file": picks a file saved with "Save as file" and creates the switchboard in
 * `folder` (an address, or null for the root); busy while the server imports it.
 */
export function ImportSwitchboardButton({
  folder,
  actions,
  onImported,
}: {
  folder: string | null;
  actions: SwitchboardActions;
  onImported(sb: Switchboard): void;
}) {
  const t = useT('sb-lists');
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const chosen = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      const created = await actions.importFile(file, folder);
      if (created) onImported(created);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <>
      <Button
        icon="import"
        text={t('import.button')}
        loading={busy}
        data-testid="import-switchboard"
        onClick={() => input.current?.click()}
      />
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="import-file"
        onChange={(e) => void chosen(e.target.files?.[0])}
      />
    </>
  );
}
