/** vt-pbf 3 ships no types: the one call the tile builder uses (tiles as geojson-vt gives them, by layer name). */
declare module 'vt-pbf' {
  interface GeojsonVtTile {
    features: ReadonlyArray<{ id?: number | string; type: 1 | 2 | 3; geometry: unknown; tags: Record<string, unknown> | null }>;
  }
  const vtpbf: {
    fromGeojsonVt(layers: Record<string, GeojsonVtTile>, options?: { version?: number; extent?: number }): Uint8Array;
  };
  export default vtpbf;
}
