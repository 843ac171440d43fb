import type { DatumTypeDescriptor } from '@werkbank/sdk';

/** The core types of spec 001 §3.6 (names and base types; value schemas come with the Magazine). */
export const CORE_TYPES: Array<[name: string, base?: string]> = [
  ['object'],
  ['dict', 'object'],
  ['row', 'dict'],
  ['feature', 'object'],
  ['schema', 'object'],
  ['string'],
  ['color', 'string'],
  ['label', 'string'],
  ['number'],
  ['float', 'number'],
  ['int', 'number'],
  ['bool'],
  ['datetime'],
  ['bbox'],
  ['bbox3d'],
  ['file'],
  ['mesh'],
  ['grid'],
  ['pointcloud'],
  ['cityobject'],
  ['ifcobject'],
  ['ogcapicollection'],
  ['tag'],
  ['billboard'],
  ['style'],
  ['wms'],
  ['wmts'],
  ['layer'],
  ['depot'],
  ['service'],
];

export const coreTypeDescriptors = (): DatumTypeDescriptor[] =>
  CORE_TYPES.map(([name, base]) => ({ id: `types.${name}`, name, base }));
