/** The part of @terraformer/wkt (no bundled types) the tabular functions use. */
declare module '@terraformer/wkt' {
  /** A GeoJSON geometry from WKT; throws `Unable to parse: Parse error on line …` for broken text. */
  export function wktToGeoJSON(wkt: string): { type: string; coordinates?: unknown; geometries?: unknown[] };
}
