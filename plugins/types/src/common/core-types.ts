import type { DatumTypeDescriptor } from '@werkbank/sdk';
import { FEATURE_SCHEMA, FEATURE_TEMPLATE, featureRepr } from './feature-schema';
import {
  BBOX,
  BBOX3D,
  BOOLEAN,
  countOf,
  DATE_TIME,
  datumFields,
  DEPOT_ADDRESS,
  HEX_COLOR,
  INTEGER,
  listText,
  NUMBER,
  numbers,
  OBJECT,
  STRING,
  STRING_LIST,
  valueFields,
} from './schema-parts';
import { STYLE_SCHEMA } from './style-schema';

/** A core type without its id (added by coreTypeDescriptors). */
type CoreType = Omit<DatumTypeDescriptor, 'id'>;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The core types of spec 001 §3.6 with their value shapes. A type without a schema, template or
 * repr inherits it from its base: `float` and `label` use those of `number` and `string`.
 */
export const CORE_TYPES: CoreType[] = [
  // Every type is assignable to 'any' (generic function ports, frames of mixed content).
  { name: 'any', template: {} },
  { name: 'object', schema: valueFields({}), template: { value: {} } },
  { name: 'dict', base: 'object', schema: valueFields(OBJECT), template: { value: {} } },
  {
    name: 'row',
    base: 'dict',
    schema: valueFields({ type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } }),
    template: { value: {} },
    repr: (f) => Object.values(f.value as object).join(', '),
  },
  { name: 'feature', base: 'object', schema: FEATURE_SCHEMA, template: FEATURE_TEMPLATE, repr: featureRepr },
  {
    // spec 002 §3 "Schema datum"
    name: 'schema',
    base: 'object',
    schema: datumFields({
      fields: {
        type: 'array',
        items: datumFields(
          {
            name: { type: 'string', minLength: 1 },
            schema: {
              type: 'object',
              required: ['type'],
              properties: { type: { enum: ['string', 'float', 'integer', 'boolean', 'object', 'array'] } },
            },
            description: STRING,
            required: BOOLEAN,
            nullable: BOOLEAN,
          },
          ['description', 'required', 'nullable'],
        ),
      },
    }),
    template: { fields: [] },
    repr: (f) => (f.fields as Array<{ name: string }>).map((x) => x.name).join(', '),
  },
  { name: 'string', schema: valueFields(STRING), template: { value: '' } },
  {
    name: 'color',
    base: 'string',
    schema: datumFields({ hex: HEX_COLOR }),
    template: { hex: '#000000' },
    repr: (f) => text(f.hex),
  },
  { name: 'label', base: 'string' },
  { name: 'number', schema: valueFields(NUMBER), template: { value: 0 } },
  { name: 'float', base: 'number' },
  { name: 'int', base: 'number', schema: valueFields(INTEGER) },
  { name: 'bool', schema: valueFields(BOOLEAN), template: { value: false } },
  { name: 'datetime', schema: valueFields(DATE_TIME), template: { value: '1970-01-01T00:00:00Z' } },
  // [west, south, east, north] in degrees (GeoJSON's order, as imports and extents use; west > east
  // crosses the antimeridian), and bottom, top in 3D. The bbox editor shows the four as named fields.
  { name: 'bbox', schema: valueFields(BBOX), template: { value: [0, 0, 0, 0] }, repr: (f) => listText(f.value) },
  { name: 'bbox3d', schema: valueFields(BBOX3D), template: { value: [0, 0, 0, 0, 0, 0] }, repr: (f) => listText(f.value) },
  {
    // Written by the server on upload; the schema guards hand-made datums.
    name: 'file',
    schema: datumFields({ value: STRING, size: countOf(0), mime_type: STRING, download_url: STRING, embed_url: STRING }, [
      'download_url',
      'embed_url',
    ]),
    template: { value: '', size: 0, mime_type: 'application/octet-stream' },
    repr: (f) => text(f.value),
  },
  {
    name: 'mesh',
    schema: datumFields({ value: STRING, png_preview: STRING, origin: numbers(3), properties: OBJECT }, [
      'value',
      'png_preview',
      'origin',
      'properties',
    ]),
    template: {},
    repr: (f) => text(f.value),
  },
  {
    name: 'grid',
    schema: datumFields({ bbox: BBOX, width: countOf(1), height: countOf(1), tms_url: STRING, tms_extension: STRING }, [
      'tms_url',
      'tms_extension',
    ]),
    template: { bbox: [0, 0, 0, 0], width: 1, height: 1 },
    repr: (f) => `${String(f.width)} × ${String(f.height)}`,
  },
  {
    name: 'pointcloud',
    schema: datumFields({ bbox3d: BBOX3D, name: STRING, pointcount: countOf(0) }),
    template: { bbox3d: [0, 0, 0, 0, 0, 0], name: '', pointcount: 0 },
    repr: (f) => `${text(f.name)} (${String(f.pointcount)})`,
  },
  { name: 'cityobject', schema: valueFields(OBJECT), template: { value: {} } },
  { name: 'ifcobject', schema: valueFields(OBJECT), template: { value: {} } },
  {
    name: 'ogcapicollection',
    schema: datumFields({ collectionId: STRING, title: STRING, description: STRING, url: STRING }, ['title', 'description']),
    template: { collectionId: '', url: '' },
    repr: (f) => text(f.title) || text(f.collectionId),
  },
  {
    name: 'tag',
    // The name is kept beside the id (the tag editor writes both), so the datum reads as the tag.
    schema: valueFields({ type: 'object', required: ['id'], properties: { id: INTEGER, name: STRING } }),
    template: { value: { id: 0 } },
    repr: (f) => {
      const tag = f.value as { id: number; name?: string };
      return tag.name?.trim() ? tag.name : `#${String(tag.id)}`;
    },
  },
  {
    name: 'billboard',
    schema: valueFields({
      type: 'object',
      required: ['image', 'position'],
      properties: { image: STRING, position: { type: 'array', items: NUMBER, minItems: 2, maxItems: 3 } },
    }),
    template: { value: { image: '', position: [0, 0] } },
    repr: (f) => text((f.value as { image: unknown }).image),
  },
  {
    name: 'style',
    schema: STYLE_SCHEMA,
    template: { value: { name: '', rules: [] } },
    repr: (f) => text((f.value as { name?: unknown } | null)?.name),
  },
  {
    name: 'wms',
    schema: datumFields({ tms_url: STRING, bbox: BBOX, layers: STRING, srs: STRING_LIST, transparent: BOOLEAN }, [
      'layers',
      'srs',
      'transparent',
    ]),
    template: { tms_url: '', bbox: [0, 0, 0, 0] },
    repr: (f) => (f.layers ? `${text(f.tms_url)} (${text(f.layers)})` : text(f.tms_url)),
  },
  {
    name: 'wmts',
    schema: datumFields({ tms_url: STRING, bbox: BBOX }),
    template: { tms_url: '', bbox: [0, 0, 0, 0] },
    repr: (f) => text(f.tms_url),
  },
  // a layer address
  { name: 'layer', schema: valueFields(STRING), template: { value: '' } },
  // A depot by its address (issue 14 item 12: one form for editors, functions and stored values); '' is none yet.
  { name: 'depot', schema: valueFields(DEPOT_ADDRESS), template: { value: '' } },
  { name: 'service', schema: valueFields(STRING), template: { value: '' } },
];

/** The core types as descriptors with ids `types.<name>`; fresh objects on every call. */
export const coreTypeDescriptors = (): DatumTypeDescriptor[] => CORE_TYPES.map((t) => ({ ...t, id: `types.${t.name}` }));
