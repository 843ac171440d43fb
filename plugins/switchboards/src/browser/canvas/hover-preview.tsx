import { useEffect, useState } from '@werkbank/sdk/react';
import { Card, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, observer, useService } from '@werkbank/sdk/browser';
import { typeName } from '../../common/switchboard-types';
import type { CanvasController } from './canvas-controller';

/** How many datums the hover preview shows. */
export const HOVER_PREVIEW_ITEMS = 5;

/** One datum as one line of text. */
export function datumText(item: unknown): string {
  if (item && typeof item === 'object' && 'value' in item && Object.keys(item).length <= 2) {
    const v = (item as { value: unknown }).value;
    return typeof v === 'string' ? v : JSON.stringify(v);
  }
  return JSON.stringify(item);
}

/**
 * The data of a frame under the pointer (beyond spec 000): hovering a frame or a link shows the
 * frame's size and its first datums, so data can be inspected between nodes without a dialog.
 */
export const HoverPreview = observer(function HoverPreview({ c }: { c: CanvasController }) {
  const api = useService(ApiClient);
  const target = c.hoverTarget;
  const frame = target ? c.store.frames.get(target.frame) : undefined;
  const [items, setItems] = useState<{ key: string; items: unknown[] } | undefined>();
  const key = frame ? `${frame.resource_uri}@${frame.content_hash ?? frame.size}` : '';
  useEffect(() => {
    if (!frame || items?.key === key) return;
    let live = true;
    void api
      .get<{ objects: unknown[] }>(`${frame.resource_uri}content/`, { query: { limit: HOVER_PREVIEW_ITEMS } })
      .then((page) => live && setItems({ key, items: page.objects }))
      .catch(() => live && setItems({ key, items: [] }));
    return () => {
      live = false;
    };
  }, [key]);
  if (!target || !frame) return null;
  const shown = items?.key === key ? items.items : undefined;
  return (
    <Card
      className="wb-hover-preview"
      data-testid="hover-preview"
      style={{ left: target.x + 16, top: target.y + 16 }}
      elevation={3}
    >
      <div className="wb-hover-title">
        <strong>{frame.name || typeName(frame.content_type)}</strong> · {typeName(frame.content_type)} ·{' '}
        {c.t('frame.size', { count: frame.size })}
      </div>
      {!shown ? (
        <Spinner size={16} />
      ) : shown.length === 0 ? (
        <div className="wb-muted">{c.t('frame.empty')}</div>
      ) : (
        <ol className="wb-hover-items" start={0}>
          {shown.map((item, i) => (
            <li key={i}>{datumText(item)}</li>
          ))}
          {frame.size > shown.length && <li className="wb-muted">{c.t('frame.more', { count: frame.size - shown.length })}</li>}
        </ol>
      )}
    </Card>
  );
});
