import { useEffect, useState } from '@werkbank/sdk/react';
import {
  Button,
  Callout,
  Card,
  Dialog,
  DialogBody,
  DialogFooter,
  H2,
  H4,
  HTMLTable,
  Tag,
  TextArea,
  FileInput,
} from '@werkbank/sdk/ui';
import { observer } from '@werkbank/sdk/react';
import { ApiClient, ConfigStore, I18nService, NotificationService, useService, useT } from '@werkbank/sdk/browser';
import { AddonNotice } from '@werkbank/sdk/browser';

interface Addon {
  name: string;
  kind: 'plugin' | 'component';
  title?: Record<string, string> | null;
  description?: string;
  summary?: Record<string, string> | null;
  version?: string;
  enabled: boolean;
  /** Components: whether an installed plugin implements it (nothing is behind it otherwise). */
  available?: boolean;
  components?: string[];
  licence: { id: string; licensee: string; expires: string; development: boolean } | null;
}
interface LicenceInfo {
  id: string | null;
  state: string;
  reason: string | null;
  licensee: string | null;
  expires: string | null;
  development: boolean;
  components: string[];
}

function InstallDialog({ onClose }: { onClose(installed: boolean): void }) {
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const t = useT('apps');
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const install = async () => {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      setError(String(t('invalid_json')));
      return;
    }
    try {
      await api.post('/api/v1/addon/licence/', doc);
      notifications.success(String(t('installed')));
      onClose(true);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <Dialog isOpen onClose={() => onClose(false)} title={t('install_title')} icon="key">
      <DialogBody>
        <p>{t('install_hint')}</p>
        <FileInput
          text={t('install_file')}
          fill
          inputProps={{ accept: '.json,application/json' }}
          onInputChange={(e) => {
            const file = (e.target as HTMLInputElement).files?.[0];
            if (file) void file.text().then(setText);
          }}
        />
        <TextArea
          fill
          rows={10}
          value={text}
          onChange={(e) => setText(e.target.value)}
          style={{ marginTop: 8, fontFamily: 'monospace' }}
          data-testid="licence-text"
        />
        {error && <Callout intent="danger">{error}</Callout>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('core:common.cancel')} onClick={() => onClose(false)} />
            <Button intent="primary" text={t('install')} disabled={!text.trim()} onClick={install} />
          </>
        }
      />
    </Dialog>
  );
}

/** The Apps screen at /addons/ (spec 000 §2). */
const AppsScreen = observer(function AppsScreen() {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const i18n = useService(I18nService);
  const t = useT('apps');
  const [addons, setAddons] = useState<Addon[]>([]);
  const [licences, setLicences] = useState<LicenceInfo[]>([]);
  const [error, setError] = useState<string>();
  const [installing, setInstalling] = useState(false);
  const load = () =>
    api.get<{ objects: Addon[]; licences: LicenceInfo[] }>('/api/v1/addon/').then(
      (r) => (setAddons(r.objects), setLicences(r.licences)),
      (e: Error) => setError(e.message),
    );
  useEffect(() => void load(), []);
  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language === 'de' ? 'de-DE' : 'en-GB');
  const plugins = addons.filter((a) => a.kind === 'plugin');
  // Add-ons this installation implements first; those with nothing behind them after, marked so.
  const components = addons
    .filter((a) => a.kind === 'component')
    .sort((a, b) => Number(b.available !== false) - Number(a.available !== false));
  const dev = config.config.licence.development;
  return (
    <div className="wb-page">
      <div className="wb-toolbar">
        <H2>{t('title')}</H2>
        {config.isSuperuser && (
          <Button icon="key" text={t('install')} onClick={() => setInstalling(true)} data-testid="install-licence" />
        )}
      </div>
      <p className="wb-muted">{t('intro')}</p>
      {error && <Callout intent="danger">{error}</Callout>}
      {dev && (
        <Callout
          intent="primary"
          icon="code"
          title={String(t('development'))}
          className="wb-gap"
          data-testid="development-licence"
        >
          {t('development_hint')}
        </Callout>
      )}
      <H4>{t('components')}</H4>
      <div className="wb-cards">
        {components.map((c) => (
          <Card key={c.name} data-testid={`addon-${c.name}`}>
            <div className="wb-object-card-head">
              <strong className="wb-object-card-title">
                {i18n.i18n.exists(`apps:component.${c.name}.title`) ? t(`component.${c.name}.title`) : c.name}
              </strong>
              {c.available === false ? (
                <Tag minimal round data-testid={`addon-${c.name}-unavailable`}>
                  {t('not_installed')}
                </Tag>
              ) : (
                <Tag intent={c.enabled ? 'success' : 'warning'} round>
                  {t(c.enabled ? 'enabled' : 'disabled')}
                </Tag>
              )}
            </div>
            {i18n.i18n.exists(`apps:component.${c.name}.text`) && <p>{t(`component.${c.name}.text`)}</p>}
            {c.available === false ? (
              <div className="wb-muted">{t('not_installed_hint')}</div>
            ) : c.licence ? (
              <div className="wb-muted">
                {c.licence.development ? t('development') : t('by', { licensee: c.licence.licensee })} ·{' '}
                {t('until', { date: date(c.licence.expires) })}
              </div>
            ) : (
              <AddonNotice component={c.name} />
            )}
          </Card>
        ))}
      </div>
      <H4 style={{ marginTop: 24 }}>{t('plugins')}</H4>
      <HTMLTable striped compact className="wb-table">
        <tbody>
          {plugins.map((p) => (
            <tr key={p.name} data-testid={`plugin-${p.name}`}>
              <td>
                <strong>{p.title?.[i18n.language] ?? p.name}</strong> <span className="wb-muted">({p.name})</span>
              </td>
              <td>{p.summary?.[i18n.language] ?? p.description}</td>
              <td>{p.version ? t('version', { version: p.version }) : ''}</td>
              <td>{p.components?.length ? t('needs', { components: p.components.join(', ') }) : ''}</td>
              <td>
                <Tag intent={p.enabled ? 'success' : 'warning'} round>
                  {t(p.enabled ? 'enabled' : 'disabled')}
                </Tag>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {config.isSuperuser && licences.length > 0 && (
        <>
          <H4 style={{ marginTop: 24 }}>{t('licences')}</H4>
          <HTMLTable compact className="wb-table">
            <tbody>
              {licences.map((l, i) => (
                <tr key={`${l.id}-${i}`}>
                  <td>{l.development ? t('development') : (l.licensee ?? '-')}</td>
                  <td>
                    <Tag intent={l.state === 'valid' ? 'success' : 'danger'} minimal>
                      {t(`licence_state.${l.state}`)}
                    </Tag>
                  </td>
                  <td>{l.expires ? t('until', { date: date(l.expires) }) : ''}</td>
                  <td>{l.components.join(', ')}</td>
                  <td className="wb-muted">{l.reason}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </>
      )}
      {installing && (
        <InstallDialog
          onClose={(ok) => {
            setInstalling(false);
            if (ok) location.reload();
          }}
        />
      )}
    </div>
  );
});

export default AppsScreen;
