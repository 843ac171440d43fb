import { useEffect, useState, useNavigate } from '@werkbank/sdk/react';
import { Button, Callout, H2, HTMLTable, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, ConfigStore, Licensed, NotificationService, observer, useService, useT } from '@werkbank/sdk/browser';
import {
  VISITORS_OVERVIEW_PATH,
  viewVisitorsPath,
  type ViewVisitorsOverview,
  type ViewVisitorStatistics,
} from '../common/view-analytics';
import { viewEditRoute } from '../common/views-ids';

const PAGE = 50;

/** The Analytics tab of the view editor (spec 002 §2, §7): the last 7 days, the total and each month. */
export function ViewAnalyticsTab({ viewId }: { viewId: number }) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const t = useT('views');
  const [stats, setStats] = useState<ViewVisitorStatistics>();
  const [error, setError] = useState<string>();
  const template = config.config.analytics_urls?.visitors_for_view;
  const address = template ? template.replaceAll('{id}', String(viewId)) : viewVisitorsPath(viewId);
  useEffect(() => {
    api.get<ViewVisitorStatistics>(address).then(setStats, (e: Error) => setError(e.message));
  }, [api, address]);
  if (error) return <Callout intent="danger">{error}</Callout>;
  if (!stats) return <Spinner />;
  return (
    <div data-testid="view-analytics">
      <HTMLTable compact>
        <thead>
          <tr>
            <th />
            <th>{t('analytics.pageviews')}</th>
            <th>{t('analytics.visitors')}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{t('analytics.last_seven_days')}</th>
            <td>{stats.last_seven_days.pageviews}</td>
            <td>{stats.last_seven_days.visitors}</td>
          </tr>
          <tr>
            <th scope="row">{t('analytics.total')}</th>
            <td>{stats.total.pageviews}</td>
            <td>{stats.total.visitors}</td>
          </tr>
          {stats.monthly.map((m) => (
            <tr key={m.date}>
              <th scope="row">
                {new Date(`${m.date}T00:00:00Z`).toLocaleDateString(undefined, {
                  year: 'numeric',
                  month: 'long',
                  timeZone: 'UTC',
                })}
              </th>
              <td>{m.pageviews}</td>
              <td>{m.visitors}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <p className="bp6-text-muted">{t('analytics.privacy')}</p>
    </div>
  );
}

/** /analytics/ (spec 000 §2): the visitors of every view the user may read, most viewed this week first. */
const AnalyticsScreen = observer(function AnalyticsScreen() {
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const navigate = useNavigate();
  const t = useT('views');
  const [page, setPage] = useState<ViewVisitorsOverview>();
  const load = (offset: number) =>
    api.get<ViewVisitorsOverview>(VISITORS_OVERVIEW_PATH, { query: { limit: PAGE, offset } }).then(
      (next) => setPage((prev) => (prev && offset ? { ...next, objects: [...prev.objects, ...next.objects] } : next)),
      (e: Error) => notifications.error(e.message),
    );
  useEffect(() => void load(0), [api]);
  return (
    <div className="wb-page" data-testid="analytics">
      <div className="wb-toolbar">
        <H2>{t('analytics.title')}</H2>
      </div>
      <Licensed component="analytics">
        {!page ? (
          <Spinner />
        ) : !page.objects.length ? (
          <Callout>{t('analytics.none')}</Callout>
        ) : (
          <>
            <HTMLTable compact striped>
              <thead>
                <tr>
                  <th>{t('analytics.view')}</th>
                  <th>
                    {t('analytics.last_seven_days')}: {t('analytics.pageviews')}
                  </th>
                  <th>
                    {t('analytics.last_seven_days')}: {t('analytics.visitors')}
                  </th>
                  <th>
                    {t('analytics.total')}: {t('analytics.pageviews')}
                  </th>
                  <th>
                    {t('analytics.total')}: {t('analytics.visitors')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.objects.map((o) => {
                  const id = Number(/(\d+)\/$/.exec(o.view)?.[1]);
                  return (
                    <tr key={o.view}>
                      <td>
                        <a
                          href={viewEditRoute(id)}
                          onClick={(e) => {
                            e.preventDefault();
                            navigate(viewEditRoute(id));
                          }}
                        >
                          {o.name}
                        </a>
                      </td>
                      <td>{o.last_seven_days.pageviews}</td>
                      <td>{o.last_seven_days.visitors}</td>
                      <td>{o.total.pageviews}</td>
                      <td>{o.total.visitors}</td>
                    </tr>
                  );
                })}
              </tbody>
            </HTMLTable>
            {page.objects.length < page.meta.total_count && (
              <Button text={t('analytics.more')} onClick={() => void load(page.objects.length)} />
            )}
            <p className="bp6-text-muted">{t('analytics.privacy')}</p>
          </>
        )}
      </Licensed>
    </div>
  );
});

export default AnalyticsScreen;
