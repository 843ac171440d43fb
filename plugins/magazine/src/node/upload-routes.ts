import { randomUUID } from 'node:crypto';
import {
  ApiError,
  injectable,
  parseRef,
  returnedRows,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type RouteDescriptor,
  inject,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { callerOf } from './magazine-routes';
import { depotFor } from './depot-access';
import { DEPOT_PATH } from './moment-store';
import { isFileType } from './datum-codec';
import { checkFilePath, checkUniqueName } from './file-path';
import { uploadOpenApi } from './magazine-openapi';
import { storeUploadedFile } from './uploaded-file';
import { uploadStatus, type UploadFileRow } from './upload-status';
import { MagazineServices } from './magazine-services';
import { HEARTBEAT_SECONDS, UPLOAD_STALE_SECONDS } from './interrupted-uploads';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Uploads (spec 000 §2 "File upload", §7 "Uploads"): a batch per upload id, one file per call. */
@injectable()
export class UploadRoutes implements HttpRouteContribution {
  @inject(MagazineServices) protected readonly services!: MagazineServices;

  private req(ctx: WerkbankContext): ResourceRequest {
    return callerOf(ctx, this.services);
  }

  /** The caller's upload batch and its depot (writable); 404 for an unknown or foreign id. */
  private async upload(r: ResourceRequest, raw: string): Promise<{ id: string; depotId: number }> {
    if (!UUID.test(raw)) throw ApiError.notFound();
    const rows = (await r.manager.query(`SELECT id, depot_id FROM magazine_upload WHERE id = $1 AND user_id = $2`, [
      raw,
      r.user.id,
    ])) as { id: string; depot_id: number }[];
    if (!rows[0]) throw ApiError.notFound();
    await depotFor(r, rows[0].depot_id, 'write');
    return { id: rows[0].id, depotId: rows[0].depot_id };
  }

  private async files(r: ResourceRequest, uploadId: string): Promise<UploadFileRow[]> {
    return (await r.manager.query(
      `SELECT path, status, size, mime_type, reason, datum_id FROM magazine_upload_file WHERE upload_id = $1 ORDER BY id`,
      [uploadId],
    )) as UploadFileRow[];
  }

  /**
   * The row of a file being uploaded into the batch: the row of an earlier try of the same path
   * that failed or was cut off (its heartbeat stopped), so a re-sent file completes the batch
   * (issue 14 item 28), else a new one.
   */
  private async fileRow(r: ResourceRequest, uploadId: string, name: string): Promise<number> {
    const [again] = returnedRows<{ id: number }>(
      await r.manager.query(
        `UPDATE magazine_upload_file SET status = 'uploading', reason = NULL, size = 0, mime_type = NULL, heartbeat = now()
        WHERE id = (SELECT id FROM magazine_upload_file WHERE upload_id = $1 AND path = $2 AND (status = 'failed'
                      OR (status = 'uploading' AND heartbeat < now() - make_interval(secs => $3)))
                     ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
        [uploadId, name, UPLOAD_STALE_SECONDS],
      ),
    );
    if (again) return again.id;
    const [row] = (await r.manager.query(
      `INSERT INTO magazine_upload_file (upload_id, path, status) VALUES ($1, $2, 'uploading') RETURNING id`,
      [uploadId, name],
    )) as { id: number }[];
    return row.id;
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'magazine.upload-routes',
      realms: ['depot'],
      openapi: uploadOpenApi,
      mount: (router) => {
        router.post('/magazine/upload-reset/', async (ctx) => {
          const r = this.req(ctx);
          const body = await this.services.bodies.json(ctx);
          const depotId = parseRef(body.depot, DEPOT_PATH);
          if (depotId === undefined) throw ApiError.badRequest('invalid_field', 'magazine:errors.upload_depot', {}, 'depot');
          const depot = await depotFor(r, depotId, 'write');
          if (!isFileType(this.services, String(depot.content_type))) {
            throw ApiError.badRequest('invalid_field', 'magazine:errors.upload_depot', {}, 'depot');
          }
          const id = randomUUID();
          await r.manager.query(`INSERT INTO magazine_upload (id, user_id, depot_id) VALUES ($1, $2, $3)`, [
            id,
            r.user.id,
            depotId,
          ]);
          ctx.body = { upload_id: id, ...uploadStatus([]) };
        });
        router.get('/magazine/upload-status/:upload/', async (ctx) => {
          const r = this.req(ctx);
          const upload = await this.upload(r, ctx.params.upload);
          ctx.body = { upload_id: upload.id, ...uploadStatus(await this.files(r, upload.id)) };
        });
        router.post('/magazine/upload-file/:upload/', async (ctx) => {
          const r = this.req(ctx);
          const upload = await this.upload(r, ctx.params.upload);
          let fileRow: number | undefined;
          let path: string | undefined;
          // While the bytes arrive the row shows it is alive (interrupted-uploads.ts).
          let beat = Date.now();
          ctx.req.on('data', () => {
            if (fileRow === undefined || Date.now() - beat < HEARTBEAT_SECONDS * 1000) return;
            beat = Date.now();
            r.manager
              .query(`UPDATE magazine_upload_file SET heartbeat = now() WHERE id = $1 AND status = 'uploading'`, [fileRow])
              .catch((e: Error) => this.services.log(`Magazine: upload heartbeat failed: ${e.message}`));
          });
          try {
            const received = await this.services.bodies.upload(ctx, {
              maxBytes: this.services.config.uploadMaxBytes,
              beforeFile: async (fields, filename) => {
                path = (fields.path ?? filename ?? '').trim() || undefined;
                const name = checkFilePath(path);
                await checkUniqueName(r.manager, upload.depotId, name);
                fileRow = await this.fileRow(r, upload.id, name);
              },
            });
            const file = received.file!;
            const datum = await this.services.resources.inTransaction(r, 'depot', (tr) =>
              storeUploadedFile(tr, this.services, upload.depotId, checkFilePath(path), file.blob, fileRow!),
            );
            ctx.status = 201;
            ctx.body = {
              file: { path, status: 'success', size: file.blob.size, mime_type: file.blob.mime, datum },
              upload: { upload_id: upload.id, ...uploadStatus(await this.files(r, upload.id)) },
            };
          } catch (e) {
            const reason = e instanceof ApiError ? r.t(e.key, e.params) : r.t('errors.internal');
            // Bytes that were stored but that no datum took are removed by the server's sweep
            // (decision 0017): every put is a candidate until a reference keeps it.
            if (fileRow !== undefined) {
              await r.manager.query(`UPDATE magazine_upload_file SET status = 'failed', reason = $2 WHERE id = $1`, [
                fileRow,
                reason,
              ]);
            } else if (path) {
              await r.manager.query(
                `INSERT INTO magazine_upload_file (upload_id, path, status, reason) VALUES ($1, $2, 'failed', $3)`,
                [upload.id, path.slice(0, 1000), reason],
              );
            }
            throw e;
          }
        });
      },
    });
  }
}
