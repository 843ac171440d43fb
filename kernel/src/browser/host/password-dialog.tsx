import { useState, type FormEvent } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { useService, useT } from '../react-context';
import { ApiClient } from '../api-client';
import { NotificationService } from '../notification-service';

const PASSWORD_FIELDS = [
  ['old_password', 'password.old', 'wb-pw-old', 'current-password'],
  ['new_password1', 'password.new1', 'wb-pw-new1', 'new-password'],
  ['new_password2', 'password.new2', 'wb-pw-new2', 'new-password'],
] as const;

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
          {PASSWORD_FIELDS.map(([name, label, id, autoComplete]) => (
            <FormGroup key={name} label={t(label)} labelFor={id}>
              <InputGroup id={id} type="password" autoComplete={autoComplete} value={fields[name]} onValueChange={set(name)} />
            </FormGroup>
          ))}
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
