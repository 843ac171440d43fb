import { useMemo } from '@werkbank/sdk/react';
import { Button } from '@werkbank/sdk/ui';
import { MapView, observer, useT } from '@werkbank/sdk/browser';
import type { MapFeature } from '@werkbank/sdk';
import type { FrameDialogStore } from './frame-dialog-store';
import type { FrameItem } from './frame-kind';

/** The feature of a feature frame's item (`{feature: {type, geometry, properties}}`), if it has one. */
export function itemFeature(item: FrameItem | undefined, index: number): MapFeature | undefined {
  const f = item?.feature as MapFeature | undefined;
  if (!f || typeof f !== 'object' || !('geometry' in f)) return undefined;
  return { type: 'Feature', id: index, geometry: f.geometry, properties: f.properties ?? {} };
}

/**
 * The Map tab of the frame dialog for feature frames (issue 16, read-only): the loaded datums as
 * the dialog shows them (changes not saved yet included) on the SDK map; more pages load on request.
 */
export const FrameMapTab = observer(function FrameMapTab({ store }: { store: FrameDialogStore }) {
  const t = useT('sb-frame');
  const content = store.content;
  const loaded = content.items.length;
  const features = useMemo(
    () => [...content.items.map((_, i) => store.itemAt(i)), ...store.added].flatMap((item, i) => itemFeature(item, i) ?? []),
    [content.items, loaded, store.added.length, store.edits.size],
  );
  return (
    <div data-testid="frame-map">
      <MapView features={features} modeKey="frame" label={String(t('map.label'))} height="calc(60vh - 48px)" />
      <p className="wb-muted" role="status" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        {content.hasMore ? t('map.partial', { count: loaded, total: content.total }) : t('map.all', { count: content.total })}
        {content.hasMore && (
          <Button size="small" text={t('map.more')} loading={content.loading} onClick={() => void content.loadMore()} />
        )}
      </p>
    </div>
  );
});
