import assert from 'node:assert/strict';
import type { FunctionDescriptor } from '@werkbank/sdk/node';
import { inlineCompute } from './geometry-compute';
import { geometryFunctionList, GeometryFunctions } from './geometry-functions';

const GEOMETRY_FUNCTIONS = geometryFunctionList(inlineCompute);

describe('geodata geometry: descriptors', () => {
  it('registers every function once, under the geometry or feature namespace', () => {
    const added: FunctionDescriptor[] = [];
    const contribution = Object.assign(new GeometryFunctions(), { pool: { run: async () => [] } });
    contribution.registerFunctions({ add: (f: FunctionDescriptor) => (added.push(f), { dispose() {} }) } as never);
    const ids = added.map((f) => f.id);
    assert.deepEqual(ids, [
      'geometry.buffer',
      'geometry.centroid',
      'geometry.simplify',
      'geometry.bbox',
      'geometry.area',
      'geometry.length',
      'geometry.intersection',
      'geometry.difference',
      'geometry.union',
      'geometry.dissolve',
      'geometry.spatial_join',
      'geometry.clip_bbox',
      'feature.filter',
    ]);
  });

  it('names and documents every function in German and English, with typed ports', () => {
    const known = new Set(['feature', 'float', 'string', 'bool', 'bbox']);
    for (const f of GEOMETRY_FUNCTIONS) {
      for (const text of [f.verbose_name.de, f.verbose_name.en, f.doc.de, f.doc.en]) assert.ok(text && text.length > 2, f.id);
      for (const port of [...f.inputs, ...f.outputs]) assert.ok(known.has(port.content_type), `${f.id}.${port.name}`);
      for (const port of f.inputs.filter((p) => p.content_type !== 'feature' && p.is_optional)) {
        assert.ok(port.default_value && 'value' in port.default_value, `${f.id}.${port.name} has a default`);
      }
    }
  });
});
