import { useState, type FormEvent } from 'react';
import { Button, Callout, Card, FormGroup, InputGroup } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { ConfigStore } from '../config-store';
import { useService, useT } from '../react-context';
import { ApiClient } from '../api-client';
import { LanguageSwitch } from './language-switch';

/** The login page at /accounts/login/. A successful login loads the app anew (fresh CSRF token). */
export const LoginPage = observer(function LoginPage() {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const t = useT();
  // After setting a password (set-password page) the username comes along.
  const [username, setUsername] = useState(() => new URLSearchParams(location.search).get('username') ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.post('/accounts/login/', { username, password });
      const next = new URLSearchParams(location.search).get('next');
      location.assign(next && next.startsWith('/') && !next.startsWith('//') ? next : '/');
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <div className="wb-login">
      <Card elevation={2} className="wb-login-card">
        <div className="wb-login-brand">
          <img src="/logo.svg" alt="" width={40} height={40} />
          <h1>{t('login.title')}</h1>
        </div>
        <form onSubmit={submit}>
          <FormGroup label={t('login.username')} labelFor="wb-login-username">
            <InputGroup
              id="wb-login-username"
              name="username"
              autoComplete="username"
              autoFocus
              value={username}
              onValueChange={setUsername}
            />
          </FormGroup>
          <FormGroup label={t('login.password')} labelFor="wb-login-password">
            <InputGroup
              id="wb-login-password"
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onValueChange={setPassword}
            />
          </FormGroup>
          {error && (
            <Callout intent="danger" title={t('login.failed')} className="wb-gap">
              {error}
            </Callout>
          )}
          <Button type="submit" intent="primary" fill loading={busy} disabled={!username || !password} text={t('login.submit')} />
        </form>
        {config.config.account_mail && (
          <p className="wb-gap">
            <Link to="/accounts/password-reset/" data-testid="login-forgot">
              {t('login.forgot')}
            </Link>
          </p>
        )}
        <div className="wb-login-lang">
          <LanguageSwitch />
        </div>
      </Card>
    </div>
  );
});
