import type { FrameItems } from '@werkbank/sdk/node';
import { epsgCode } from '../reproject/crs-definitions';
import { featureReprojector } from '../reproject/reproject-geometry';
import { failure } from './depot-import-failure';

type Reproject = (feature: unknown, index: number) => Record<string, unknown>;

/**
 * Reprojects batches of features of one source to EPSG:4326, the CRS depots store (RFC 7946;
 * decision 0035; with auto_transform off as well, spec 001 §3.4's crs setting names the source CRS), deciding the source CRS at the first batch: the crs setting, else the CRS the
 * source declared so far. A streamed source cannot go back, so a GeoJSON crs member that comes
 * after the first features (or differs from what was used) is a failure asking for the crs setting.
 */
export class Wgs84Batches {
  private decided = false;
  private used: string | undefined;
  private reproject: Reproject | undefined;

  constructor(
    private readonly settings: { auto_transform: boolean; crs: string },
    private readonly source: string,
    private readonly log: (message: string) => void,
  ) {}

  /** The features reprojected in place; `first` is the index of the batch's first feature in the source. */
  async apply(features: FrameItems, declared: string | undefined, first: number): Promise<FrameItems> {
    if (!this.decided) await this.decide(declared);
    else this.check(declared);
    const reproject = this.reproject;
    if (!reproject) return features;
    for (let i = 0; i < features.length; i++)
      features[i] = { ...features[i], feature: reproject(features[i].feature, first + i) };
    return features;
  }

  /** Checks the CRS the source declared at its end against the one used. */
  check(declared: string | undefined): void {
    if (this.settings.crs || !this.decided || declared === this.used) return;
    throw failure('crs_after_features', { source: this.source, crs: declared ?? 'EPSG:4326' });
  }

  private async decide(declared: string | undefined): Promise<void> {
    this.decided = true;
    this.used = declared;
    const from = this.settings.crs || declared;
    if (!from || epsgCode(from) === 4326) return;
    // Depots store EPSG:4326 (RFC 7946; decision 0035): auto_transform off cannot keep another CRS.
    if (!this.settings.auto_transform) this.log(`${this.source}: depots store EPSG:4326, auto_transform is ignored`);
    this.log(`${this.source}: reprojecting from ${from} to EPSG:4326`);
    this.reproject = await featureReprojector(from, 'EPSG:4326');
  }
}
