/**
 * A portal's layers and views (spec 002 §3, §5; decision 0087): their shapes and the one check both
 * the portal editor and the server apply. `attr` keeps only non-empty values, `queryable` and
 * `exportable` only when true; an external view's name defaults to its address in brackets.
 */

export const HEADLINE_ICONS = ['sun', 'plant', 'info', 'map', 'temp'] as const;
export type HeadlineIcon = (typeof HEADLINE_ICONS)[number];

/** Most layers and views one portal lists. */
export const MAX_PORTAL_ENTRIES = 500;

export interface PortalLayerAttr {
  image?: string;
  description?: string;
  queryable?: true;
  exportable?: true;
}

/** A layer on a portal page; `layer` is the layer's address. */
export interface PortalLayer {
  name: string;
  layer: string;
  order: number;
  attr: PortalLayerAttr;
}

export interface PortalViewAttr {
  external_url?: string;
  image?: string;
  subline?: string;
  description?: string;
  infobox_text?: string;
  headline_icon?: HeadlineIcon;
}

/** A view on a portal page: one of ours (`view`, its address) or an external one (`attr.external_url`). */
export interface PortalView {
  view: string | null;
  name: string;
  order: number;
  attr: PortalViewAttr;
}

export interface PortalProblem {
  key: string;
  field: string;
  params?: Record<string, unknown>;
}

const idOf = (kind: 'layer' | 'view', v: unknown): number | undefined => {
  const m = new RegExp(`^(?:/api/v1/${kind}/)?(\\d{1,9})/?$`).exec(String(v ?? '').trim());
  return m ? Number(m[1]) : undefined;
};
export const portalLayerId = (v: unknown) => idOf('layer', v);
export const portalViewId = (v: unknown) => idOf('view', v);

const MAX_TEXT = 10_000;

/** A text value of attr, or undefined when it is empty (left out); a problem when it is not text. */
function attrText(v: unknown, field: string, problems: PortalProblem[]): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > MAX_TEXT) {
    problems.push({ key: 'errors.attr_text', field });
    return undefined;
  }
  return v.trim() === '' ? undefined : v;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isHttp = (v: string) => /^https?:\/\/[^\s]+$/i.test(v);

/**
 * The portal's layers in the order given (each `order` its position), their attr cleaned; the
 * first problem, if any.
 */
export function checkPortalLayers(v: unknown): { layers: PortalLayer[]; problem?: PortalProblem } {
  const problems: PortalProblem[] = [];
  if (v === undefined || v === null) return { layers: [] };
  if (!Array.isArray(v)) return { layers: [], problem: { key: 'errors.list', field: 'layers' } };
  if (v.length > MAX_PORTAL_ENTRIES)
    return { layers: [], problem: { key: 'errors.too_many', field: 'layers', params: { max: MAX_PORTAL_ENTRIES } } };
  const layers = v.map((raw, i): PortalLayer => {
    const field = `layers[${i}]`;
    const s = isObject(raw) ? raw : typeof raw === 'string' || typeof raw === 'number' ? { layer: raw } : undefined;
    if (!s) problems.push({ key: 'errors.entry', field });
    const id = portalLayerId(s?.layer);
    if (s && id === undefined) problems.push({ key: 'errors.layer_address', field: `${field}.layer` });
    const attr = s?.attr === undefined || s?.attr === null ? {} : s.attr;
    if (!isObject(attr)) problems.push({ key: 'errors.attr', field: `${field}.attr` });
    const a = isObject(attr) ? attr : {};
    const out: PortalLayerAttr = {};
    const image = attrText(a.image, `${field}.attr.image`, problems);
    const description = attrText(a.description, `${field}.attr.description`, problems);
    if (image) out.image = image;
    if (description) out.description = description;
    if (a.queryable === true) out.queryable = true;
    if (a.exportable === true) out.exportable = true;
    const name = s?.name === undefined || s?.name === null ? '' : s.name;
    if (typeof name !== 'string' || name.length > 200) problems.push({ key: 'errors.name', field: `${field}.name` });
    return { name: typeof name === 'string' ? name : '', layer: `/api/v1/layer/${id ?? 0}/`, order: i, attr: out };
  });
  return { layers, problem: problems[0] };
}

/**
 * The portal's views in the order given: ours by address, external ones by `attr.external_url`
 * (an http(s) address; the name defaults to the address in brackets, spec 002 §5).
 */
export function checkPortalViews(v: unknown): { views: PortalView[]; problem?: PortalProblem } {
  const problems: PortalProblem[] = [];
  if (v === undefined || v === null) return { views: [] };
  if (!Array.isArray(v)) return { views: [], problem: { key: 'errors.list', field: 'views' } };
  if (v.length > MAX_PORTAL_ENTRIES)
    return { views: [], problem: { key: 'errors.too_many', field: 'views', params: { max: MAX_PORTAL_ENTRIES } } };
  const views = v.map((raw, i): PortalView => {
    const field = `views[${i}]`;
    const s = isObject(raw) ? raw : typeof raw === 'string' || typeof raw === 'number' ? { view: raw } : undefined;
    if (!s) problems.push({ key: 'errors.entry', field });
    const attr = s?.attr === undefined || s?.attr === null ? {} : s.attr;
    if (!isObject(attr)) problems.push({ key: 'errors.attr', field: `${field}.attr` });
    const a = isObject(attr) ? attr : {};
    const out: PortalViewAttr = {};
    for (const key of ['external_url', 'image', 'subline', 'description', 'infobox_text'] as const) {
      const text = attrText(a[key], `${field}.attr.${key}`, problems);
      if (text) out[key] = text;
    }
    if (a.headline_icon !== undefined && a.headline_icon !== null && a.headline_icon !== '') {
      if (HEADLINE_ICONS.includes(a.headline_icon as HeadlineIcon)) out.headline_icon = a.headline_icon as HeadlineIcon;
      else
        problems.push({
          key: 'errors.headline_icon',
          field: `${field}.attr.headline_icon`,
          params: { allowed: HEADLINE_ICONS.join(', ') },
        });
    }
    const hasView = s?.view !== undefined && s?.view !== null && s?.view !== '';
    const id = hasView ? portalViewId(s?.view) : undefined;
    if (hasView && id === undefined) problems.push({ key: 'errors.view_address', field: `${field}.view` });
    if (!hasView) {
      if (!out.external_url) problems.push({ key: 'errors.view_or_url', field: `${field}.view` });
      else if (!isHttp(out.external_url)) problems.push({ key: 'errors.external_url', field: `${field}.attr.external_url` });
    }
    const given = s?.name === undefined || s?.name === null ? '' : s.name;
    if (typeof given !== 'string' || given.length > 200) problems.push({ key: 'errors.name', field: `${field}.name` });
    const name =
      typeof given === 'string' && given.trim() !== '' ? given : !hasView && out.external_url ? `(${out.external_url})` : '';
    return { view: hasView ? `/api/v1/view/${id ?? 0}/` : null, name, order: i, attr: out };
  });
  return { views, problem: problems[0] };
}
