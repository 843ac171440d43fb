import type { ReactNode } from 'react';
import { Callout, Dialog, DialogBody, Spinner, type IconName } from '@blueprintjs/core';
import { EditorFooter } from './editor-footer';

export interface EditorDialogProps {
  icon: IconName;
  title: ReactNode;
  /** The dialog's width in pixels; Blueprint's default without it. */
  width?: number;
  /** True while the object loads: a spinner shows (unless loading failed with `error`). */
  loading: boolean;
  /** A read-only editor shows `readOnlyNotice` above the fields and offers Close instead of Cancel and Save. */
  readOnly: boolean;
  readOnlyNotice: ReactNode;
  readOnlyTestId?: string;
  /** A failed load or save, shown below the fields in the user's language (spec 000 §8). */
  error?: string;
  errorTestId?: string;
  /** Save shows a spinner while `saving`, and is disabled while `canSave` is false. */
  saving: boolean;
  canSave: boolean;
  saveTestId: string;
  onSave(): void;
  /** Cancel, Close, the close button and Escape. */
  onClose(): void;
  children?: ReactNode;
}

/**
 * An object editor dialog (spec 002 §2): title and icon, a spinner while loading, the read-only
 * notice, the fields (children), the error, and the footer with Cancel (Close) and Save.
 */
export function EditorDialog(props: EditorDialogProps) {
  const { icon, title, width, loading, readOnly, readOnlyNotice, readOnlyTestId, error, errorTestId, children } = props;
  return (
    <Dialog isOpen icon={icon} style={width ? { width } : undefined} title={title} onClose={props.onClose}>
      <DialogBody>
        {loading && !error && <Spinner size={24} />}
        {readOnly && (
          <Callout intent="primary" icon="lock" className="wb-gap" data-testid={readOnlyTestId}>
            {readOnlyNotice}
          </Callout>
        )}
        {children}
        {error && (
          <Callout intent="danger" data-testid={errorTestId}>
            {error}
          </Callout>
        )}
      </DialogBody>
      <EditorFooter
        readOnly={readOnly}
        saving={props.saving}
        canSave={props.canSave}
        saveTestId={props.saveTestId}
        onCancel={props.onClose}
        onSave={props.onSave}
      />
    </Dialog>
  );
}
