import { useState, type ReactElement } from '@werkbank/sdk/globe';
import type { SelectionField } from '@werkbank/plugin-layers/api';
import type { SceneLayer } from '../common/view-scene';
import type { GlobePick } from './viewer-globe';
import { featureInfoUrl, safeUrl } from './feature-info';
import { BoxHeader, MapBox } from './viewer-parts';
import { markdownHtml } from './markdown';
import type { ViewerT } from './viewer-i18n';

/** A feature found at a clicked place, with the layer it belongs to. */
export interface Selected {
  layer: SceneLayer;
  properties: Record<string, unknown>;
}

/** The first feature at the place among the queryable layers, top layer first; null: none. */
export async function selectAt(
  layers: readonly SceneLayer[],
  pick: GlobePick,
  paramsOf: (layer: SceneLayer) => Record<string, string>,
): Promise<Selected | null> {
  for (const layer of [...layers].reverse()) {
    if (!layer.queryable || !layer.source) continue;
    const reply = await fetch(featureInfoUrl(layer, pick, paramsOf(layer)), { credentials: 'same-origin' });
    if (!reply.ok) throw new Error(String(reply.status));
    const found = (await reply.json()) as { features?: Array<{ properties?: Record<string, unknown> }> };
    const feature = found.features?.[0];
    if (feature) return { layer, properties: feature.properties ?? {} };
  }
  return null;
}

function number(v: unknown, digits: number | undefined, lang: string): string {
  const n = typeof v === 'number' ? v : Number(v);
  if (v === null || v === undefined || v === '' || !Number.isFinite(n)) return String(v ?? '');
  return n.toLocaleString(
    lang,
    digits === undefined ? { maximumFractionDigits: 0 } : { minimumFractionDigits: digits, maximumFractionDigits: digits },
  );
}

/** One selection field (spec 001 §3.1: its 15 types) for a value. */
function Field({
  field,
  value,
  lang,
  t,
}: {
  field: SelectionField;
  value: unknown;
  lang: string;
  t: ViewerT;
}): ReactElement | null {
  const label = field.displayName || field.key;
  const unit = field.unit ? ` ${field.unit}` : '';
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const url = safeUrl(value);
  const row = (shown: ReactElement | string) => (
    <p className="wbv-sel-row">
      <span className="wbv-sel-label">{label}</span> <span>{shown}</span>
    </p>
  );
  switch (field.type) {
    case 'title':
      return <h3 className="wbv-sel-title">{text}</h3>;
    case 'text_only':
      return <p className="wbv-sel-text">{text}</p>;
    case 'markdown_only':
      return <div className="wbv-sel-markdown" dangerouslySetInnerHTML={{ __html: markdownHtml(text) }} />;
    case 'markdown':
      return (
        <div className="wbv-sel-row">
          <span className="wbv-sel-label">{label}</span>
          <div className="wbv-sel-markdown" dangerouslySetInnerHTML={{ __html: markdownHtml(text) }} />
        </div>
      );
    case 'integer':
      return row(number(value, undefined, lang) + unit);
    case 'float_one_decimal':
      return row(number(value, 1, lang) + unit);
    case 'float_two_decimals':
      return row(number(value, 2, lang) + unit);
    case 'link':
      return row(
        url ? (
          <a href={url} target="_blank" rel="noopener noreferrer">
            {text}
          </a>
        ) : (
          text
        ),
      );
    case 'button':
    case 'open_url':
      return url ? (
        <p>
          <a className="wbv-button" href={url} target="_blank" rel="noopener noreferrer">
            {field.type === 'open_url' ? t('open_link', { name: label }) : label}
          </a>
        </p>
      ) : null;
    case 'frame_button':
      return url ? <FrameButton label={label} url={url} /> : null;
    case 'image':
      return url ? row(<img src={url} alt={label} />) : null;
    case 'image_header':
    case 'image_only':
      return url ? <img className="wbv-sel-image" src={url} alt={label} /> : null;
    default:
      return row(text + unit);
  }
}

/** A button that opens its address in a frame inside the selection window. */
function FrameButton({ label, url }: { label: string; url: string }): ReactElement {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button type="button" className="wbv-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {label}
      </button>
      {open && (
        <iframe className="wbv-sel-frame" src={url} title={label} sandbox="allow-scripts allow-same-origin allow-popups" />
      )}
    </div>
  );
}

/**
 * The selection window of a clicked feature, built from its layer's selection fields in their
 * order (visible ones only); a layer without fields shows every property. Escape closes it; it takes
 * the focus when it opens.
 */
export function SelectionWindow(props: {
  selected: Selected;
  tr: (text: string) => string;
  lang: string;
  t: ViewerT;
  onClose: () => void;
}): ReactElement {
  const { selected, t } = props;
  const source = selected.layer.source!;
  const fields: SelectionField[] = source.selection_fields.length
    ? source.selection_fields.filter((f) => f.visible !== false)
    : Object.keys(selected.properties).map((key) => ({ key, displayName: key, type: 'text' }));
  const title = props.tr(source.selection_title || selected.layer.name || source.name);
  const headers = fields.filter((f) => f.type === 'image_header');
  const rest = fields.filter((f) => f.type !== 'image_header');
  return (
    <MapBox label={t('selection')} focusKey={selected} onClose={props.onClose}>
      {headers.map((f) => (
        <Field key={f.key} field={f} value={selected.properties[f.key]} lang={props.lang} t={t} />
      ))}
      <BoxHeader title={title} t={t} onClose={props.onClose} />
      <div className="wbv-sel-fields">
        {rest.map((f) => (
          <Field
            key={f.key}
            field={{ ...f, displayName: props.tr(f.displayName) }}
            value={selected.properties[f.key]}
            lang={props.lang}
            t={t}
          />
        ))}
      </div>
    </MapBox>
  );
}
