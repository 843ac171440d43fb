import type { WorkerPool } from '@werkbank/sdk/node';
import { geometryKind } from '@werkbank/plugin-layers/api';
import type { PublishedLayers, Publication } from '../published-layers';
import type { LegendRenderInput } from './map-render-task';
import type { StyleImages } from './style-images';

const LEGEND_TASK = { module: new URL('./map-render-task.ts', import.meta.url).href, name: 'renderLegend' };

/**
 * A layer's legend drawn from its style in the worker pool (GetLegendGraphic, also of a metalayer's
 * members): symbols drawn for the geometry kind of the layer's first feature (polygons when it has none).
 */
export async function drawLegend(
  pool: WorkerPool,
  published: PublishedLayers,
  styleImages: StyleImages,
  publication: Publication,
  image: Omit<LegendRenderInput, 'style' | 'kind' | 'images'>,
): Promise<Uint8Array> {
  let kind: LegendRenderInput['kind'] = 'polygon';
  for await (const batch of published.features(publication)) {
    kind = geometryKind(batch[0]?.geometry ?? null) ?? 'polygon';
    break;
  }
  const style = publication.style.style;
  return pool.run<LegendRenderInput, Uint8Array>(LEGEND_TASK, { ...image, style, kind, images: await styleImages.of(style) });
}
