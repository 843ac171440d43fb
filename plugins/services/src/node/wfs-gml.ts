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

/** Writes GML geometries with the srsName and axis order of the request. */
export class GmlWriter {
  /** Property names as XML names, worked out once per answer. */
  private readonly names = new Map<string, string>();

  constructor(
    readonly gml: GmlVersion,
    readonly srsName: string,
    readonly swap: boolean,
  ) {}

  private pos(p: Position): string {
    return this.swap ? `${p[1]} ${p[0]}` : `${p[0]} ${p[1]}`;
  }

  private posList(ps: Position[]): string {
    return ps.map((p) => this.pos(p)).join(' ');
  }

  private ring(ring: Position[]): string {
    return `<gml:LinearRing><gml:posList srsDimension="2">${this.posList(ring)}</gml:posList></gml:LinearRing>`;
  }

  private polygon(rings: Position[][], id: string): string {
    const [outer, ...holes] = rings;
    if (!outer) return '';
    return (
      `<gml:Polygon${id}><gml:exterior>${this.ring(outer)}</gml:exterior>` +
      holes.map((h) => `<gml:interior>${this.ring(h)}</gml:interior>`).join('') +
      '</gml:Polygon>'
    );
  }

  /** A geometry as GML (empty when it has none); `id` names it (gml:id, required by GML 3.2). */
  geometry(g: Geometry | null | undefined, id: string, top = true): string {
    if (!g) return '';
    const srs = top ? ` srsName="${esc(this.srsName)}"` : '';
    const gid = (suffix: string) => (this.gml === '3.2' ? ` gml:id="${esc(id + suffix)}"` : '') + (suffix === '' ? srs : '');
    const c = g.coordinates as never;
    switch (g.type) {
      case 'Point':
        return `<gml:Point${gid('')}><gml:pos srsDimension="2">${this.pos(c)}</gml:pos></gml:Point>`;
      case 'LineString':
        return `<gml:LineString${gid('')}><gml:posList srsDimension="2">${this.posList(c)}</gml:posList></gml:LineString>`;
      case 'Polygon':
        return this.polygon(c, gid(''));
      case 'MultiPoint':
        return (
          `<gml:MultiPoint${gid('')}>` +
          (c as Position[])
            .map(
              (p, i) =>
                `<gml:pointMember><gml:Point${gid(`.${i}`)}><gml:pos>${this.pos(p)}</gml:pos></gml:Point></gml:pointMember>`,
            )
            .join('') +
          '</gml:MultiPoint>'
        );
      case 'MultiLineString':
        return (
          `<gml:MultiCurve${gid('')}>` +
          (c as Position[][])
            .map(
              (l, i) =>
                `<gml:curveMember><gml:LineString${gid(`.${i}`)}><gml:posList>${this.posList(l)}</gml:posList></gml:LineString></gml:curveMember>`,
            )
            .join('') +
          '</gml:MultiCurve>'
        );
      case 'MultiPolygon':
        return (
          `<gml:MultiSurface${gid('')}>` +
          (c as Position[][][])
            .map((p, i) => `<gml:surfaceMember>${this.polygon(p, gid(`.${i}`))}</gml:surfaceMember>`)
            .join('') +
          '</gml:MultiSurface>'
        );
      case 'GeometryCollection':
        return (
          `<gml:MultiGeometry${gid('')}>` +
          (g.geometries ?? [])
            .map((m, i) => `<gml:geometryMember>${this.geometry(m, `${id}.${i}`, false)}</gml:geometryMember>`)
            .join('') +
          '</gml:MultiGeometry>'
        );
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
    const fid = gmlId(typeLocal, id);
    let out = `<wb:${typeLocal} gml:id="${esc(fid)}">`;
    const g = this.geometry(geometry, `${fid}.geom`);
    if (g) out += `<wb:geometry>${g}</wb:geometry>`;
    for (const [k, v] of Object.entries(properties ?? {})) {
      if (v === null || v === undefined) continue;
      let name = this.names.get(k);
      if (name === undefined) this.names.set(k, (name = xmlName(k)));
      const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
      out += `<wb:${name}>${esc(text)}</wb:${name}>`;
    }
    return `${out}</wb:${typeLocal}>`;
  }
}
