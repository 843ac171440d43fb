import {
  ApiError,
  BlobDownloads,
  guard,
  inject,
  injectable,
  requestOf,
  type HttpRouteContribution,
  type RegistrySink,
  type RouteDescriptor,
  type Row,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { LAYER_PATH } from '../common/layers-api';
import { layerServiceName } from '../common/layer-slug';
import { LayersServices } from './layers-services';
import { LayerTilesService } from './layer-tiles-service';

const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const responses = (codes: number[]) => Object.fromEntries(codes.map((c) => [c, { description: c < 300 ? 'OK' : 'Error' }]));

/**
 * A pmtiles layer's archive (decision 0062): `POST {layer}build_tiles/` builds it (write permission
 * on the layer; CSRF as every unsafe call), `GET {layer}tiles.pmtiles` serves it to readers of the
 * layer (and to everyone when the layer is public) with byte ranges (206), ETag and HEAD — the address PMTiles clients read from.
 */
@injectable()
export class LayerTileRoutes implements HttpRouteContribution {
  @inject(LayersServices) protected readonly services!: LayersServices;
  @inject(LayerTilesService) protected readonly tiles!: LayerTilesService;
  @inject(BlobDownloads) protected readonly downloads!: BlobDownloads;

  /** The layer `:id` the caller may read (404 otherwise), with the request. */
  protected async readable(ctx: WerkbankContext) {
    guard(ctx, undefined, undefined, 'layer');
    const req = requestOf(ctx, this.services);
    if (!/^\d{1,9}$/.test(ctx.params.id)) throw ApiError.notFound();
    const def = req.services.definitions().find((d) => d.kind === 'layer')!;
    const row = await req.services.loadReadable(def, Number(ctx.params.id), req);
    if (!row) throw ApiError.notFound();
    return { req, def, row };
  }

  /**
   * The layer whose archive is asked for: readable by the caller, or public for anonymous callers —
   * a public pmtiles layer is published, so map clients read its archive without signing in (as its
   * legend, decision 0063); 401 for anonymous callers of an internal layer.
   */
  protected async archiveReadable(ctx: WerkbankContext): Promise<Row> {
    if (ctx.state.user) return (await this.readable(ctx)).row;
    if (!/^\d{1,9}$/.test(ctx.params.id)) throw ApiError.notFound();
    const [row] = (await this.services.dataSource.query(
      `SELECT id, slug, public, persistent_size FROM layers_layer WHERE id = $1`,
      [Number(ctx.params.id)],
    )) as Row[];
    if (!row?.public) throw ApiError.unauthorized();
    return row;
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'layers.tile-routes',
      realms: ['layer'],
      openapi: {
        [`${LAYER_PATH}{id}/build_tiles/`]: {
          parameters: [idParam],
          post: {
            tags: ['layer'],
            summary: "Builds the pmtiles layer's tile archive from its piles with its tile settings; replies its tile_archive",
            responses: responses([200, 400, 403, 404, 409]),
          },
        },
        [`${LAYER_PATH}{id}/tiles.pmtiles`]: {
          parameters: [idParam],
          get: {
            tags: ['layer'],
            summary: "The pmtiles layer's archive (PMTiles v3, MVT tiles), with byte ranges",
            responses: responses([200, 206, 304, 403, 404, 416]),
          },
        },
      },
      mount: (router) => {
        router.post(`${LAYER_PATH}:id/build_tiles/`, async (ctx) => {
          const { req, def, row } = await this.readable(ctx);
          if (!(await req.services.mayWrite(def, row, req)))
            throw ApiError.forbidden('permission_denied', 'errors.permission_denied');
          const archive = await this.tiles.build(req, row);
          ctx.body = { status: 'ok', tile_archive: archive };
        });
        router.get(`${LAYER_PATH}:id/tiles.pmtiles`, async (ctx) => {
          const row = await this.archiveReadable(ctx);
          // tiles_blob is no field of the resource: the blob's address stays inside the plugin.
          const [stored] = (await this.services.dataSource.query(`SELECT tiles_blob FROM layers_layer WHERE id = $1`, [
            row.id,
          ])) as {
            tiles_blob: string | null;
          }[];
          const hash = stored?.tiles_blob;
          if (!hash) throw new ApiError(404, 'no_tile_archive', 'layers:tiles.errors.no_archive');
          const name = layerServiceName({ id: row.id, slug: String(row.slug ?? '') });
          await this.downloads.send(ctx, hash, {
            size: Number(row.persistent_size ?? 0),
            mime: 'application/vnd.pmtiles',
            filename: `${name}.pmtiles`,
            disposition: 'attachment',
          });
        });
      },
    });
  }
}
