import { useState } from '@werkbank/sdk/react';
import { NotificationService, useService, useT } from '@werkbank/sdk/browser';

/**
 * The save step the Magazine's object editors share (spec 001 §4: a failed save clears the busy
 * state and keeps the dialog open). `run(write)`: `write` resolves true when it saved (the editor
 * says "Object was saved" and closes with true) or false when there was nothing to save (closes
 * with false); when it throws, its message is shown and the editor stays open.
 */
export function useEditorSave(onClose: (saved: boolean) => void) {
  const t = useT('magazine');
  const notifications = useService(NotificationService);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const run = async (write: () => Promise<boolean>) => {
    setSaving(true);
    setError(undefined);
    try {
      if (!(await write())) return onClose(false);
      notifications.success(String(t('core:common.saved')));
      onClose(true);
    } catch (e) {
      setError((e as Error).message);
      setSaving(false);
    }
  };
  return { error, setError, saving, run };
}
