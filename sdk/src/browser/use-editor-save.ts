import { useState } from 'react';
import { NotificationService, useService, useT } from '@werkbank/kernel/browser';

/**
 * The save step of an object editor dialog (spec 001 §4: a failed save clears the busy state and
 * keeps the dialog open). `run(write, onFailure?)`: `write` resolves true when it saved (the editor
 * says "Object was saved" and closes with true) or false when there was nothing to save (closes with
 * false); when it throws, its message becomes `error`, `onFailure` sees the error (e.g. to show the
 * tab of the refused field) and the editor stays open. `setError` shows a loading failure.
 */
export function useEditorSave(onClose: (saved: boolean) => void) {
  const t = useT();
  const notifications = useService(NotificationService);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const run = async (write: () => Promise<boolean>, onFailure?: (e: Error) => void) => {
    setSaving(true);
    setError(undefined);
    try {
      if (!(await write())) return onClose(false);
      notifications.success(String(t('common.saved')));
      onClose(true);
    } catch (e) {
      setError((e as Error).message);
      onFailure?.(e as Error);
      setSaving(false);
    }
  };
  return { error, setError, saving, run };
}
