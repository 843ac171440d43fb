/** The part of @terraformer/wkt (no bundled types) the CSV rows use. */
declare module '@terraformer/wkt' {
  /** WKT of a GeoJSON geometry. */
  export function geojsonToWKT(geometry: { type: string; coordinates?: unknown; geometries?: unknown[] }): string;
}
