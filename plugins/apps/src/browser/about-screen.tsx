import { useEffect, useMemo, useState } from '@werkbank/sdk/react';
import { Callout, FormGroup, H2, H3, HTMLTable, InputGroup, Spinner, Tag } from '@werkbank/sdk/ui';
import { ApiClient, I18nService, useService, useT } from '@werkbank/sdk/browser';

export const ABOUT_PATH = '/api/v2/backend/about';

interface About {
  product: string;
  version: string;
  node: string;
  plugins: Array<{
    id: string;
    title: string;
    package: string | null;
    version: string;
    license: string | null;
    components: string[];
  }>;
  components: Array<{
    id: string;
    enabled: boolean;
    licence: { id: string; licensee: string; expires: string; development: boolean } | null;
    plugins: string[];
  }>;
  third_party: Array<{ name: string; version: string; license: string | null; homepage: string | null }>;
}

/** How many packages use each licence, most used first. */
function licenceCounts(packages: About['third_party'], unstated: string): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const p of packages) counts.set(p.license ?? unstated, (counts.get(p.license ?? unstated) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/**
 * /about/ (spec 000 §2 "information"): Werkbank's version; the installed plugins with their
 * licence and the licensed components they need; each component with the licence that enables it;
 * the third-party packages with their licences, generated from the lockfile, filterable.
 */
export default function AboutScreen() {
  const api = useService(ApiClient);
  const i18n = useService(I18nService);
  const t = useT('apps');
  const [about, setAbout] = useState<About>();
  const [failure, setFailure] = useState<string>();
  const [filter, setFilter] = useState('');
  useEffect(() => {
    api.get<About>(ABOUT_PATH).then(setAbout, (e: Error) => setFailure(e.message));
  }, [api, i18n.language]);

  const unstated = String(t('about.not_stated'));
  const shown = useMemo(() => {
    const f = filter.trim().toLowerCase();
    return (about?.third_party ?? []).filter(
      (p) => !f || p.name.toLowerCase().includes(f) || (p.license ?? '').toLowerCase().includes(f),
    );
  }, [about, filter]);
  const date = new Intl.DateTimeFormat(i18n.language === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium' });

  if (failure)
    return (
      <div className="wb-page">
        <Callout intent="danger" role="alert" title={String(t('about.error_title'))}>
          {t('about.failed', { message: failure })}
        </Callout>
      </div>
    );
  if (!about) return <Spinner aria-label={String(t('about.loading'))} />;
  return (
    <div className="wb-page" data-testid="about-page">
      <div className="wb-toolbar">
        <H2>{t('about.title', { product: about.product })}</H2>
      </div>
      <p data-testid="about-version">
        {t('about.version', { version: about.version })} · {t('about.runtime', { node: about.node })}
      </p>

      <section aria-labelledby="about-plugins">
        <H3 id="about-plugins">{t('about.plugins')}</H3>
        <HTMLTable compact striped aria-labelledby="about-plugins" data-testid="about-plugins">
          <thead>
            <tr>
              <th scope="col">{t('about.plugin')}</th>
              <th scope="col">{t('about.package')}</th>
              <th scope="col">{t('about.plugin_version')}</th>
              <th scope="col">{t('about.licence')}</th>
              <th scope="col">{t('about.needs')}</th>
            </tr>
          </thead>
          <tbody>
            {about.plugins.map((p) => (
              <tr key={p.id} data-testid="about-plugin">
                <td>{p.title}</td>
                <td>
                  <code>{p.package ?? p.id}</code>
                </td>
                <td>{p.version}</td>
                <td>{p.license ?? unstated}</td>
                <td>{p.components.length ? p.components.join(', ') : '–'}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </section>

      <section aria-labelledby="about-components">
        <H3 id="about-components">{t('about.components')}</H3>
        <HTMLTable compact striped aria-labelledby="about-components" data-testid="about-components">
          <thead>
            <tr>
              <th scope="col">{t('about.component')}</th>
              <th scope="col">{t('about.state')}</th>
              <th scope="col">{t('about.licence')}</th>
              <th scope="col">{t('about.valid_until')}</th>
            </tr>
          </thead>
          <tbody>
            {about.components.map((c) => (
              <tr key={c.id} data-testid="about-component">
                <td>
                  <code>{c.id}</code>
                </td>
                <td>
                  <Tag minimal intent={c.enabled ? 'success' : 'none'}>
                    {t(c.enabled ? 'about.licensed' : 'about.not_licensed')}
                  </Tag>
                </td>
                <td>
                  {c.licence
                    ? `${c.licence.licensee} (${c.licence.id})${c.licence.development ? ` · ${t('about.development')}` : ''}`
                    : '–'}
                </td>
                <td>{c.licence ? date.format(new Date(c.licence.expires)) : '–'}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </section>

      <section aria-labelledby="about-third-party">
        <H3 id="about-third-party">{t('about.third_party')}</H3>
        <p className="wb-muted">{t('about.third_party_intro', { count: about.third_party.length })}</p>
        <p data-testid="about-licence-summary">
          {licenceCounts(about.third_party, unstated)
            .map(([licence, n]) => `${licence}: ${n}`)
            .join(' · ')}
        </p>
        <FormGroup label={t('about.filter')} labelFor="about-filter" style={{ maxWidth: 360 }}>
          <InputGroup
            id="about-filter"
            type="search"
            leftIcon="search"
            value={filter}
            onValueChange={setFilter}
            data-testid="about-filter"
          />
        </FormGroup>
        <p role="status" className="wb-muted">
          {t('about.shown', { count: shown.length, total: about.third_party.length })}
        </p>
        <HTMLTable compact striped aria-labelledby="about-third-party" data-testid="about-third-party">
          <thead>
            <tr>
              <th scope="col">{t('about.package')}</th>
              <th scope="col">{t('about.plugin_version')}</th>
              <th scope="col">{t('about.licence')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((p) => (
              <tr key={`${p.name}@${p.version}`} data-testid="about-package">
                <td>
                  {p.homepage ? (
                    <a href={p.homepage} target="_blank" rel="noopener noreferrer">
                      {p.name}
                    </a>
                  ) : (
                    p.name
                  )}
                </td>
                <td>{p.version}</td>
                <td>{p.license ?? unstated}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </section>
    </div>
  );
}
