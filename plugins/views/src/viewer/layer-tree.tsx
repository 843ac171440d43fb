import { useState, type ReactElement } from '@werkbank/sdk/globe';
import type { SceneLayer, SceneLayerGroup } from '../common/view-scene';
import { atTime, childPath, offeredFilters, switchLayer, withQuery, type LayerState } from './viewer-state';
import { LayerFilters } from './layer-filters';
import type { ViewerT } from './viewer-i18n';

interface TreeProps {
  root: SceneLayerGroup;
  state: LayerState;
  onState: (state: LayerState) => void;
  onZoom: (bbox: [number, number, number, number]) => void;
  /** The part of the globe the map shows now (for downloads of the current extent). */
  viewBox: () => [number, number, number, number] | undefined;
  /** A text of the view in the visitor's language. */
  tr: (text: string) => string;
  t: ViewerT;
  lang: string;
}

/** The legend of a layer, drawn by its map service (GetLegendGraphic). */
const legendUrl = (layer: SceneLayer, finalview: string | null) =>
  `${layer.source!.wms.url}?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetLegendGraphic&FORMAT=image/png&LAYER=${encodeURIComponent(
    layer.source!.wms.layers,
  )}${finalview ? `&finalview=${encodeURIComponent(finalview)}` : ''}`;

function LayerRow(props: TreeProps & { group: SceneLayerGroup; layer: SceneLayer; finalview: string | null }): ReactElement {
  const { layer, state, t } = props;
  const [about, setAbout] = useState(false);
  // Groups shown as filters open their layers' filters.
  const [filtering, setFiltering] = useState(props.group.group_display === 'filters');
  const name = props.tr(layer.name || layer.source?.name || '');
  const on = !!state.on[layer.id];
  const id = `wbv-layer-${layer.id}`;
  if (!layer.source)
    return (
      <li className="wbv-layer wbv-unavailable">
        <span>{name || layer.layer}</span> <small title={t('unavailable_hint')}>({t('unavailable')})</small>
      </li>
    );
  const source = layer.source;
  const description = props.tr(source.description);
  return (
    <li className="wbv-layer">
      <div className="wbv-row">
        <input
          id={id}
          type="checkbox"
          checked={on}
          onChange={(e) => props.onState(switchLayer(state, props.group, layer, e.target.checked))}
        />
        <label htmlFor={id}>{name}</label>
        {layer.layer_zoom_to_extent_visible && source.bbox && (
          <button
            type="button"
            className="wbv-icon"
            aria-label={t('zoom_to', { name })}
            title={t('zoom_to', { name })}
            onClick={() => props.onZoom(source.bbox!)}
          >
            ⌖
          </button>
        )}
        {on && offeredFilters(layer).length > 0 && (
          <button
            type="button"
            className="wbv-icon"
            aria-expanded={filtering}
            aria-controls={`wbv-filter-${layer.id}`}
            aria-label={t('filter', { name })}
            title={t('filter', { name })}
            onClick={() => setFiltering(!filtering)}
          >
            ⛃
          </button>
        )}
        {layer.layer_description_visible && (description || source.description_title) && (
          <button
            type="button"
            className="wbv-icon"
            aria-expanded={about}
            aria-label={t('about', { name })}
            title={t('about', { name })}
            onClick={() => setAbout(!about)}
          >
            ⓘ
          </button>
        )}
      </div>
      {on && !atTime(layer, state) && <small className="wbv-modified">{t('not_at_time')}</small>}
      {on && filtering && <LayerFilters layer={layer} state={state} onState={props.onState} tr={props.tr} t={t} />}
      {layer.opacity_editable && on && (
        <input
          className="wbv-opacity"
          type="range"
          min={0}
          max={100}
          value={Math.round((state.opacity[layer.id] ?? layer.opacity) * 100)}
          aria-label={t('opacity', { name })}
          onChange={(e) => props.onState({ ...state, opacity: { ...state.opacity, [layer.id]: Number(e.target.value) / 100 } })}
        />
      )}
      {layer.exportable &&
        source.geojson &&
        (['geojson', 'csv'] as const).map((format) => (
          <a
            key={format}
            className="wbv-download"
            href={source.geojson!}
            download
            onClick={(e) => {
              // The features in the map's current extent (the GeoJSON service's bbox), pinned for frozen views.
              const box = props.viewBox();
              e.currentTarget.href = withQuery(source.geojson!, {
                f: format === 'csv' ? 'csv' : '',
                bbox: box ? box.map((v) => v.toFixed(6)).join(',') : '',
                finalview: props.finalview ?? '',
              });
            }}
          >
            {t(format === 'csv' ? 'download_csv' : 'download', { name })}
          </a>
        ))}
      {layer.layer_revision_modified_visible && (
        <small className="wbv-modified">
          {t('modified', { date: new Date(source.modified).toLocaleDateString(props.lang) })}
        </small>
      )}
      {about && (
        <div className="wbv-about">
          {source.description_title && <strong>{props.tr(source.description_title)}</strong>}
          {description && <p>{description}</p>}
        </div>
      )}
      {on && props.group.group_display === 'layerlegend' && (
        <img className="wbv-legend" src={legendUrl(layer, props.finalview)} alt={t('legend', { name })} />
      )}
    </li>
  );
}

function Group(props: TreeProps & { group: SceneLayerGroup; path: string; finalview: string | null }): ReactElement {
  const { group, path, state, t } = props;
  const name = props.tr(group.name);
  const open = !!state.open[path];
  const on = !!state.groupsOn[path];
  const list = `wbv-group-${path.replace(/\./g, '-')}`;
  return (
    <li className="wbv-group">
      <div className="wbv-row">
        <button
          type="button"
          className="wbv-icon"
          aria-expanded={open}
          aria-controls={list}
          aria-label={t('open_group', { name })}
          onClick={() => props.onState({ ...state, open: { ...state.open, [path]: !open } })}
        >
          {open ? '▾' : '▸'}
        </button>
        <input
          id={`${list}-on`}
          type="checkbox"
          checked={on}
          aria-label={t('show_group', { name })}
          onChange={(e) => props.onState({ ...state, groupsOn: { ...state.groupsOn, [path]: e.target.checked } })}
        />
        <label htmlFor={`${list}-on`}>{name}</label>
      </div>
      {open && <Entries {...props} id={list} />}
    </li>
  );
}

/** A group's rows: its layers (those marked visible in the tree), then its groups. */
function Entries(
  props: TreeProps & { group: SceneLayerGroup; path: string; finalview: string | null; id?: string },
): ReactElement {
  const { group, path } = props;
  return (
    <ul id={props.id} className="wbv-entries">
      {group.layers
        .filter((l) => l.visible)
        .map((layer) => (
          <LayerRow key={layer.id} {...props} layer={layer} />
        ))}
      {group.layergroups.map((g, i) =>
        g.visible ? <Group key={childPath(path, i)} {...props} group={g} path={childPath(path, i)} /> : null,
      )}
    </ul>
  );
}

/**
 * The layer tree as the author configured it: entries and groups marked visible, each with its
 * switch; opacity, zoom to extent, description and revision date where the entry asks for them;
 * legends in groups shown as layer with legend. Entries the visitor may not read are named, not drawn.
 */
export function LayerTree(props: TreeProps & { finalview: string | null }): ReactElement {
  return <Entries {...props} group={props.root} path="" />;
}
