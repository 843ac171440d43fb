import { useState } from '@werkbank/sdk/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@werkbank/sdk/ui';
import { datumEditorValue, datumFieldsFromEditor } from '@werkbank/sdk';
import { DatumEditorHost, useT } from '@werkbank/sdk/browser';

export interface DatumEditDialogProps {
  title: string;
  contentType: string;
  /** The datum's type fields (datumFields). */
  fields: Record<string, unknown>;
  /** The template of the depot's type: decides what the editor edits (datumEditorValue). */
  template: Record<string, unknown>;
  readOnly?: boolean;
  /** Saves the changed fields; resolves true when the dialog may close. Throws to show an error. */
  onSave(fields: Record<string, unknown>): Promise<boolean>;
  onClose(): void;
}

/** A datum in the editor its content type chooses (spec 002 §2), in a dialog. */
export function DatumEditDialog(props: DatumEditDialogProps) {
  const t = useT('magazine');
  const [value, setValue] = useState<unknown>(() => datumEditorValue(props.template, props.fields));
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      if (await props.onSave(datumFieldsFromEditor(props.template, props.fields, value))) return props.onClose();
    } catch (e) {
      setError((e as Error).message);
    }
    setSaving(false);
  };
  return (
    <Dialog isOpen icon="document" title={props.title} style={{ width: 640 }} onClose={props.onClose}>
      <DialogBody>
        <DatumEditorHost contentType={props.contentType} value={value} readOnly={props.readOnly} onChange={setValue} />
        {error && <Callout intent="danger">{error}</Callout>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t(props.readOnly ? 'core:common.close' : 'core:common.cancel')} onClick={props.onClose} />
            {!props.readOnly && (
              <Button intent="primary" text={t('core:common.save')} loading={saving} onClick={save} data-testid="datum-save" />
            )}
          </>
        }
      />
    </Dialog>
  );
}
