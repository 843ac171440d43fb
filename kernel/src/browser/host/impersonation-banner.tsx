import { useState } from 'react';
import { Button, Callout } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useService, useT } from '../react-context';
import { ConfigStore } from '../config-store';
import { ApiClient } from '../api-client';
import { NotificationService } from '../notification-service';

/** The server's call that ends impersonation (docs/api.md "Impersonation"). */
export const STOP_IMPERSONATION_PATH = '/api/v2/backend/impersonate/stop';

/**
 * While a superuser acts as another user (issue 19), a banner above every screen says whom they act
 * as, with a button to return to their own account (a full reload: the session changes).
 */
export const ImpersonationBanner = observer(function ImpersonationBanner() {
  const config = useService(ConfigStore);
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const t = useT();
  const [busy, setBusy] = useState(false);
  const by = config.config.auth.impersonator;
  if (!by) return null;
  const stop = async () => {
    setBusy(true);
    try {
      await api.post(STOP_IMPERSONATION_PATH, {});
      location.assign('/');
    } catch (e) {
      notifications.error((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <Callout intent="warning" icon="people" className="wb-impersonation" data-testid="impersonation-banner">
      {t('impersonation.acting_as', { user: config.config.auth.display_name ?? '', impersonator: by.display_name })}{' '}
      <Button size="small" intent="warning" text={t('impersonation.return')} loading={busy} onClick={() => void stop()} />
    </Callout>
  );
});
