import type { Geometry, Position } from '../common/wfs-geometry';
import { gmlId, xmlName } from './wfs-filter';

/** GML as the WFS writes it: 3.2 for WFS 2.0.0, 3.1.1 for WFS 1.1.0 (decision 0083). */
export type GmlVersion = '3.2' | '3.1.1';

export const GML_NS: Record<GmlVersion, string> = {
  '3.2': 'http://www.opengis.net/gml/3.2',
  '3.1.1': 'http://www.opengis.net/gml',
};

const ESCAPED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Characters that need escaping, and the control characters XML 1.0 cannot hold (left out). */
// eslint-disable-next-line no-control-regex
const SPECIAL = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;
// eslint-disable-next-line no-control-regex
const ANY_SPECIAL = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

/** Text for XML content and attribute values (most values need no change and are returned as they are). */
export function esc(text: string): string {
  if (!ANY_SPECIAL.test(text)) return text;
  return text.replace(SPECIAL, (c) => ESCAPED[c] ?? '');
}

/** The GML property type of a geometry type (GeoJSON names), for DescribeFeatureType. */
export function geometryPropertyType(types: Set<string>, gml: GmlVersion): string {
  if (types.size !== 1) return 'gml:GeometryPropertyType';
  const [type] = types;
  const by32: Record<string, string> = {
    Point: 'PointPropertyType',
    LineString: 'CurvePropertyType',
    Polygon: 'SurfacePropertyType',
    MultiPoint: 'MultiPointPropertyType',
    MultiLineString: 'MultiCurvePropertyType',
    MultiPolygon: 'MultiSurfacePropertyType',
  };
  const by311: Record<string, string> = {
    Point: 'PointPropertyType',
    LineString: 'LineStringPropertyType',
    Polygon: 'PolygonPropertyType',
    MultiPoint: 'MultiPointPropertyType',
    MultiLineString: 'MultiLineStringPropertyType',
    MultiPolygon: 'MultiPolygonPropertyType',
  };
  const t = (gml === '3.2' ? by32 : by311)[type];
  return t ? `gml:${t}` : 'gml:GeometryPropertyType';
}

/**
 * Writes GML geometries with the srsName and axis order of the request. Built for answers of
 * 100,000 features (bench/services): plain loops and string concatenation instead of map/join and
 * closures, the srsName attribute escaped once, a whole-number id made a gml:id without a regex.
 */
export class GmlWriter {
  /** Property names as XML names, worked out once per answer. */
  private readonly names = new Map<string, string>();
  /** ` srsName="…"`, escaped once. */
  private readonly srsAttribute: string;
  /** Coordinate indexes in the order written (the CRS's axis order). */
  private readonly first: number;
  private readonly second: number;
  /** The escaped type name of the last feature written, and the name it was made from. */
  private typeName = '';
  private typeText = '';

  constructor(
    readonly gml: GmlVersion,
    readonly srsName: string,
    readonly swap: boolean,
  ) {
    this.srsAttribute = ` srsName="${esc(srsName)}"`;
    [this.first, this.second] = swap ? [1, 0] : [0, 1];
  }

  private pos(p: Position): string {
    return `${p[this.first]} ${p[this.second]}`;
  }

  private posList(ps: Position[]): string {
    const [a, b] = [this.first, this.second];
    let out = '';
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i];
      out += i === 0 ? `${p[a]} ${p[b]}` : ` ${p[a]} ${p[b]}`;
    }
    return out;
  }

  private ring(ring: Position[]): string {
    return `<gml:LinearRing><gml:posList srsDimension="2">${this.posList(ring)}</gml:posList></gml:LinearRing>`;
  }

  private polygon(rings: Position[][], id: string): string {
    if (!rings.length || !rings[0]) return '';
    let out = `<gml:Polygon${id}><gml:exterior>${this.ring(rings[0])}</gml:exterior>`;
    for (let i = 1; i < rings.length; i++) out += `<gml:interior>${this.ring(rings[i])}</gml:interior>`;
    return `${out}</gml:Polygon>`;
  }

  /** The attributes naming a geometry: gml:id (GML 3.2 only) of `id` + `suffix`, srsName on the outermost. */
  private gid(id: string, suffix: string, top: boolean): string {
    const named = this.gml === '3.2' ? ` gml:id="${esc(id + suffix)}"` : '';
    return suffix === '' && top ? named + this.srsAttribute : named;
  }

  /** A geometry as GML (empty when it has none); `id` names it (gml:id, required by GML 3.2). */
  geometry(g: Geometry | null | undefined, id: string, top = true): string {
    if (!g) return '';
    const c = g.coordinates as never;
    switch (g.type) {
      case 'Point':
        return `<gml:Point${this.gid(id, '', top)}><gml:pos srsDimension="2">${this.pos(c)}</gml:pos></gml:Point>`;
      case 'LineString':
        return `<gml:LineString${this.gid(id, '', top)}><gml:posList srsDimension="2">${this.posList(c)}</gml:posList></gml:LineString>`;
      case 'Polygon':
        return this.polygon(c, this.gid(id, '', top));
      case 'MultiPoint': {
        const ps = c as Position[];
        let out = `<gml:MultiPoint${this.gid(id, '', top)}>`;
        for (let i = 0; i < ps.length; i++)
          out += `<gml:pointMember><gml:Point${this.gid(id, `.${i}`, top)}><gml:pos>${this.pos(ps[i])}</gml:pos></gml:Point></gml:pointMember>`;
        return `${out}</gml:MultiPoint>`;
      }
      case 'MultiLineString': {
        const ls = c as Position[][];
        let out = `<gml:MultiCurve${this.gid(id, '', top)}>`;
        for (let i = 0; i < ls.length; i++)
          out += `<gml:curveMember><gml:LineString${this.gid(id, `.${i}`, top)}><gml:posList>${this.posList(ls[i])}</gml:posList></gml:LineString></gml:curveMember>`;
        return `${out}</gml:MultiCurve>`;
      }
      case 'MultiPolygon': {
        const ps = c as Position[][][];
        let out = `<gml:MultiSurface${this.gid(id, '', top)}>`;
        for (let i = 0; i < ps.length; i++)
          out += `<gml:surfaceMember>${this.polygon(ps[i], this.gid(id, `.${i}`, top))}</gml:surfaceMember>`;
        return `${out}</gml:MultiSurface>`;
      }
      case 'GeometryCollection': {
        const gs = g.geometries ?? [];
        let out = `<gml:MultiGeometry${this.gid(id, '', top)}>`;
        for (let i = 0; i < gs.length; i++)
          out += `<gml:geometryMember>${this.geometry(gs[i], `${id}.${i}`, false)}</gml:geometryMember>`;
        return `${out}</gml:MultiGeometry>`;
      }
    }
    return '';
  }

  /** One feature as the type's element: its geometry first, then its properties (nulls left out). */
  feature(
    typeLocal: string,
    id: string | number,
    geometry: Geometry | null | undefined,
    properties: Record<string, unknown> | null,
  ): string {
    if (typeLocal !== this.typeName) [this.typeName, this.typeText] = [typeLocal, esc(typeLocal)];
    // A safe integer's digits and minus sign are XML name characters already (gmlId keeps them as they are).
    const whole = typeof id === 'number' && Number.isSafeInteger(id);
    const fid = whole ? `${typeLocal}.${id}` : gmlId(typeLocal, id);
    let out = `<wb:${typeLocal} gml:id="${whole ? `${this.typeText}.${id}` : esc(fid)}">`;
    const g = this.geometry(geometry, `${fid}.geom`);
    if (g) out += `<wb:geometry>${g}</wb:geometry>`;
    if (properties)
      for (const k in properties) {
        if (!Object.hasOwn(properties, k)) continue;
        const v = properties[k];
        if (v === null || v === undefined) continue;
        let name = this.names.get(k);
        if (name === undefined) this.names.set(k, (name = xmlName(k)));
        if (typeof v === 'number') out += `<wb:${name}>${v}</wb:${name}>`;
        else out += `<wb:${name}>${esc(typeof v === 'object' ? JSON.stringify(v) : String(v))}</wb:${name}>`;
      }
    return `${out}</wb:${typeLocal}>`;
  }
}
