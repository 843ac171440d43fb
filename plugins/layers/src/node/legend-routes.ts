import {
  ApiError,
  guard,
  requestOf,
  type ResourceDefinition,
  type ResourceRequest,
  type RouteDescriptor,
  type Row,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import type { Readable } from 'node:stream';
import { LAYER_PATH } from '../common/layers-api';
import { legendAddress, legendWarnings, LEGEND_MAX_BYTES, type LegendUpload } from '../common/legend';
import { readLegendPng } from './legend-png';
import type { LayersServices } from './layers-services';

type Router = Parameters<RouteDescriptor['mount']>[0];

const idOf = (ctx: WerkbankContext): number => {
  if (!/^\d{1,9}$/.test(ctx.params.id)) throw ApiError.notFound();
  return Number(ctx.params.id);
};

const layerDef = (r: ResourceRequest): ResourceDefinition => r.services.definitions().find((d) => d.kind === 'layer')!;

/** The layer for a change of its legend: 404 when unreadable, 403 when the caller may not change it. */
async function writableLayer(r: ResourceRequest, id: number): Promise<Row> {
  const def = layerDef(r);
  const row = await r.services.loadReadable(def, id, r);
  if (!row) throw ApiError.notFound();
  if (!(await r.services.mayWrite(def, row, r))) throw ApiError.forbidden('permission_denied', 'errors.permission_denied');
  return row;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The layer's legend (decision 0063): `POST {layer}legend/` uploads a PNG (multipart, one `file`
 * part, at most LEGEND_MAX_BYTES) into the blob store, `DELETE {layer}legend/` removes it, and
 * `GET {layer}legend.png` serves it to readers of the layer — without signing in when the layer
 * is public. Changing the legend counts as a change of the layer (revision, event feed); the blob
 * a layer lets go of is released to the blob sweep by a trigger (legend-migration.ts).
 */
export function mountLegendRoutes(router: Router, services: LayersServices): void {
  const caller = (ctx: WerkbankContext) => {
    guard(ctx, undefined, undefined, 'layer');
    return requestOf(ctx, services);
  };

  /** Sets the legend blob (or none) in one transaction with the revision and the feed entry. */
  const setLegend = (ctx: WerkbankContext, id: number, blob: { hash: string; size: number } | null) =>
    services.resources.inTransaction(caller(ctx), 'layer', async (tr) => {
      const row = await writableLayer(tr, id);
      if (!blob && !row.legend_blob && !row.legend) return;
      await tr.manager.query(
        `UPDATE layers_layer SET legend_blob = $2, legend_size = $3, legend = '', revision = revision + 1, modified = now() WHERE id = $1`,
        [id, blob?.hash ?? null, blob?.size ?? 0],
      );
      const updated = (await tr.services.loadReadable(layerDef(tr), id, tr))!;
      await tr.services.recordEvent(layerDef(tr), 'update', updated, tr, { fields: ['legend'] });
    });

  router.post(`${LAYER_PATH}:id/legend/`, async (ctx) => {
    const id = idOf(ctx);
    const r = caller(ctx);
    // The caller and the layer are checked before a byte of the body is read.
    await writableLayer(r, id);
    const { file } = await services.bodies.upload(ctx, { maxBytes: LEGEND_MAX_BYTES });
    const blob = file!.blob;
    // A refused file stays unreferenced: the blob sweep removes it after its grace period.
    const { info, problem } = readLegendPng(await bytesOf(services.blobs.open(blob.hash)));
    if (problem) throw ApiError.badRequest('invalid_legend', `layers:${problem.key}`, problem.params ?? {}, 'legend');
    await setLegend(ctx, id, blob);
    const reply: LegendUpload = {
      legend: legendAddress(id),
      size: blob.size,
      ...info!,
      warnings: legendWarnings(info!).map((w) => ({ reason: w.reason, message: String(r.t(`layers:${w.key}`, w.params)) })),
    };
    ctx.body = reply;
  });

  router.delete(`${LAYER_PATH}:id/legend/`, async (ctx) => {
    await setLegend(ctx, idOf(ctx), null);
    ctx.status = 204;
  });

  router.get(`${LAYER_PATH}:id/legend.png`, async (ctx) => {
    const id = idOf(ctx);
    let row: Row | undefined;
    if (ctx.state.user) {
      const r = caller(ctx);
      row = await r.services.loadReadable(layerDef(r), id, r);
      if (!row) throw ApiError.notFound();
    } else {
      // Public layers are published (decision 0060): their legend is readable without signing in.
      [row] = (await services.dataSource.query(`SELECT id, public, legend_blob, legend_size FROM layers_layer WHERE id = $1`, [
        id,
      ])) as Row[];
      if (!row?.public) throw ApiError.unauthorized();
    }
    if (!row.legend_blob) throw ApiError.notFound();
    await services.downloads.send(ctx, String(row.legend_blob), {
      size: Number(row.legend_size),
      mime: 'image/png',
      filename: `legend-${id}.png`,
      disposition: 'inline',
    });
  });
}
