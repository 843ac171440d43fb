import { useEffect, useState } from '@werkbank/sdk/react';
import { Button, Callout, Checkbox, FormGroup, HTMLTable, InputGroup, NonIdealState } from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfirmService,
  I18nService,
  NotificationService,
  useService,
  useT,
  type ListResponse,
} from '@werkbank/sdk/browser';
import { APIKEY_PATH } from '../../common/admin-paths';
import { expirationOf } from '../../common/user-rules';
import { useRealms } from '../use-admin-data';
import { ApiKeyShownOnce } from './apikey-shown-once';

interface ApiKey {
  key: string;
  key_prefix: string;
  realms: string[];
  created: string;
  expiration: string | null;
  resource_uri: string;
}

/** How many of a user's keys the tab lists (newest first). */
const KEYS_SHOWN = 100;

/**
 * The API key tab (spec 002 §2, §6; superusers, existing user): the user's keys with realms,
 * creation and expiry; create one with realms and an optional expiry date (the key is shown once);
 * delete. Changes take effect immediately; 'No keys available' when there are none. A user without
 * access_connect is told that their keys are refused (decision 0041).
 */
export function UserApiKeysTab({ user, canConnect = true }: { user: string; canConnect?: boolean }) {
  const api = useService(ApiClient);
  const i18n = useService(I18nService);
  const notifications = useService(NotificationService);
  const confirm = useService(ConfirmService);
  const t = useT('admin');
  const realms = useRealms();
  const [keys, setKeys] = useState<ApiKey[]>();
  const [chosen, setChosen] = useState<string[]>(['*']);
  const [expiration, setExpiration] = useState('');
  const [created, setCreated] = useState<string>();
  const [busy, setBusy] = useState(false);

  const load = () =>
    api.get<ListResponse<ApiKey>>(APIKEY_PATH, { query: { user, limit: KEYS_SHOWN } }).then(
      (r) => setKeys(r.objects),
      (e: Error) => (setKeys([]), notifications.error(e.message)),
    );
  useEffect(() => void load(), [api, user]);

  const fmt = new Intl.DateTimeFormat(i18n.language === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium' });
  const create = async () => {
    setBusy(true);
    try {
      const reply = await api.post<ApiKey>(APIKEY_PATH, { user, realms: chosen, expiration: expirationOf(expiration) });
      setCreated(reply.key);
      setExpiration('');
      await load();
    } catch (e) {
      notifications.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const remove = async (k: ApiKey) => {
    const question = String(t('apikeys.delete_confirm', { key: k.key }));
    if (!(await confirm.confirm(question, { intent: 'danger', confirmLabel: String(t('apikeys.delete')) }))) return;
    try {
      await api.delete(k.resource_uri);
      notifications.success(String(t('apikeys.deleted')));
      await load();
    } catch (e) {
      notifications.error((e as Error).message);
    }
  };
  const toggle = (realm: string, on: boolean) =>
    setChosen((c) => (on ? [...new Set([...c, realm])] : c.filter((r) => r !== realm)));
  const everything = chosen.includes('*');
  return (
    <div data-testid="user-apikeys">
      <Callout intent="primary" icon="info-sign" className="wb-gap">
        {t('apikeys.note')}
      </Callout>
      {!canConnect && (
        <Callout intent="warning" className="wb-gap" data-testid="apikey-no-connect">
          {t('apikeys.no_connect')}
        </Callout>
      )}
      {created && <ApiKeyShownOnce value={created} onDismiss={() => setCreated(undefined)} />}
      {keys && !keys.length && <NonIdealState icon="key" title={t('apikeys.empty')} />}
      {!!keys?.length && (
        <HTMLTable compact striped className="wb-gap" style={{ width: '100%' }}>
          <thead>
            <tr>
              <th>{t('apikeys.key')}</th>
              <th>{t('apikeys.realms')}</th>
              <th>{t('apikeys.created')}</th>
              <th>{t('apikeys.expiration')}</th>
              <th>
                <span className="bp6-text-muted">{t('apikeys.delete')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.key_prefix} data-testid="apikey-row">
                <td>
                  <code>{k.key}</code>
                </td>
                <td>{k.realms.includes('*') ? t('apikeys.all_realms') : k.realms.join(', ')}</td>
                <td>{fmt.format(new Date(k.created))}</td>
                <td>{k.expiration ? fmt.format(new Date(k.expiration)) : t('apikeys.never')}</td>
                <td>
                  <Button
                    size="small"
                    variant="minimal"
                    icon="trash"
                    intent="danger"
                    aria-label={String(t('apikeys.delete'))}
                    onClick={() => void remove(k)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <FormGroup label={t('apikeys.realms_label')}>
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)' }}>
          {(realms ?? ['*']).map((r) => (
            <Checkbox
              key={r}
              label={r === '*' ? String(t('apikeys.all_realms')) : r}
              checked={chosen.includes(r)}
              disabled={r !== '*' && everything}
              data-testid={`apikey-realm-${r}`}
              onChange={(e) => toggle(r, e.currentTarget.checked)}
            />
          ))}
        </div>
      </FormGroup>
      <FormGroup label={t('apikeys.expiration_label')} labelFor="apikey-expiration">
        <InputGroup id="apikey-expiration" type="date" value={expiration} onValueChange={setExpiration} />
      </FormGroup>
      <Button
        icon="key"
        text={t('apikeys.create')}
        loading={busy}
        disabled={!chosen.length}
        title={chosen.length ? undefined : String(t('apikeys.choose_realm'))}
        data-testid="apikey-create"
        onClick={() => void create()}
      />
    </div>
  );
}
