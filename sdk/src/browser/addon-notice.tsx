import { useState, type ReactNode } from 'react';
import { Button, Callout } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { ApiClient, ConfigStore, NotificationService, useService, useT } from '@werkbank/kernel/browser';

/**
 * The add-on licence notice (spec 001 §2.1, §2.2): 'The {name} add-on has not yet been licensed.'
 * with 'Request more information', which records the interest ({addon}inform/).
 */
export function AddonNotice({ component }: { component: string }) {
  const t = useT();
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const [sent, setSent] = useState(false);
  const inform = async () => {
    try {
      await api.post(`/api/v1/addon/${encodeURIComponent(component)}/inform/`);
      setSent(true);
      notifications.success(String(t('addon.interest_registered')));
    } catch (e) {
      notifications.error((e as Error).message);
    }
  };
  return (
    <Callout intent="warning" icon="lock" data-testid={`addon-notice-${component}`}>
      <p>{t('addon.not_licensed', { name: t(`addon.component_names.${component}`, { defaultValue: component }) })}</p>
      <Button intent="primary" disabled={sent} onClick={inform} text={t('addon.request_info')} />
    </Callout>
  );
}

/** Renders `children` when the licensed component is on, otherwise the add-on notice. */
export const Licensed = observer(function Licensed({ component, children }: { component: string; children: ReactNode }) {
  const config = useService(ConfigStore);
  return config.isEnabled(component) ? <>{children}</> : <AddonNotice component={component} />;
});
