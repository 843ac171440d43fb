import {
  inject,
  injectable,
  WorkerPool,
  type FunctionContribution,
  type FunctionDescriptor,
  type NodeTranslationContribution,
  type RegistrySink,
} from '@werkbank/sdk/node';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { FILTER_FUNCTIONS } from './filter-functions';
import { poolCompute, type GeometryCompute } from './geometry-compute';
import { measureFunctions } from './measure-functions';
import { overlayFunctions } from './overlay-functions';

/** Every function of the geometry area, in the order the palette lists them, computing through `compute`. */
export function geometryFunctionList(compute: GeometryCompute): FunctionDescriptor[] {
  return [...measureFunctions(compute), ...overlayFunctions(compute), ...FILTER_FUNCTIONS];
}

/**
 * The geometry functions of the geodata library (issue 6): turf-based operations and
 * feature.filter. Their CPU-heavy work runs in the server's WorkerPool (issue 14 item 4).
 */
@injectable()
export class GeometryFunctions implements FunctionContribution {
  @inject(WorkerPool) protected readonly pool!: WorkerPool;

  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void {
    for (const fn of geometryFunctionList(poolCompute(this.pool))) registry.add(fn);
  }
}

/** The reasons geometry functions fail with (`geodata-geometry:errors.*`), in German and English. */
export const geometryTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) =>
    registry.add({ id: 'geodata.geometry-translations', namespace: 'geodata-geometry', de, en }),
};
