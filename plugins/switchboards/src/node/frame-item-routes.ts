import {
  inject,
  injectable,
  readJsonObject,
  ServerServices,
  type HttpRouteContribution,
  type RegistrySink,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { FRAME_PATH } from './switchboard-access';
import { inSwitchboardTransaction, switchboardCaller } from './route-caller';
import { basedOnParam, editFrameItems, frameForEdit, indexParam, itemAt, validateItem } from './frame-item-write';
import { mountFrameFiles } from './frame-file-routes';

const op = (summary: string) => ({ summary });

/** OpenAPI entries of FrameItemRoutes (docs/api.md "frame"). */
const frameItemOpenApi: Record<string, unknown> = {
  '/api/v1/frame/{id}/content/{index}/': {
    patch: op('Changes one item: the sent datum fields replace its fields (validated). Optional ?content_hash='),
    delete: op('Removes one item; the items after it move up. Optional ?content_hash='),
  },
  '/api/v1/frame/{id}/content/{index}/duplicate/': {
    post: op('Inserts a copy of the item right after it. 201. Optional ?content_hash='),
  },
  '/api/v1/frame/{id}/upload/': {
    post: op('multipart/form-data: path (optional, before the file) and file; appends a file datum to a file frame. 201.'),
  },
  '/api/v1/frame/{id}/file/{hash}/download/': { get: op('A file the frame holds (uploaded into it), as an attachment.') },
  '/api/v1/frame/{id}/file/{hash}/embed/': { get: op('The same file inline when its type is safe to show.') },
};

/**
 * Editing one item of a frame (the frame dialog's table and single view, spec 001 §2.6/§2.7), and
 * files uploaded into file frames. Every change needs write on the switchboard and follows its
 * schedule rule (409 switchboard_scheduled), like a content PATCH.
 */
@injectable()
export class FrameItemRoutes implements HttpRouteContribution {
  @inject(ServerServices) protected readonly services!: ServerServices;

  /** Runs an item edit as the caller: the frame is checked before the body is read. */
  private async itemEdit(
    ctx: WerkbankContext,
    withBody: boolean,
    edit: (items: Record<string, unknown>[], type: string, index: number, body: Record<string, unknown>) => unknown[],
  ) {
    const r = switchboardCaller(ctx, this.services);
    const frame = await frameForEdit(r, ctx.params.id);
    const index = indexParam(ctx.params.index);
    const basedOn = basedOnParam(ctx.query.content_hash);
    const body = withBody ? await readJsonObject(ctx, this.services.config.bodyLimit) : {};
    return inSwitchboardTransaction(ctx, this.services, async (tr) => {
      await frameForEdit(tr, ctx.params.id);
      return editFrameItems(tr, this.services, frame.id as number, basedOn, (items, type) => {
        itemAt(items, index);
        const next = edit(items as Record<string, unknown>[], type, index, body);
        return { items: next as typeof items, result: next[index] as Record<string, unknown> | undefined };
      });
    });
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'switchboards.frame-item-routes',
      realms: ['switchboard'],
      openapi: frameItemOpenApi,
      mount: (router) => {
        const path = `${FRAME_PATH}:id/content/:index/`;
        // The sent fields replace the item's fields of the same name; `index` (reply envelope) is ignored.
        router.patch(path, async (ctx) => {
          const out = await this.itemEdit(ctx, true, (items, type, index, body) => {
            const fields = Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'index'));
            const next = validateItem({ ...items[index], ...fields }, type, this.services, `content[${index}]`);
            return items.map((item, i) => (i === index ? next : item));
          });
          ctx.body = { item: { ...(out.result as object), index: indexParam(ctx.params.index) }, frame: out.frame };
        });
        router.delete(path, async (ctx) => {
          const out = await this.itemEdit(ctx, false, (items, _type, index) => items.filter((_, i) => i !== index));
          ctx.body = { status: 'ok', frame: out.frame };
        });
        router.post(`${path}duplicate/`, async (ctx) => {
          const out = await this.itemEdit(ctx, false, (items, _type, index) => [
            ...items.slice(0, index + 1),
            structuredClone(items[index]),
            ...items.slice(index + 1),
          ]);
          ctx.status = 201;
          ctx.body = { item: { ...(out.result as object), index: indexParam(ctx.params.index) + 1 }, frame: out.frame };
        });
        mountFrameFiles(router, this.services);
      },
    });
  }
}
