import assert from 'node:assert/strict';
import { TypeRegistry } from '@werkbank/sdk/node';
import { AjvDatumValidator } from '@werkbank/testing/node';
import { CORE_TYPES, coreTypeDescriptors } from '../common/core-types';

type Fields = Record<string, unknown>;
/** Per core type: one valid datum, and wrong ones with the field the problem must name. */
interface Case {
  valid: Fields;
  wrong: Array<[fields: Fields, field: string, key?: string]>;
  repr?: string;
}

const point = { type: 'Point', coordinates: [7.1, 50.7] };
const feature = (f: Fields) => ({ feature: { type: 'Feature', geometry: point, properties: { name: 'Haus' }, ...f } });
const symbol = { symbol_type: 'style', fill: '#ff0000', fill_opacity: 0.5, stroke_width: 2, graphic_anchor: [0.5, 0.5] };

const CASES: Record<string, Case> = {
  // Generic function ports and mixed frames: every datum's fields are accepted.
  any: { valid: { type: 'Feature', geometry: null, properties: { a: 1 } }, wrong: [] },
  object: { valid: { value: [1, 'a'] }, wrong: [[{}, 'value', 'errors.datum_missing']] },
  dict: { valid: { value: { a: 1 } }, wrong: [[{ value: [1] }, 'value', 'errors.datum_not_object']] },
  row: {
    valid: { value: { name: 'A', height: 3, ok: true, note: null } },
    wrong: [[{ value: { nested: { a: 1 } } }, 'value.nested', 'errors.datum_wrong_type']],
    repr: 'A, 3, true, ',
  },
  feature: {
    valid: feature({}),
    wrong: [
      [feature({ type: 'Thing' }), 'feature.type', 'errors.datum_const'],
      [feature({ geometry: { type: 'Point' } }), 'feature.geometry.coordinates', 'errors.datum_missing'],
      [
        feature({ geometry: { type: 'Polygon', coordinates: [[1, 2]] } }),
        'feature.geometry.coordinates[0][0]',
        'errors.datum_not_array',
      ],
      [feature({ geometry: { type: 'Circle', coordinates: [1, 2] } }), 'feature.geometry.type', 'errors.datum_enum'],
      [feature({ properties: 'x' }), 'feature.properties', 'errors.datum_not_object_or_null'],
      [
        feature({ geometry: { type: 'GeometryCollection', geometries: [point, { type: 'LineString', coordinates: [1, 2] }] } }),
        'feature.geometry.geometries[1].coordinates[0]',
      ],
    ],
    repr: 'Point · name: Haus',
  },
  schema: {
    valid: { fields: [{ name: 'height', schema: { type: 'float' }, description: 'm', required: false, nullable: true }] },
    wrong: [
      [{ fields: [{ name: 'h', schema: { type: 'double' } }] }, 'fields[0].schema.type', 'errors.datum_enum'],
      [{ fields: [{ name: 'h', schema: { type: 'float' }, requierd: true }] }, 'fields[0].requierd', 'errors.datum_not_allowed'],
      [{ fields: [{ name: '', schema: { type: 'float' } }] }, 'fields[0].name', 'errors.datum_min_length'],
    ],
    repr: 'height',
  },
  string: { valid: { value: 'Bonn' }, wrong: [[{ value: 3 }, 'value', 'errors.datum_not_string']], repr: 'Bonn' },
  color: {
    valid: { hex: '#ff8800cc' },
    wrong: [
      [{ hex: 'orange' }, 'hex', 'errors.datum_form'],
      [{ value: 'x' }, 'hex', 'errors.datum_missing'],
    ],
    repr: '#ff8800cc',
  },
  label: { valid: { value: 'Bonn' }, wrong: [[{ value: null }, 'value', 'errors.datum_not_string']] },
  number: { valid: { value: 1.5 }, wrong: [[{ value: '1.5' }, 'value', 'errors.datum_not_number']] },
  float: { valid: { value: -0.25 }, wrong: [[{ value: true }, 'value', 'errors.datum_not_number']] },
  int: { valid: { value: 42 }, wrong: [[{ value: 4.2 }, 'value', 'errors.datum_not_integer']], repr: '42' },
  bool: { valid: { value: true }, wrong: [[{ value: 'true' }, 'value', 'errors.datum_not_boolean']], repr: 'true' },
  datetime: {
    valid: { value: '2026-05-01T12:00:00+02:00' },
    wrong: [[{ value: '2026-02-30T00:00:00Z' }, 'value', 'errors.datum_form']],
  },
  bbox: {
    valid: { value: [7, 50, 8, 51] },
    wrong: [
      [{ value: [8, 51, 7] }, 'value', 'errors.datum_count'],
      [{ value: [8, 51, '7', 50] }, 'value[2]', 'errors.datum_not_number'],
    ],
    repr: '7, 50, 8, 51',
  },
  bbox3d: { valid: { value: [7, 50, 8, 51, 0, 100] }, wrong: [[{ value: [7, 50, 8, 51] }, 'value', 'errors.datum_count']] },
  file: {
    valid: { value: 'plan.pdf', size: 1024, mime_type: 'application/pdf', download_url: '/x' },
    wrong: [
      [{ value: 'a', size: -1, mime_type: 'text/plain' }, 'size', 'errors.datum_minimum'],
      [{ value: 'a', size: 1 }, 'mime_type', 'errors.datum_missing'],
    ],
    repr: 'plan.pdf',
  },
  mesh: {
    valid: { value: 'house.glb', png_preview: 'data:', origin: [1, 2, 3], properties: { a: 1 } },
    wrong: [[{ origin: [1, 2] }, 'origin', 'errors.datum_count']],
  },
  grid: {
    valid: { bbox: [7, 50, 8, 51], width: 256, height: 256, tms_url: '/t/', tms_extension: 'png' },
    wrong: [[{ bbox: [7, 50, 8, 51], width: 0, height: 1 }, 'width', 'errors.datum_minimum']],
    repr: '256 × 256',
  },
  pointcloud: {
    valid: { bbox3d: [7, 50, 8, 51, 0, 9], name: 'scan', pointcount: 1000 },
    wrong: [[{ bbox3d: [7, 50, 8, 51, 0, 9], name: 'scan', pointcount: 1.5 }, 'pointcount', 'errors.datum_not_integer']],
    repr: 'scan (1000)',
  },
  cityobject: { valid: { value: { type: 'Building' } }, wrong: [[{ value: 'Building' }, 'value', 'errors.datum_not_object']] },
  ifcobject: { valid: { value: { Name: 'Wall' } }, wrong: [[{ value: [] }, 'value', 'errors.datum_not_object']] },
  ogcapicollection: {
    valid: { collectionId: 'roads', title: 'Roads', url: 'https://x/collections/roads' },
    wrong: [[{ collectionId: 'roads' }, 'url', 'errors.datum_missing']],
    repr: 'Roads',
  },
  tag: { valid: { value: { id: 3 } }, wrong: [[{ value: { id: 'three' } }, 'value.id', 'errors.datum_not_integer']], repr: '#3' },
  billboard: {
    valid: { value: { image: '/pin.png', position: [7.1, 50.7, 12] } },
    wrong: [[{ value: { image: '/pin.png', position: [7.1] } }, 'value.position', 'errors.datum_min_items']],
  },
  style: {
    valid: {
      value: {
        rules: [
          {
            symbol,
            hover_symbol: { ...symbol, contour_type: 'bbox' },
            hover_enabled: true,
            filter: { name: 'A' },
            max_scale_denominator: 5000,
          },
        ],
      },
    },
    wrong: [
      [{ value: { rules: [{ symbol: { symbol_type: 'icon' } }] } }, 'value.rules[0].symbol.symbol_type', 'errors.datum_enum'],
      [
        { value: { rules: [{ symbol, min_scale_denominator: 10.5 }] } },
        'value.rules[0].min_scale_denominator',
        'errors.datum_not_integer',
      ],
      [{ value: { rules: [{ symbol: { stroke_width: 'thick' } }] } }, 'value.rules[0].symbol.stroke_width'],
    ],
  },
  wms: {
    valid: { tms_url: 'https://x/wms', bbox: [7, 50, 8, 51], layers: 'roads', srs: ['EPSG:4326'], transparent: true },
    wrong: [[{ tms_url: 'https://x/wms', bbox: [7, 50, 8, 51], srs: 'EPSG:4326' }, 'srs', 'errors.datum_not_array']],
    repr: 'https://x/wms (roads)',
  },
  wmts: {
    valid: { tms_url: 'https://x/wmts', bbox: [7, 50, 8, 51] },
    wrong: [[{ tms_url: 'https://x/wmts' }, 'bbox', 'errors.datum_missing']],
  },
  layer: { valid: { value: '/api/v1/layer/3/' }, wrong: [[{ value: 3 }, 'value', 'errors.datum_not_string']] },
  // issue 14 item 12: a depot by its address only.
  depot: {
    valid: { value: '/api/v1/depot/3/' },
    wrong: [
      [{ value: '/api/v1/depot/1/', depot_id: 1 }, 'depot_id', 'errors.datum_not_allowed'],
      [{ value: 'Folder/Sub/Depot' }, 'value', 'errors.datum_form'],
      [{ value: '3' }, 'value', 'errors.datum_form'],
    ],
  },
  service: { valid: { value: 'wfs' }, wrong: [[{}, 'value', 'errors.datum_missing']] },
};

describe('core datum types: schemas, templates and text representations (spec 001 §3.6)', () => {
  let types: TypeRegistry;
  let validator: AjvDatumValidator;

  before(() => {
    types = new TypeRegistry();
    for (const t of coreTypeDescriptors()) types.add(t, 'types');
    validator = new AjvDatumValidator(types);
  });

  it('has a test case for every core type', () => {
    assert.deepEqual(Object.keys(CASES).sort(), CORE_TYPES.map((t) => t.name).sort());
  });

  for (const [name, c] of Object.entries(CASES)) {
    describe(name, () => {
      it('accepts a valid datum', () => {
        assert.equal(validator.validate(name, c.valid), undefined);
      });

      it('names the field of a wrong shape', () => {
        for (const [fields, field, key] of c.wrong) {
          const problem = validator.validate(name, fields);
          assert.ok(problem, `${JSON.stringify(fields)} is refused`);
          assert.equal(problem.field, field, JSON.stringify(fields));
          if (key) assert.equal(problem.key, key, JSON.stringify(fields));
        }
      });

      it('has a template that passes its own schema', () => {
        assert.equal(validator.validate(name, validator.template(name)), undefined);
      });

      if (c.repr !== undefined) it('represents a datum as text', () => assert.equal(validator.textRepr(name, c.valid), c.repr));
    });
  }

  it('gives color a schema of its own while label and float inherit those of string and number', () => {
    assert.notEqual(types.schemaOf('color'), types.schemaOf('string'));
    assert.equal(types.schemaOf('label'), types.schemaOf('string'));
    assert.equal(types.schemaOf('float'), types.schemaOf('number'));
    assert.notEqual(types.schemaOf('int'), types.schemaOf('number'));
    assert.deepEqual(validator.template('int'), { value: 0 }, 'int inherits the template of number');
  });

  it('checks a plugin type without a schema against its base’s schema', () => {
    const height = types.add({ id: 'cadastre.height', name: 'height', base: 'float' }, 'cadastre');
    try {
      assert.equal(validator.validate('height', { value: 12.5 }), undefined);
      assert.equal(validator.validate('height', { value: 'high' })?.key, 'errors.datum_not_number');
      assert.deepEqual(validator.template('height'), { value: 0 });
    } finally {
      height.dispose();
    }
  });
});
