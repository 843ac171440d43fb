import type { ReactNode } from 'react';
import { Callout, Dialog, DialogBody, Spinner, type IconName } from '@blueprintjs/core';

export interface EditorDialogProps {
  icon: IconName;
  title: ReactNode;
  /** The dialog's width in pixels; Blueprint's default without it. */
  width?: number;
  /** The close button and Escape. */
  onClose(): void;
  /** True while the object loads: a spinner shows (unless loading failed with `error`). */
  loading: boolean;
  /** The read-only notice in the screen's words; shown above the fields when set. */
  readOnlyNotice?: ReactNode;
  readOnlyTestId?: string;
  /** A failed load or save, shown below the fields in the user's language (spec 000 §8). */
  error?: string;
  errorTestId?: string;
  /** Usually an EditorFooter. */
  footer: ReactNode;
  children?: ReactNode;
}

/**
 * The frame of an object editor dialog (spec 002 §2): title and icon, a spinner while loading, the
 * read-only notice, the fields (children), the error and the footer.
 */
export function EditorDialog(props: EditorDialogProps) {
  const { icon, title, width, onClose, loading, readOnlyNotice, readOnlyTestId, error, errorTestId, footer, children } = props;
  return (
    <Dialog isOpen icon={icon} style={width ? { width } : undefined} title={title} onClose={onClose}>
      <DialogBody>
        {loading && !error && <Spinner size={24} />}
        {readOnlyNotice && (
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
      {footer}
    </Dialog>
  );
}
