import type { Feature, Geometry } from 'geojson';
import type { FunctionInputs } from '@werkbank/sdk/node';
import { fakeRunContext, type FakeRunContext } from '@werkbank/testing/node';
import { inlineCompute } from './geometry-compute';
import { geometryFunctionList } from './geometry-functions';

/** The geometry functions computing in the test's thread. */
const GEOMETRY_FUNCTIONS = geometryFunctionList(inlineCompute);

/** A feature datum with the given geometry and properties. */
export const feat = (geometry: Geometry | null, properties: Record<string, unknown> = {}) => ({
  feature: { type: 'Feature', geometry, properties },
});

/** An axis-parallel square polygon datum from (x, y) with side d. */
export const square = (x: number, y: number, d: number, properties: Record<string, unknown> = {}) =>
  feat(
    {
      type: 'Polygon',
      coordinates: [
        [
          [x, y],
          [x + d, y],
          [x + d, y + d],
          [x, y + d],
          [x, y],
        ],
      ],
    },
    properties,
  );

export const pt = (x: number, y: number, properties: Record<string, unknown> = {}) =>
  feat({ type: 'Point', coordinates: [x, y] }, properties);

export const values = (...xs: unknown[]) => xs.map((value) => ({ value }));

/** Runs a geometry function by id with a fake run context. */
export function run(id: string, inputs: FunctionInputs, ctx: FakeRunContext = fakeRunContext()) {
  const fn = GEOMETRY_FUNCTIONS.find((f) => f.id === id);
  if (!fn) throw new Error(`no function ${id}`);
  return fn.run(inputs, ctx);
}

/** The features of the `features` output. */
export async function features(id: string, inputs: FunctionInputs): Promise<Feature[]> {
  return (await run(id, inputs)).features.map((i) => i.feature as Feature);
}

/** A predicate for assert.rejects: an ApiError with `code` whose params include `params`. */
export const failsWith =
  (code: string, params: Record<string, unknown> = {}) =>
  (e: any) => {
    if (e?.code !== code) throw new Error(`expected ${code}, got ${e?.code ?? e}: ${e?.message}`);
    for (const [k, v] of Object.entries(params)) {
      if (e.params?.[k] !== v) throw new Error(`expected ${k}=${String(v)}, got ${String(e.params?.[k])}`);
    }
    return true;
  };
