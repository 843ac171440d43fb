import { NonIdealState, AnchorButton } from '@blueprintjs/core';
import { useLocation } from 'react-router';
import { useT } from '../react-context';
import { featureOf } from './spec-routes';

/** A route nobody serves: says whether it belongs to a feature whose plugin is not installed. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  const t = useT();
  const feature = featureOf(pathname);
  return (
    <NonIdealState
      icon={feature ? 'disable' : 'search'}
      title={t('notfound.title')}
      description={
        feature
          ? t('notfound.plugin_missing', { path: pathname, feature: t(`features.${feature}`) })
          : t('notfound.text', { path: pathname })
      }
      action={<AnchorButton href="/" text={t('notfound.home')} />}
    />
  );
}
