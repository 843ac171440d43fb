import type { FunctionContribution, NodeTranslationContribution } from '@werkbank/sdk/node';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { FILTER_FUNCTIONS } from './filter-functions';
import { MEASURE_FUNCTIONS } from './measure-functions';
import { OVERLAY_FUNCTIONS } from './overlay-functions';

/** Every function of the geometry area, in the order the palette lists them. */
export const GEOMETRY_FUNCTIONS = [...MEASURE_FUNCTIONS, ...OVERLAY_FUNCTIONS, ...FILTER_FUNCTIONS];

/** The geometry functions of the geodata library (issue 6): turf-based operations and feature.filter. */
export const geometryFunctions: FunctionContribution = {
  registerFunctions: (registry) => GEOMETRY_FUNCTIONS.forEach((f) => registry.add(f)),
};

/** The reasons geometry functions fail with (`geodata-geometry:errors.*`), in German and English. */
export const geometryTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) =>
    registry.add({ id: 'geodata.geometry-translations', namespace: 'geodata-geometry', de, en }),
};
