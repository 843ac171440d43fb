import { Link, useRef, useState } from '@werkbank/sdk/react';
import { Button, Callout, HTMLTable, Icon, InputGroup, Tag } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { moved } from '../common/pile-order';
import type { Layer, LayerPile } from '../common/layers-api';

/** The canvas screen (spec 000 §2 `/switchboard/{id}`) of a switchboard address. */
const switchboardScreen = (address: string) => `/switchboard/${/(\d+)\/?$/.exec(address)?.[1] ?? ''}`;

/** A pile as the editor holds it: a stored pile, or a depot just added (saved with the layer). */
export type DraftPile = Partial<LayerPile> & { depot: string };

/**
 * The Data tab (spec 001 §2.2): the layer's piles, top first; drag a row to reorder; `active` is
 * read-only. Adding takes a depot's id or address; the server checks it on save. (The bbox map
 * comes with the map component.)
 */
export function LayerDataTab({
  piles,
  readOnly,
  onChange,
}: {
  layer: Layer;
  piles: DraftPile[];
  readOnly: boolean;
  onChange(piles: DraftPile[]): void;
}) {
  const t = useT('layers');
  // A ref, not state: the drop may come before a render after the drag started.
  const dragged = useRef<number | undefined>(undefined);
  const [adding, setAdding] = useState('');
  const add = () => {
    const raw = adding.trim();
    const id = /^\d+$/.test(raw) ? raw : /\/api\/v1\/depot\/(\d+)\/?$/.exec(raw)?.[1];
    if (!id) return;
    onChange([...piles, { depot: `/api/v1/depot/${id}/`, name: '' }]);
    setAdding('');
  };
  return (
    <div data-testid="layer-data">
      <p className="wb-muted">{t('data.intro')}</p>
      {!piles.length && <Callout>{t('data.empty')}</Callout>}
      {!!piles.length && (
        <HTMLTable compact striped className="wb-fill">
          <thead>
            <tr>
              <th aria-label={String(t('data.move'))} />
              <th>{t('data.name')}</th>
              <th>{t('data.content_type')}</th>
              <th>{t('data.size')}</th>
              <th>{t('data.active')}</th>
              <th>{t('data.switchboard')}</th>
              <th aria-label={String(t('data.remove'))} />
            </tr>
          </thead>
          <tbody>
            {piles.map((p, i) => (
              <tr
                key={`${p.id ?? 'new'}-${p.depot}-${i}`}
                data-testid="layer-pile"
                draggable={!readOnly}
                onDragStart={() => (dragged.current = i)}
                onDragOver={(e) => e.preventDefault()}
                onDrop={() => {
                  if (dragged.current !== undefined) onChange(moved(piles, dragged.current, i));
                  dragged.current = undefined;
                }}
              >
                <td title={String(t('data.move'))}>
                  <Icon icon="drag-handle-vertical" />
                </td>
                <td>{p.name || p.depot}</td>
                <td>{p.content_type?.replace(/^\/api\/v1\/type\//, '').replace(/\/$/, '') ?? ''}</td>
                <td>{p.size ?? ''}</td>
                <td>
                  <Tag minimal intent={p.active ? 'success' : 'none'}>
                    {t(p.active ? 'data.active' : 'data.inactive')}
                  </Tag>
                </td>
                <td>
                  {p.switchboard && (
                    <Link data-testid="pile-switchboard" to={switchboardScreen(p.switchboard)}>
                      {p.switchboard_name || p.switchboard}
                    </Link>
                  )}
                </td>
                <td>
                  {!readOnly && (
                    <Button
                      size="small"
                      variant="minimal"
                      icon="cross"
                      aria-label={String(t('data.remove'))}
                      onClick={() => onChange(piles.filter((_, j) => j !== i))}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {!readOnly && (
        <div className="wb-form-row">
          <InputGroup
            id="layer-add-pile"
            aria-label={String(t('data.add_placeholder'))}
            placeholder={String(t('data.add_placeholder'))}
            value={adding}
            onValueChange={setAdding}
          />
          <Button icon="add" text={t('data.add')} onClick={add} />
        </div>
      )}
    </div>
  );
}
