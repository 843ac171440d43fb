import { injectable } from '@werkbank/sdk/node';
import type { FeatureReprojection } from '../../common/geodata-api';
import { epsgCode } from './crs-definitions';
import { featureReprojector } from './reproject-geometry';

/** FeatureReprojection for other plugins: the reprojection of geometry.reproject (decision 0035). */
@injectable()
export class FeatureReprojectionService implements FeatureReprojection {
  reprojector(from: string, to: string): Promise<(feature: unknown, index: number) => Record<string, unknown>> {
    return featureReprojector(from, to);
  }

  epsgCode(name: string): number | undefined {
    return epsgCode(name);
  }
}
