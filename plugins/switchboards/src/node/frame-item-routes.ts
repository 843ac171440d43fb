import {
  ApiError,
  inject,
  injectable,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { FRAME_PATH } from './switchboard-access';
import { inSwitchboardTransaction, switchboardCaller } from './route-caller';
import { basedOnParam, editFrameItems, frameForEdit, indexParam, itemAt, validateItem } from './frame-item-write';
import { mountFrameFiles } from './frame-file-routes';
import { checkFileItems } from './frame-file-fields';
import { copyFileName, renamedFileName } from './frame-file-name';
import { SwitchboardsServices } from './switchboards-services';

type Item = Record<string, unknown>;

/** One item edit: the frame's items, its type, the item's index, the request body, the transaction's caller. */
interface ItemEdit {
  items: Item[];
  type: string;
  index: number;
  body: Record<string, unknown>;
  r: ResourceRequest;
  frameId: number;
  /** The frame's type is file or derives from it. */
  isFile: boolean;
}

/** Runs `fn`, giving a field error the item's place in the frame. */
function at<T>(field: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ApiError) throw new ApiError(e.status, e.code, e.key, e.params, field);
    throw e;
  }
}

const op = (summary: string) => ({ summary });

/** OpenAPI entries of FrameItemRoutes (docs/api.md "frame"). */
const frameItemOpenApi: Record<string, unknown> = {
  '/api/v1/frame/{id}/content/{index}/': {
    patch: op(
      'Changes one item: the sent datum fields replace its fields (validated; a file datum keeps the server-owned download_url, embed_url, mime_type and size, and a new name follows the upload rules). Optional ?content_hash=',
    ),
    delete: op('Removes one item; the items after it move up. Optional ?content_hash='),
  },
  '/api/v1/frame/{id}/content/{index}/duplicate/': {
    post: op('Inserts a copy of the item right after it (a file datum as "name (2).ext"). 201. Optional ?content_hash='),
  },
  '/api/v1/frame/{id}/upload/': {
    post: op('multipart/form-data: path (optional, before the file) and file; appends a file datum to a file frame. 201.'),
  },
  '/api/v1/frame/{id}/file/{hash}/download/': {
    get: op('A file uploaded into the frame (or copied with it) while the frame holds it, as an attachment.'),
  },
  '/api/v1/frame/{id}/file/{hash}/embed/': { get: op('The same file inline when its type is safe to show.') },
};

/**
 * Editing one item of a frame (the frame dialog's table and single view, spec 001 §2.6/§2.7), and
 * files uploaded into file frames. Every change needs write on the switchboard and follows its
 * schedule rule (409 switchboard_scheduled), like a content PATCH.
 */
@injectable()
export class FrameItemRoutes implements HttpRouteContribution {
  @inject(SwitchboardsServices) protected readonly services!: SwitchboardsServices;

  /**
   * Runs an item edit as the caller: the frame is checked before the body is read. The result is
   * the item `offset` places after the edited one in the new items (1: a duplicate's copy).
   */
  private async itemEdit(
    ctx: WerkbankContext,
    withBody: boolean,
    edit: (edit: ItemEdit) => Item[] | Promise<Item[]>,
    offset = 0,
  ) {
    const r = switchboardCaller(ctx, this.services);
    const frame = await frameForEdit(r, ctx.params.id);
    const index = indexParam(ctx.params.index);
    const basedOn = basedOnParam(ctx.query.content_hash);
    const body = withBody ? await this.services.bodies.json(ctx) : {};
    return inSwitchboardTransaction(ctx, this.services, async (tr) => {
      await frameForEdit(tr, ctx.params.id);
      return editFrameItems(tr, this.services, frame.id as number, basedOn, async (items, type) => {
        itemAt(items, index);
        const isFile = this.services.types.isAssignable(type, 'file');
        const next = await edit({ items: items as Item[], type, index, body, r: tr, frameId: frame.id as number, isFile });
        return { items: next as typeof items, result: next[index + offset] as Item | undefined };
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
          const out = await this.itemEdit(ctx, true, async ({ items, type, index, body, r, frameId, isFile }) => {
            const fields = Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'index'));
            const place = `content[${index}]`;
            let next = validateItem({ ...items[index], ...fields }, type, this.services, place);
            if (isFile) {
              // The upload's name rules, and the file fields only as the server recorded them (decision 0018).
              next = { ...next, value: at(`${place}.value`, () => renamedFileName(items, index, next.value)) };
              [next] = (await checkFileItems(r, this.services, { id: frameId, type }, [next], items, {
                place: () => place,
                bring: true,
                strip: false,
              })) as Item[];
            }
            return items.map((item, i) => (i === index ? next : item));
          });
          ctx.body = { item: { ...(out.result as object), index: indexParam(ctx.params.index) }, frame: out.frame };
        });
        router.delete(path, async (ctx) => {
          const out = await this.itemEdit(ctx, false, ({ items, index }) => items.filter((_, i) => i !== index));
          ctx.body = { status: 'ok', frame: out.frame };
        });
        // A copy of a file datum gets a name no item holds: `name (2).ext` (the upload's unique names).
        router.post(`${path}duplicate/`, async (ctx) => {
          const out = await this.itemEdit(
            ctx,
            false,
            ({ items, index, isFile }) => {
              const copy = structuredClone(items[index]);
              if (isFile && typeof copy.value === 'string') copy.value = copyFileName(items, copy.value);
              return [...items.slice(0, index + 1), copy, ...items.slice(index + 1)];
            },
            1,
          );
          ctx.status = 201;
          ctx.body = { item: { ...(out.result as object), index: indexParam(ctx.params.index) + 1 }, frame: out.frame };
        });
        mountFrameFiles(router, this.services);
      },
    });
  }
}
