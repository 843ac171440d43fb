import type { BlobInfo, ResourceRequest } from '@werkbank/sdk/node';
import { datumJson } from './datum-codec';
import { insertDatums } from './datum-store';
import { depotDefinition, depotFor } from './depot-access';
import { checkUniqueName } from './file-path';
import { countWrite, openMomentFor } from './moment-store';
import { MagazineServices } from './magazine-services';

/**
 * Adds a stored blob to the depot's open moment as a file datum (value = name, size, mime_type),
 * in the caller's transaction, and marks the upload's file row as done. The blob store's put held
 * the blob against the server's sweep for the grace period (decision 0017), long enough for this
 * transaction to commit its reference. The datum write guards run before the transaction commits.
 */
export async function storeUploadedFile(
  r: ResourceRequest,
  services: MagazineServices,
  depotId: number,
  name: string,
  blob: BlobInfo,
  fileRow: number,
): Promise<Record<string, unknown>> {
  const depot = await depotFor(r, depotId, 'write');
  const type = String(depot.content_type);
  const moment = await openMomentFor(r.manager, depotId, r.user.id, undefined, 'upload');
  // Checked again under the depot lock: two uploads of one name at once cannot both land.
  await checkUniqueName(r.manager, depotId, name);
  // Bytes count once per depot: a file another datum of this depot holds adds nothing.
  const shared = (await r.manager.query(`SELECT 1 FROM magazine_datum_version WHERE blob = $1 AND depot_id = $2 LIMIT 1`, [
    blob.hash,
    depotId,
  ])) as unknown[];
  const fields = { value: name, size: blob.size, mime_type: blob.mime };
  const { versions, bytes } = await insertDatums(r.manager, depotId, moment.id, r.user.id, [
    {
      data: fields,
      repr: services.datumTypes.textRepr(type, fields),
      name,
      blob: blob.hash,
      blobBytes: shared.length ? 0 : blob.size,
    },
  ]);
  await countWrite(r.manager, moment.id, 1, bytes);
  await services.writeGuards.check(r, { depot_id: depotId, content_type: type, moment_id: moment.id, action: 'upload' });
  await r.manager.query(
    `UPDATE magazine_upload_file SET status = 'success', size = $2, mime_type = $3, datum_id = $4 WHERE id = $1`,
    [fileRow, blob.size, blob.mime, versions[0].datum_id],
  );
  await r.services.recordEvent(depotDefinition(r), 'update', depot, r, { action: 'upload', moment_id: moment.id, name });
  return datumJson(versions[0], moment.id, type, services);
}
