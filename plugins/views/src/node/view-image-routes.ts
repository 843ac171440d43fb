import {
  ApiError,
  guard,
  inject,
  injectable,
  requestOf,
  type BlobInfo,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceDefinition,
  type ResourceRequest,
  type Row,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { formatBytes } from '@werkbank/sdk';
import { VIEW_PATH } from '../common/view-rules';
import {
  IMAGE_SIGNATURE_BYTES,
  imageTypeOf,
  VIEW_IMAGE_EXTENSIONS,
  VIEW_IMAGE_MAX_BYTES,
  viewImageAddress,
  type ViewImageType,
  type ViewImageUpload,
} from '../common/view-image';
import { ViewsServices } from './views-services';

const PATH = `${VIEW_PATH}:id/image/`;

const op = (summary: string, codes: number[]) => ({
  tags: ['view'],
  summary,
  responses: Object.fromEntries(
    codes.map((c) => [c, { description: c < 300 ? 'OK' : c === 304 ? 'Not modified (If-None-Match)' : 'Error' }]),
  ),
});

const idOf = (ctx: WerkbankContext): number => {
  if (!/^\d{1,9}$/.test(ctx.params.id)) throw ApiError.notFound();
  return Number(ctx.params.id);
};

const viewDef = (r: ResourceRequest): ResourceDefinition => r.services.definitions().find((d) => d.kind === 'view')!;

/** The view for a change of its image: 404 when the caller may not read it, 403 when it may not change it. */
async function writableView(r: ResourceRequest, id: number): Promise<Row> {
  const def = viewDef(r);
  const row = await r.services.loadReadable(def, id, r);
  if (!row) throw ApiError.notFound();
  if (!(await r.services.mayWrite(def, row, r))) throw ApiError.forbidden('permission_denied', 'errors.permission_denied');
  return row;
}

/**
 * A view's uploaded preview image (decision 0092), at the view's address + `image/`:
 * - `POST` (multipart, one `file` part, at most VIEW_IMAGE_MAX_BYTES) stores a PNG, JPEG, WebP or
 *   GIF — told by its first bytes, never by the client's type or name — in the blob store and sets
 *   the view's `image` to this address; needs write access to the view (checked before a byte is read).
 * - `DELETE` clears `image`, uploaded or not.
 * - `GET` serves the image to readers of the view and, for public views, to everyone (a signed-out
 *   caller gets 404 for any other view, as the viewer's scene does), with its recorded type, inline,
 *   `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox` (BlobDownloads).
 * Both changes are a change of the view (modified, an `update` feed entry); the blob a view lets go
 * of is released to the blob sweep by a trigger (view-image-migration.ts).
 */
@injectable()
export class ViewImageRoutes implements HttpRouteContribution {
  @inject(ViewsServices) protected readonly services!: ViewsServices;

  protected caller(ctx: WerkbankContext): ResourceRequest {
    guard(ctx, undefined, undefined, 'view');
    return requestOf(ctx, this.services);
  }

  /** Sets the image (an uploaded blob, or none) in one transaction with the feed entry. */
  protected setImage(ctx: WerkbankContext, id: number, image?: { blob: BlobInfo; mime: ViewImageType }): Promise<void> {
    return this.services.resources.inTransaction(this.caller(ctx), 'view', async (tr) => {
      const row = await writableView(tr, id);
      if (!image && !row.image_blob && !row.image) return;
      await tr.manager.query(
        `UPDATE views_view SET image = $2, image_blob = $3, image_size = $4, image_mime = $5, modified = now() WHERE id = $1`,
        [id, image ? viewImageAddress(id) : '', image?.blob.hash ?? null, image?.blob.size ?? 0, image?.mime ?? ''],
      );
      const updated = (await tr.services.loadReadable(viewDef(tr), id, tr))!;
      await tr.services.recordEvent(viewDef(tr), 'update', updated, tr, { fields: ['image'] });
    });
  }

  /** The stored image's type by its first bytes; 400 `invalid_image` for anything but the accepted types. */
  protected async typeOf(blob: BlobInfo): Promise<ViewImageType> {
    const chunks: Buffer[] = [];
    const end = Math.min(blob.size, IMAGE_SIGNATURE_BYTES) - 1;
    for await (const chunk of this.services.blobs.open(blob.hash, { start: 0, end })) chunks.push(chunk as Buffer);
    const mime = imageTypeOf(Buffer.concat(chunks));
    if (!mime) throw ApiError.badRequest('invalid_image', 'views:image.errors.type', {}, 'image');
    return mime;
  }

  /** The row behind `GET`: the caller's readable view, or for a signed-out caller a public one. */
  protected async readableView(ctx: WerkbankContext, id: number): Promise<Row | undefined> {
    if (ctx.state.user) {
      const r = this.caller(ctx);
      return r.services.loadReadable(viewDef(r), id, r);
    }
    const [row] = (await this.services.dataSource.query(
      `SELECT id, public, image_blob, image_size, image_mime FROM views_view WHERE id = $1 AND public`,
      [id],
    )) as Row[];
    return row;
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'views.image',
      realms: ['view'],
      openapi: {
        '/api/v1/view/{id}/image/': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          get: op(
            'The uploaded preview image (PNG, JPEG, WebP or GIF) to readers of the view, and without signing in for public views',
            [200, 304, 404],
          ),
          post: op(
            'Uploads the preview image (multipart, one `file` part: PNG, JPEG, WebP or GIF by its content, at most 5 MB; no SVG) and sets the view’s `image` to this address; answers {image, size, mime}',
            [200, 400, 401, 403, 404, 413],
          ),
          delete: op('Clears the view’s preview image (uploaded or an address)', [204, 401, 403, 404]),
        },
      },
      mount: (router) => {
        router.post(PATH, async (ctx) => {
          const id = idOf(ctx);
          const r = this.caller(ctx);
          // The caller and the view are checked before a byte of the body is read.
          await writableView(r, id);
          const { file } = await this.services.bodies.upload(ctx, { maxBytes: VIEW_IMAGE_MAX_BYTES }).catch((e: unknown) => {
            if (e instanceof ApiError && e.code === 'file_too_large') {
              const limit = formatBytes(VIEW_IMAGE_MAX_BYTES, r.lang);
              throw new ApiError(413, 'file_too_large', 'views:image.errors.too_large', { limit }, 'image');
            }
            throw e;
          });
          const blob = file!.blob;
          // A refused file stays unreferenced: the blob sweep removes it after its grace period.
          const mime = await this.typeOf(blob);
          await this.setImage(ctx, id, { blob, mime });
          const reply: ViewImageUpload = { image: viewImageAddress(id), size: blob.size, mime };
          ctx.body = reply;
        });

        router.delete(PATH, async (ctx) => {
          await this.setImage(ctx, idOf(ctx));
          ctx.status = 204;
        });

        router.get(PATH, async (ctx) => {
          const id = idOf(ctx);
          const row = await this.readableView(ctx, id);
          if (!row?.image_blob) throw ApiError.notFound();
          const mime = String(row.image_mime) as ViewImageType;
          await this.services.downloads.send(ctx, String(row.image_blob), {
            size: Number(row.image_size),
            mime,
            filename: `view-${id}.${VIEW_IMAGE_EXTENSIONS[mime] ?? 'bin'}`,
            disposition: 'inline',
          });
        });
      },
    });
  }
}
