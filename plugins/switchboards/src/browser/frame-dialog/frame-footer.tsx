import { Button, DialogFooter } from '@werkbank/sdk/ui';
import { observer, useT } from '@werkbank/sdk/browser';
import type { FrameDialogStore } from './frame-dialog-store';

export interface FrameFooterProps {
  store: FrameDialogStore;
  onCancel(): void;
  onSaveClose(): void;
  onSaveBack(): void;
  onClose(): void;
}

/**
 * The footer of spec 001 §2.6: Cancel (drops what is not saved), Save & Back (saves, then shows
 * the tab seen before), Save & Close, Close (asks first when something is not saved). A read-only
 * dialog has Close only. The save buttons are enabled while there is something to save (savable).
 */
export const FrameFooter = observer(function FrameFooter({
  store,
  onCancel,
  onSaveClose,
  onSaveBack,
  onClose,
}: FrameFooterProps) {
  const t = useT('sb-frame');
  const close = <Button text={t('footer.close')} onClick={onClose} data-testid="frame-close" />;
  if (store.readOnly || !store.ready) return <DialogFooter actions={close} />;
  const idle = !store.savable || store.busy;
  return (
    <DialogFooter
      actions={
        <>
          <Button text={t('footer.cancel')} onClick={onCancel} disabled={store.busy} data-testid="frame-cancel" />
          <Button text={t('footer.save_back')} onClick={onSaveBack} disabled={idle} data-testid="frame-save-back" />
          <Button
            intent="primary"
            text={t('footer.save_close')}
            onClick={onSaveClose}
            disabled={idle}
            loading={store.busy}
            data-testid="frame-save-close"
          />
          {close}
        </>
      }
    />
  );
});
