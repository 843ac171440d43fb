import { useEffect, useState, type FormEvent } from 'react';
import { Button, Callout, Classes, FormGroup, InputGroup, Spinner } from '@blueprintjs/core';
import { Link } from 'react-router';
import { useService, useT } from '../react-context';
import { ApiClient } from '../api-client';
import { AccountCard } from './account-card';

interface LinkInfo {
  purpose: 'invite' | 'reset';
  username: string;
  display_name: string;
}

/** The shortest password the server accepts (MIN_PASSWORD_LENGTH). */
const MIN_LENGTH = 8;

/**
 * /accounts/set-password/#<token>: the page the links of invitations and password resets open
 * (decision 0041). It asks the server whom the link is for, then takes the new password twice;
 * an invited user becomes active. The token stays in the address's fragment, never sent as a URL.
 */
export function SetPasswordPage() {
  const api = useService(ApiClient);
  const t = useT();
  const [token] = useState(() => decodeURIComponent(location.hash.replace(/^#/, '')));
  const [info, setInfo] = useState<LinkInfo>();
  const [problem, setProblem] = useState<string>();
  const [fields, setFields] = useState({ new_password1: '', new_password2: '' });
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<{ message: string; username: string }>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!token) return setProblem(String(t('setpw.no_token')));
    api.post<LinkInfo>('/accounts/link/', { token }).then(setInfo, (e: Error) => setProblem(e.message));
  }, [api, token]);

  const tooShort = !!fields.new_password1 && fields.new_password1.length < MIN_LENGTH;
  const mismatch = !!fields.new_password2 && fields.new_password1 !== fields.new_password2;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const reply = await api.post<{ message: string; username: string }>('/accounts/set-password/', { token, ...fields });
      // The link is used up; it should not stay in the address bar or the history.
      history.replaceState(null, '', location.pathname);
      setDone(reply);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const invite = info?.purpose === 'invite';
  const title = problem ? t('setpw.problem_title') : invite ? t('setpw.title_invite') : t('setpw.title_reset');
  return (
    <AccountCard title={title}>
      {problem ? (
        <>
          <Callout intent="danger" className="wb-gap" role="alert" data-testid="setpw-problem">
            {problem}
          </Callout>
          <p>
            <Link to="/accounts/password-reset/">{t('login.forgot')}</Link> ·{' '}
            <Link to="/accounts/login/">{t('setpw.to_login')}</Link>
          </p>
        </>
      ) : done ? (
        <>
          <Callout intent="success" className="wb-gap" role="status" data-testid="setpw-done">
            {done.message}
          </Callout>
          {/* A link (it navigates), dressed as the page's primary button. */}
          <a
            className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY} ${Classes.FILL}`}
            href={`/accounts/login/?username=${encodeURIComponent(done.username)}`}
          >
            {t('setpw.to_login')}
          </a>
        </>
      ) : !info ? (
        <Spinner aria-label={String(t('common.loading'))} />
      ) : (
        <form onSubmit={submit}>
          <p data-testid="setpw-intro">
            {t(invite ? 'setpw.intro_invite' : 'setpw.intro_reset', { name: info.display_name, username: info.username })}
          </p>
          {/* For password managers: the account the new password belongs to. */}
          <input type="text" name="username" autoComplete="username" value={info.username} readOnly hidden />
          <FormGroup
            label={t('password.new1')}
            labelFor="wb-setpw-new1"
            helperText={tooShort ? t('setpw.too_short', { min: MIN_LENGTH }) : t('setpw.hint', { min: MIN_LENGTH })}
            intent={tooShort ? 'danger' : 'none'}
          >
            <InputGroup
              id="wb-setpw-new1"
              type="password"
              autoComplete="new-password"
              autoFocus
              intent={tooShort ? 'danger' : 'none'}
              value={fields.new_password1}
              onValueChange={(v) => setFields((f) => ({ ...f, new_password1: v }))}
            />
          </FormGroup>
          <FormGroup
            label={t('password.new2')}
            labelFor="wb-setpw-new2"
            helperText={mismatch ? t('setpw.mismatch') : undefined}
            intent={mismatch ? 'danger' : 'none'}
          >
            <InputGroup
              id="wb-setpw-new2"
              type="password"
              autoComplete="new-password"
              intent={mismatch ? 'danger' : 'none'}
              value={fields.new_password2}
              onValueChange={(v) => setFields((f) => ({ ...f, new_password2: v }))}
            />
          </FormGroup>
          {error && (
            <Callout intent="danger" className="wb-gap" role="alert">
              {error}
            </Callout>
          )}
          <Button
            type="submit"
            intent="primary"
            fill
            loading={busy}
            disabled={!fields.new_password1 || tooShort || fields.new_password1 !== fields.new_password2}
            text={t(invite ? 'setpw.submit_invite' : 'setpw.submit_reset')}
          />
        </form>
      )}
    </AccountCard>
  );
}
