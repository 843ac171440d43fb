/**
 * Metadata of layers (spec 001 §3.3, §5.1; decision 0066): a list of values, each naming its
 * attribute type by address. Attribute types and their groups are configured by administrators
 * (`/api/v1/metadataattributetype/`, `/api/v1/metadatagroup/`).
 */
export const METADATA_GROUP_PATH = '/api/v1/metadatagroup/';
export const METADATA_ATTRIBUTE_TYPE_PATH = '/api/v1/metadataattributetype/';
export const METADATA_DATATYPES = ['text', 'select', 'date'] as const;
export type MetadataDatatype = (typeof METADATA_DATATYPES)[number];

export interface MetadataValue {
  /** The attribute type's address. */
  attributetype: string;
  value: string;
}
export interface Metadata {
  values: MetadataValue[];
}
export interface MetadataGroup {
  id: number;
  resource_uri: string;
  name: string;
  position: number;
}
export interface MetadataAttributeType {
  id: number;
  resource_uri: string;
  display_name: string;
  description: string;
  group: string | null;
  /** Shown in the viewer's layer information. */
  display: boolean;
  datatype: MetadataDatatype;
  /** The choices of a select. */
  options: string[];
  /** The ISO 19139 element it fills (decision 0066), or '' for none. */
  iso: string;
  position: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * spec 001 §5.1: empty values are omitted; when none remain the metadata is null. Returns
 * undefined for a value of the wrong shape.
 */
export function cleanMetadata(v: unknown): Metadata | null | undefined {
  if (v === null || v === undefined) return null;
  if (!isObject(v) || !Array.isArray(v.values)) return undefined;
  const values: MetadataValue[] = [];
  for (const e of v.values) {
    if (!isObject(e) || typeof e.attributetype !== 'string') return undefined;
    if (e.value === null || e.value === undefined) continue;
    if (typeof e.value !== 'string') return undefined;
    if (e.value.trim() === '') continue;
    values.push({ attributetype: e.attributetype, value: e.value });
  }
  return values.length ? { values } : null;
}

/** The value of one attribute type in `metadata`, or ''. */
export function metadataValue(metadata: Metadata | null | undefined, attributetype: string): string {
  return metadata?.values.find((v) => v.attributetype === attributetype)?.value ?? '';
}

/** `metadata` with the value of `attributetype` set (an empty text removes it). */
export function withMetadataValue(metadata: Metadata | null | undefined, attributetype: string, value: string): Metadata | null {
  const others = (metadata?.values ?? []).filter((v) => v.attributetype !== attributetype);
  return cleanMetadata({ values: [...others, { attributetype, value }] }) ?? null;
}

/**
 * `/api/v2/metadata/` (spec 002 §2, decision 0063): the typed metadata of one object (a layer or a
 * depot) at `/api/v2/metadata/{kind}/{id}/`, also found by `?resource={object address}`.
 */
export const METADATA_PATH = '/api/v2/metadata/';
/** The kinds whose objects carry typed metadata in their `metadata` field. */
export const METADATA_KINDS = ['layer', 'depot'] as const;

export interface MetadataObject {
  resource_uri: string;
  /** The object's own address. */
  resource: string;
  kind: string;
  name: string;
  values: MetadataValue[];
  /** What the caller may do with the object: `['read']` or `['read', 'write']`. */
  access: string[];
  /** The ISO 19139 export, `{resource}download.xml`. */
  download: string;
}

/** The typed values inside an object's `metadata` (other keys, e.g. a depot's older key/value pairs, are not values). */
export function typedOf(metadata: unknown): Metadata | null {
  if (!isObject(metadata) || !Array.isArray(metadata.values)) return null;
  return cleanMetadata({ values: metadata.values }) ?? null;
}

/** `metadata` with its typed values replaced by `typed`, its other keys kept; null when nothing remains. */
export function withTyped(metadata: unknown, typed: Metadata | null): Record<string, unknown> | null {
  const others = isObject(metadata) ? Object.fromEntries(Object.entries(metadata).filter(([k]) => k !== 'values')) : {};
  const out = typed?.values.length ? { ...others, values: typed.values } : others;
  return Object.keys(out).length ? out : null;
}
