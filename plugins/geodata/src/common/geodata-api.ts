/**
 * The geodata plugin's API for other plugins (package export `@werkbank/plugin-geodata/api`): the
 * reprojection the `geometry.reproject` function uses (proj4 with the built-in German CRSs and
 * PROJ's datum grids), for plugins that publish features in other CRSs (the layer services). Import
 * it only from a plugin that lists 'geodata' in `requires` or `optional`.
 */
import { token } from '@werkbank/sdk';

/** Reprojects GeoJSON features between CRSs named as `EPSG:25832`, `urn:ogc:def:crs:EPSG::25832`, ... */
export interface FeatureReprojection {
  /**
   * A function reprojecting one feature from `from` to `to` (its geometry and bbox; labelled with
   * `to` per decision 0035, no label for EPSG:4326). Rejects with an ApiError (400) naming the CRS
   * when one is unknown; the returned function throws for a position it cannot transform.
   */
  reprojector(from: string, to: string): Promise<(feature: unknown, index: number) => Record<string, unknown>>;
  /** The EPSG code of a CRS name (`EPSG:4326`, `urn:ogc:def:crs:EPSG::4326`, `http://www.opengis.net/def/crs/EPSG/0/4326`), or undefined. */
  epsgCode(name: string): number | undefined;
}
export const FeatureReprojection = token<FeatureReprojection>('geodata.FeatureReprojection');
