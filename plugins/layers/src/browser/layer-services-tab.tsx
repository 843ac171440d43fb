import { Button, Callout, FormGroup, InputGroup } from '@werkbank/sdk/ui';
import { ConfigStore, NotificationService, useService, useT } from '@werkbank/sdk/browser';
import { serviceUrls } from '../common/service-urls';
import type { Layer } from '../common/layers-api';

/** The Services tab (spec 001 §2.2): the layer's service addresses from the configured templates. */
export function LayerServicesTab({ layer }: { layer: Layer }) {
  const t = useT('layers');
  const config = useService(ConfigStore);
  const notifications = useService(NotificationService);
  const urls = serviceUrls(layer, config.config.service_urls, window.location.origin);
  const copy = (url: string) =>
    void navigator.clipboard?.writeText(url).then(
      () => notifications.success(String(t('core:common.copied'))),
      () => undefined,
    );
  return (
    <div data-testid="layer-services">
      <p className="wb-muted">{t('services.intro')}</p>
      {!urls.length && <Callout>{t('services.none')}</Callout>}
      {urls.map(({ kind, url }) => (
        <FormGroup key={kind} label={t(`services.${kind}`)} labelFor={`layer-service-${kind}`}>
          <InputGroup
            id={`layer-service-${kind}`}
            readOnly
            value={url}
            data-testid={`layer-service-${kind}`}
            rightElement={
              <Button variant="minimal" icon="clipboard" aria-label={String(t('services.copy'))} onClick={() => copy(url)} />
            }
          />
        </FormGroup>
      ))}
    </div>
  );
}
