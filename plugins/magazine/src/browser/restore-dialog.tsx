import { useState } from '@werkbank/sdk/react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, TextArea } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';

/** Restoring a moment (spec 000 §4): asks for an optional message. */
export function RestoreDialog({ onRestore, onClose }: { onRestore(message: string): void; onClose(): void }) {
  const t = useT('magazine');
  const [message, setMessage] = useState('');
  return (
    <Dialog isOpen icon="history" title={t('moment.restore_title')} onClose={onClose}>
      <DialogBody>
        <p>{t('moment.restore_text')}</p>
        <FormGroup label={t('moment.message_optional')} labelFor="restore-message">
          <TextArea
            id="restore-message"
            fill
            autoFocus
            value={message}
            data-testid="restore-message"
            onChange={(e) => setMessage(e.target.value)}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('core:common.cancel')} onClick={onClose} />
            <Button
              intent="primary"
              text={t('moment.restore')}
              data-testid="restore-confirm"
              onClick={() => onRestore(message.trim())}
            />
          </>
        }
      />
    </Dialog>
  );
}
