import { Button, DialogFooter } from '@blueprintjs/core';
import { useT } from '@werkbank/kernel/browser';

export interface EditorFooterProps {
  /** A read-only editor offers Close and no Save; otherwise Cancel and Save. */
  readOnly: boolean;
  /** Save shows a spinner while this is true. */
  saving: boolean;
  /** Save is disabled while this is false (e.g. a required field is empty). */
  canSave: boolean;
  /** data-testid of the Save button. */
  saveTestId: string;
  onCancel(): void;
  onSave(): void;
}

/** The footer of an object editor dialog: Cancel (Close when read-only) and Save, in the core's words. */
export function EditorFooter({ readOnly, saving, canSave, saveTestId, onCancel, onSave }: EditorFooterProps) {
  const t = useT();
  return (
    <DialogFooter
      actions={
        <>
          <Button text={t(readOnly ? 'common.close' : 'common.cancel')} onClick={onCancel} />
          {!readOnly && (
            <Button
              intent="primary"
              text={t('common.save')}
              loading={saving}
              disabled={!canSave}
              data-testid={saveTestId}
              onClick={onSave}
            />
          )}
        </>
      }
    />
  );
}
