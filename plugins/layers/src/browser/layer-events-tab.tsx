import { ObjectEvents, useT } from '@werkbank/sdk/browser';

/** The Events tab (spec 001 §2.2, §7 "layer events (param layer_id)"): the layer's feed, newest first. */
export function LayerEventsTab({ layerId }: { layerId: number }) {
  const t = useT('layers');
  return <ObjectEvents filter={{ layer_id: layerId }} emptyText={String(t('events.empty'))} testId="layer-events" />;
}
