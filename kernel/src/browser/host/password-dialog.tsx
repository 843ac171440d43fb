import { useState, type FormEvent } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { useService, useT } from '../react-context';
import { ApiClient } from '../api-client';
import { NotificationService } from '../notification-service';

/** spec 000 §5: old password and the new one twice; any non-OK reply shows failure. */
export function PasswordDialog({ isOpen, onClose }: { isOpen: boolean; onClose(): void }) {
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const t = useT();
  const [fields, setFields] = useState({ old_password: '', new_password1: '', new_password2: '' });
  const [error, setError] = useState<string>();
  const set = (k: keyof typeof fields) => (v: string) => setFields({ ...fields, [k]: v });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await api.post('/accounts/password/', fields);
      notifications.success(String(t('password.changed')));
      setFields({ old_password: '', new_password1: '', new_password2: '' });
      setError(undefined);
      onClose();
    } catch (err) {
      setError(String(t('password.failed', { reason: (err as Error).message })));
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('password.title')}>
      <form onSubmit={submit}>
        <DialogBody>
          <FormGroup label={t('password.old')} labelFor="wb-pw-old">
            <InputGroup
              id="wb-pw-old"
              type="password"
              autoComplete="current-password"
              value={fields.old_password}
              onValueChange={set('old_password')}
            />
          </FormGroup>
          <FormGroup label={t('password.new1')} labelFor="wb-pw-new1">
            <InputGroup
              id="wb-pw-new1"
              type="password"
              autoComplete="new-password"
              value={fields.new_password1}
              onValueChange={set('new_password1')}
            />
          </FormGroup>
          <FormGroup label={t('password.new2')} labelFor="wb-pw-new2">
            <InputGroup
              id="wb-pw-new2"
              type="password"
              autoComplete="new-password"
              value={fields.new_password2}
              onValueChange={set('new_password2')}
            />
          </FormGroup>
          {error && <Callout intent="danger">{error}</Callout>}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose} text={t('common.cancel')} />
              <Button type="submit" intent="primary" text={t('password.save')} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
