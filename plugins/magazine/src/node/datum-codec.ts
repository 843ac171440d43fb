import { ApiError } from '@werkbank/sdk/node';
import type { VersionRow, VersionValues } from './datum-store';
import { DEPOT_PATH, TYPE_PATH } from './depot-resource';
import { checkFilePath } from './file-path';
import { depotFeatureFields } from './depot-crs';
import { MagazineServices } from './magazine-services';
import { datumExtent } from '../common/datum-extent';

/** Fields of the reply envelope; a client may send them back, they are never stored. */
const ENVELOPE = new Set([
  'id',
  'index',
  'resource_uri',
  'content_type',
  'moment_id',
  'moment_size',
  'version',
  'depot',
  'text_repr',
  'download_url',
  'embed_url',
  'favored',
]);

/** File datums: the server sets these; a client may only rename (`value`). */
const FILE_MANAGED = ['size', 'mime_type'];

export const isFileType = (services: MagazineServices, type: string) => services.types.isAssignable(type, 'file');

export function datumAddress(datumId: number, momentId: number): string {
  return `/api/v1/datum/${datumId}@${momentId}/`;
}

/** A datum as the API replies it: envelope plus the fields of its type (docs/api.md "Datums"). */
export function datumJson(v: VersionRow, momentId: number, type: string, services: MagazineServices): Record<string, unknown> {
  const address = datumAddress(v.datum_id, momentId);
  const out: Record<string, unknown> = {
    ...v.data,
    id: v.datum_id,
    index: v.datum_id,
    resource_uri: address,
    moment_id: momentId,
    version: String(v.id),
    depot: `${DEPOT_PATH}${v.depot_id}/`,
    content_type: `${TYPE_PATH}${type}/`,
    text_repr: v.repr,
  };
  if (v.blob) {
    out.download_url = `${address}download/`;
    out.embed_url = `${address}embed/`;
  }
  if (isFileType(services, type)) out.size = Number(out.size ?? 0);
  return out;
}

/** Checks a sent content type against the depot's: equal or deriving from it. */
function checkContentType(body: Record<string, unknown>, type: string, services: MagazineServices): void {
  if (body.content_type === undefined) return;
  const sent = typeof body.content_type === 'string' ? body.content_type.replace(TYPE_PATH, '').replace(/\/$/, '') : '';
  if (sent !== type) {
    throw ApiError.badRequest(
      'invalid_field',
      'magazine:errors.content_type_mismatch',
      { type, sent: sent || '?' },
      'content_type',
    );
  }
  void services;
}

/** The datum's own fields from a request body (envelope removed; the body itself when it has none). */
export function ownFields(body: Record<string, unknown>): Record<string, unknown> {
  let envelope = false;
  for (const k in body) {
    if (ENVELOPE.has(k) && Object.hasOwn(body, k)) {
      envelope = true;
      break;
    }
  }
  if (!envelope) return body;
  return Object.fromEntries(Object.entries(body).filter(([k]) => !ENVELOPE.has(k)));
}

/**
 * Validates a full datum against its type and returns what to store; 400 invalid_value naming the
 * path, 400 depot_crs for features in another CRS than WGS 84 (depotFeatureFields).
 */
export function validated(fields: Record<string, unknown>, type: string, services: MagazineServices): VersionValues {
  return datumValidator(type, services)(fields);
}

/**
 * `validated` for many datums of one type (bulk writes): what depends only on the type (whether
 * it is a feature, its base chain) is looked up once, not per datum.
 */
export function datumValidator(type: string, services: MagazineServices): (fields: Record<string, unknown>) => VersionValues {
  const feature = services.types.isAssignable(type, 'feature');
  const chain = services.types.baseChain(type);
  const types = services.datumTypes;
  return (fields) => {
    if (feature) fields = depotFeatureFields(fields);
    const problem = types.validate(type, fields);
    if (problem) throw ApiError.badRequest('invalid_value', problem.key, problem.params, problem.field);
    const repr = types.textRepr(type, fields);
    return { data: fields, repr: repr.length > 2000 ? repr.slice(0, 2000) : repr, extent: datumExtent(chain, fields) };
  };
}

/** A new datum from a create body. File datums come from uploads only. */
export function decodeNew(body: Record<string, unknown>, type: string, services: MagazineServices): VersionValues {
  checkContentType(body, type, services);
  if (isFileType(services, type)) {
    throw ApiError.badRequest('invalid_field', 'magazine:errors.file_upload_only', {}, 'content_type');
  }
  return validated(ownFields(body), type, services);
}

/** The datum after a PATCH: the current fields with the sent ones replaced. */
export function decodePatch(
  body: Record<string, unknown>,
  current: VersionRow,
  type: string,
  services: MagazineServices,
): VersionValues {
  checkContentType(body, type, services);
  const changes = { ...ownFields(body) };
  if (isFileType(services, type)) {
    for (const k of Object.keys(changes)) {
      if (k !== 'value') throw ApiError.badRequest('read_only_field', 'errors.read_only_field', { field: k }, k);
    }
    if (changes.value !== undefined) changes.value = checkFilePath(changes.value, 'value');
    for (const k of FILE_MANAGED) changes[k] = current.data[k];
  }
  const values = validated({ ...current.data, ...changes }, type, services);
  return { ...values, name: isFileType(services, type) ? String(values.data.value) : current.name, blob: current.blob };
}
