import { useEffect, useRef, useState, useLocation, useNavigate } from '@werkbank/sdk/react';
import { Button, Callout, NonIdealState, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, useService, useT } from '@werkbank/sdk/browser';
import { CREATE_FROM_DATUM_PATH, switchboardRoute } from '../../common/switchboard-types';

/**
 * "Use in switchboard" (spec 000 §2, §7) at /switchboards/from-datum?datum={address}: creates a
 * switchboard with one frame holding the datum (POST /api/v2/switchboard/create/datum/) and replaces
 * itself with that switchboard's canvas, so Back returns to the depot. A refusal is shown with a
 * way back.
 */
export default function FromDatumScreen() {
  const api = useService(ApiClient);
  const navigate = useNavigate();
  const t = useT('sb-lists');
  const datum = new URLSearchParams(useLocation().search).get('datum') ?? '';
  const [error, setError] = useState<string>();
  // Creating changes state: once per datum, also if React runs the effect twice.
  const started = useRef<string>(undefined);

  useEffect(() => {
    if (!datum || started.current === datum) return;
    started.current = datum;
    api.post<{ switchboard_id: number }>(CREATE_FROM_DATUM_PATH, undefined, { query: { datum } }).then(
      (created) => navigate(switchboardRoute(created.switchboard_id), { replace: true }),
      (e: Error) => setError(e.message),
    );
  }, [api, datum]);

  if (!datum || error) {
    return (
      <div className="wb-page" data-testid="from-datum">
        <Callout intent="danger" title={String(t('datum.failed'))} className="wb-gap">
          {error ?? t('datum.missing')}
        </Callout>
        <Button icon="arrow-left" text={t('datum.back')} onClick={() => navigate(-1)} />
      </div>
    );
  }
  return (
    <div className="wb-page" data-testid="from-datum">
      <NonIdealState icon={<Spinner size={32} />} title={String(t('datum.creating'))} />
    </div>
  );
}
