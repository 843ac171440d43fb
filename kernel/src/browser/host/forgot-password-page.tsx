import { useState, type FormEvent } from 'react';
import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { Link } from 'react-router';
import { useService, useT } from '../react-context';
import { ApiClient } from '../api-client';
import { I18nService } from '../i18n-service';
import { isValidEmail } from '../../common/index';
import { AccountCard } from './account-card';

/**
 * /accounts/password-reset/ ('Forgot password?', decision 0041): asks for the account's email
 * address and shows the server's answer, which is the same whether or not the address is known.
 */
export function ForgotPasswordPage() {
  const api = useService(ApiClient);
  const i18n = useService(I18nService);
  const t = useT();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const invalid = !!email && !isValidEmail(email);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const reply = await api.post<{ message: string }>('/accounts/password-reset/', { email, language: i18n.language });
      setSent(reply.message);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AccountCard title={t('reset.title')}>
      {sent ? (
        <Callout intent="success" className="wb-gap" role="status" data-testid="reset-sent">
          {sent}
        </Callout>
      ) : (
        <form onSubmit={submit}>
          <p>{t('reset.intro')}</p>
          <FormGroup
            label={t('reset.email')}
            labelFor="wb-reset-email"
            intent={invalid ? 'danger' : 'none'}
            helperText={invalid ? t('reset.invalid_email') : undefined}
          >
            <InputGroup
              id="wb-reset-email"
              name="email"
              type="email"
              autoComplete="email"
              autoFocus
              intent={invalid ? 'danger' : 'none'}
              value={email}
              onValueChange={setEmail}
            />
          </FormGroup>
          {error && (
            <Callout intent="danger" title={t('reset.failed')} className="wb-gap" role="alert">
              {error}
            </Callout>
          )}
          <Button type="submit" intent="primary" fill loading={busy} disabled={!email || invalid} text={t('reset.submit')} />
        </form>
      )}
      <p className="wb-gap">
        <Link to="/accounts/login/">{t('reset.back')}</Link>
      </p>
    </AccountCard>
  );
}
