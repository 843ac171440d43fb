import { observer } from 'mobx-react-lite';
import { Alert, OverlayToaster, Toast, Position } from '@blueprintjs/core';
import { useService, useT } from '../react-context';
import { NotificationService } from '../notification-service';
import { ConfirmService } from '../confirm-service';

/** Renders the notifications (spec 000 §9: 5200 ms) and the confirmation modal. */
export const Overlays = observer(function Overlays() {
  const notifications = useService(NotificationService);
  const confirm = useService(ConfirmService);
  const t = useT();
  const current = confirm.current;
  return (
    <>
      <OverlayToaster position={Position.TOP} usePortal>
        {notifications.notifications.map((n) => (
          <Toast
            key={n.key}
            message={n.message}
            intent={n.intent}
            timeout={n.dismissAfter}
            onDismiss={() => notifications.dismiss(n.key)}
          />
        ))}
      </OverlayToaster>
      <Alert
        isOpen={!!current}
        intent={current?.intent ?? 'primary'}
        confirmButtonText={current?.confirmLabel ?? String(t('common.confirm'))}
        cancelButtonText={String(t('common.cancel'))}
        onConfirm={() => confirm.answer(true)}
        onCancel={() => confirm.answer(false)}
        canEscapeKeyCancel
      >
        <p>{current?.message}</p>
      </Alert>
    </>
  );
});
