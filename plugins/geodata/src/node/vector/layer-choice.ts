import type { FunctionRunContext } from '@werkbank/sdk/node';
import { failure } from './vector-params';
import type { VectorSettings } from './vector-settings';

/**
 * The layers to read (decision 0022): every layer when the layer setting is empty, else the one of
 * that name. A missing layer fails with `layer_missing` naming the layers there are, or, with
 * ignore_missing_layer, gives no layers and a log line.
 */
export function pickLayers<T extends { layer: string }>(layers: T[], settings: VectorSettings, ctx: FunctionRunContext): T[] {
  if (!settings.layer) return layers;
  const found = layers.filter((l) => l.layer === settings.layer);
  if (found.length) return found;
  const names = layers.map((l) => l.layer).join(', ');
  if (settings.ignore_missing_layer) {
    ctx.log(`layer ${settings.layer} is missing (there are: ${names}); ignore_missing_layer gives no features`);
    return [];
  }
  throw failure('layer_missing', { layer: settings.layer, layers: names || '–' });
}

/**
 * A feature datum of a source with several layers, its layer name in the property `layer`
 * (decision 0022); an attribute of that name is kept as it is.
 */
export function tagLayer<T extends { feature?: unknown }>(item: T, layer: string): T {
  const feature = item.feature as { properties?: Record<string, unknown> | null } | undefined;
  if (!feature) return item;
  const properties = feature.properties ?? {};
  if ('layer' in properties) return item;
  return { ...item, feature: { ...feature, properties: { ...properties, layer } } };
}
