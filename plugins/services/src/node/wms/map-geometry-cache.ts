import { injectable } from '@werkbank/sdk/node';
import type { Publication } from '../published-layers';
import type { IndexedFeatures } from './packed-features';

/** Layers with more features than this (WMS_GEOMETRY_CACHE_FEATURES) are read window by window instead. */
export const DEFAULT_CACHE_FEATURES = 500_000;
/** Publications × CRSs kept at once (the most recently used). */
const MAX_ENTRIES = 8;

/**
 * The packed geometry of whole layers, per publication and map CRS (decision 0083, "Map geometry
 * per publication"): a map takes its window's share of the features from memory instead of
 * reading, parsing and reprojecting them from the depot on every request. The publication's key
 * names every moment served, so a new approved moment (or a change of the layer or its style)
 * gives a new key: the first map of the new key reads the layer again and drops the entries of the
 * layer's older keys. At most MAX_ENTRIES entries are kept; a layer larger than `maxFeatures` is
 * not kept (null), its maps read their windows from the depot as before.
 */
@injectable()
export class MapGeometryCache {
  maxFeatures =
    Number(process.env.WMS_GEOMETRY_CACHE_FEATURES) >= 0 && process.env.WMS_GEOMETRY_CACHE_FEATURES
      ? Math.floor(Number(process.env.WMS_GEOMETRY_CACHE_FEATURES))
      : DEFAULT_CACHE_FEATURES;

  protected readonly entries = new Map<string, Promise<IndexedFeatures | null>>();

  /**
   * The layer's geometry in `crs` for this publication: the kept one, or `build`'s (called once
   * however many maps ask meanwhile; a failure is not kept).
   */
  get(publication: Publication, crs: string, build: () => Promise<IndexedFeatures | null>): Promise<IndexedFeatures | null> {
    const name = `${publication.key}|${crs}`;
    const hit = this.entries.get(name);
    if (hit) {
      // Most recently used last.
      this.entries.delete(name);
      this.entries.set(name, hit);
      return hit;
    }
    const layerPrefix = `${publication.layer.id}.`;
    for (const other of [...this.entries.keys()])
      if (other.startsWith(layerPrefix) && !other.startsWith(`${publication.key}|`)) this.entries.delete(other);
    const built = build();
    this.entries.set(name, built);
    built.catch(() => {
      if (this.entries.get(name) === built) this.entries.delete(name);
    });
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    return built;
  }
}
