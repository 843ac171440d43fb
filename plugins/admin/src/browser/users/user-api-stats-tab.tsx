import { useEffect, useState } from '@werkbank/sdk/react';
import { Button, Callout, HTMLTable, NonIdealState, Spinner, Tag } from '@werkbank/sdk/ui';
import { ApiClient, I18nService, Licensed, useService, useT, type ListResponse } from '@werkbank/sdk/browser';
import { API_CALLS_PATH, formatDuration, formatMonth, statusIntent, type ApiCallStatistic } from '../../common/api-stats-format';

/**
 * The statistics table (spec 002 §2 "API Statistics", §8, §9): the user's API calls per month,
 * path and status code with count, p50 and p95 duration; status badges 2xx success, 3xx warning,
 * 4xx and above danger; an error alert titled 'Error' when loading fails.
 */
function ApiStatsTable({ user }: { user: string }) {
  const api = useService(ApiClient);
  const i18n = useService(I18nService);
  const t = useT('admin');
  const [rows, setRows] = useState<ApiCallStatistic[]>();
  const [failure, setFailure] = useState<string>();
  const [loading, setLoading] = useState(false);

  const load = () => {
    setLoading(true);
    setFailure(undefined);
    api
      .get<ListResponse<ApiCallStatistic>>(API_CALLS_PATH, { query: { user } })
      .then(
        (r) => setRows(r.objects),
        (e: Error) => setFailure(e.message),
      )
      .finally(() => setLoading(false));
  };
  useEffect(load, [api, user]);

  const lang = i18n.language;
  const number = new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB');
  return (
    <div data-testid="user-api-stats">
      <div className="wb-gap" style={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button icon="refresh" text={t('apistats.refresh')} loading={loading} onClick={load} data-testid="api-stats-refresh" />
      </div>
      {failure && (
        <Callout
          intent="danger"
          icon="error"
          title={String(t('apistats.error_title'))}
          role="alert"
          data-testid="api-stats-error"
        >
          {t('apistats.failed', { message: failure })}
        </Callout>
      )}
      {!rows && !failure && <Spinner size={30} aria-label={String(t('apistats.loading'))} />}
      {rows && !rows.length && !failure && <NonIdealState icon="timeline-line-chart" title={t('apistats.empty')} />}
      {!!rows?.length && !failure && (
        <div style={{ maxHeight: 360, overflow: 'auto' }}>
          <HTMLTable compact striped style={{ width: '100%' }} data-testid="api-stats-table">
            <caption className="bp6-text-muted" style={{ textAlign: 'start', captionSide: 'top' }}>
              {t('apistats.caption')}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('apistats.month')}</th>
                <th scope="col">{t('apistats.path')}</th>
                <th scope="col">{t('apistats.status')}</th>
                <th scope="col" style={{ textAlign: 'end' }}>
                  {t('apistats.count')}
                </th>
                <th scope="col" style={{ textAlign: 'end' }}>
                  {t('apistats.p50')}
                </th>
                <th scope="col" style={{ textAlign: 'end' }}>
                  {t('apistats.p95')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.month} ${r.path} ${r.status_code}`} data-testid="api-stats-row">
                  <td>{formatMonth(r.month, lang)}</td>
                  <td>
                    <code>{r.path}</code>
                  </td>
                  <td>
                    <Tag minimal intent={statusIntent(r.status_code)} data-testid="api-stats-status">
                      {r.status_code}
                    </Tag>
                  </td>
                  <td style={{ textAlign: 'end' }}>{number.format(r.count)}</td>
                  <td style={{ textAlign: 'end' }}>{formatDuration(r.p50_duration_ms, lang)}</td>
                  <td style={{ textAlign: 'end' }}>{formatDuration(r.p95_duration_ms, lang)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </div>
  );
}

/** The API Statistics tab (spec 002 §2: superusers, existing user, api_stats component). */
export function UserApiStatsTab({ user }: { user: string }) {
  return (
    <Licensed component="api_stats">
      <ApiStatsTable user={user} />
    </Licensed>
  );
}
