import { ApiError, type ResourceRequest } from '@werkbank/sdk/node';
import { depotFor } from './depot-access';
import { datumJson, decodeNew, decodePatch } from './datum-codec';
import { checkVersion, currentVersion, datumDepot, insertDatums, replaceVersion } from './datum-store';
import { countWrite, openMomentFor } from './moment-store';
import { checkUniqueName } from './file-path';
import type { MagazineServices } from './magazine-services';
import { boxExtentOf, unionExtent } from '../common/datum-extent';

/** A depot feed entry for a datum write (`datum_create`, `datum_update`, `datum_delete`). */
export async function recordDepotEvent(r: ResourceRequest, depotId: number, action: string, momentId: number, count = 1) {
  const def = r.services.definitions().find((d) => d.kind === 'depot')!;
  const row = await r.services.loadReadable(def, depotId, r);
  if (row) await r.services.recordEvent(def, 'update', row, r, { action, moment_id: momentId, count });
}

/**
 * New datums in the depot's open moment (one is opened when the head is closed), in the caller's
 * transaction `r`: the write of `POST /api/v1/datum/create-in-depot/{depot}/` and of
 * DepotAccess.saveDatum. `basedOn` is the moment the caller read (409 moment_moved when the head
 * moved on). `fieldOf(i, field)` names a refused item's field (batches: `objects[i].field`).
 * The datum write guards run before the caller's transaction commits.
 */
export async function createDatums(
  r: ResourceRequest,
  services: MagazineServices,
  depotId: number,
  items: Record<string, unknown>[],
  basedOn: number | undefined,
  fieldOf?: (i: number, field: string) => string,
) {
  const depot = await depotFor(r, depotId, 'write');
  const type = String(depot.content_type);
  const values = items.map((item, i) => {
    try {
      return decodeNew(item, type, services);
    } catch (e) {
      if (fieldOf && e instanceof ApiError && e.field) throw new ApiError(e.status, e.code, e.key, e.params, fieldOf(i, e.field));
      throw e;
    }
  });
  const moment = await openMomentFor(r.manager, depotId, r.user.id, basedOn, 'edit');
  const { versions, bytes } = await insertDatums(r.manager, depotId, moment.id, r.user.id, values);
  const size = await countWrite(r.manager, moment.id, versions.length, bytes, {
    added: values.reduce((u, v) => unionExtent(u, v.extent ?? null), null as ReturnType<typeof unionExtent>),
    removed: null,
  });
  await services.writeGuards.check(r, { depot_id: depotId, content_type: type, moment_id: moment.id, action: 'datum_create' });
  await recordDepotEvent(r, depotId, 'datum_create', moment.id, versions.length);
  return {
    objects: versions.map((v) => datumJson(v, moment.id, type, services)),
    moment_id: moment.id,
    moment_size: size,
    depot_id: depotId,
  };
}

/**
 * A new version of one datum in the depot's open moment (decision 0011), in the caller's
 * transaction `r`: the write of `PATCH /api/v1/datum/{ref}/` and of DepotAccess.saveDatum. `body`
 * holds the changed fields and optionally the `version` the caller read (409 datum_changed).
 * The datum write guards run before the caller's transaction commits.
 */
export async function patchDatum(
  r: ResourceRequest,
  services: MagazineServices,
  datumId: number,
  body: Record<string, unknown>,
  basedOn: number | undefined,
) {
  const depotId = await datumDepot(r.manager, datumId);
  if (depotId === undefined) throw ApiError.notFound();
  const depot = await depotFor(r, depotId, 'write');
  const type = String(depot.content_type);
  const moment = await openMomentFor(r.manager, depotId, r.user.id, basedOn, 'edit');
  const current = await currentVersion(r.manager, datumId);
  if (!current) throw new ApiError(409, 'datum_deleted', 'magazine:errors.datum_deleted', { datum: datumId });
  checkVersion(current, body.version);
  const values = decodePatch(body, current, type, services);
  if (values.name !== current.name && values.name) await checkUniqueName(r.manager, depotId, values.name, datumId);
  const { version, bytesDelta } = await replaceVersion(r.manager, current, moment.id, r.user.id, values);
  const size = await countWrite(r.manager, moment.id, 0, bytesDelta, {
    added: values.extent ?? null,
    removed: boxExtentOf(current.extent),
  });
  await services.writeGuards.check(r, { depot_id: depotId, content_type: type, moment_id: moment.id, action: 'datum_update' });
  await recordDepotEvent(r, depotId, 'datum_update', moment.id);
  return { object: datumJson(version, moment.id, type, services), moment_id: moment.id, moment_size: size, depot_id: depotId };
}
