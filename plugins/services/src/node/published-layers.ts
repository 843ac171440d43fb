import { createHash } from 'node:crypto';
import { ApiError, inject, injectable, parseRef, type AuthUser, type WerkbankContext } from '@werkbank/sdk/node';
import type { DepotDatumText, DepotWindow, DepotWindowReader } from '@werkbank/plugin-magazine/api';
import { servedFeature, type ServedFeature } from './served-feature';
import { isValidSlug, LAYER_PATH, type EffectiveLayerStyle, type Layer } from '@werkbank/plugin-layers/api';
import { FINALVIEW_PARAM } from '@werkbank/plugin-views/api';
import { ServicesServices } from './services-services';

export type { ServedFeature } from './served-feature';

/** The depot of one pile and the moment a request serves from it. */
export interface PublishedSource {
  depot_id: number;
  moment_id: number;
  /** The pile's name (or the depot's). */
  name: string;
}

/** A map pile (WMS or WMTS datums) of an external_map or mapproxy layer and the moment a request serves from it. */
export interface PublishedMapSource extends PublishedSource {
  kind: 'wms' | 'wmts';
}

/**
 * A layer as one service request serves it (decision 0083): the moments are fixed when the request
 * starts, so everything the request reads comes from one state of each depot, however many moments
 * are approved meanwhile.
 */
export interface Publication {
  layer: Layer;
  style: EffectiveLayerStyle;
  /** True when the caller may change the layer (and so may preview a draft with `moment=`). */
  writable: boolean;
  /** The feature piles that have something to serve, in the layer's order. */
  sources: PublishedSource[];
  /** The map piles (WMS/WMTS datums) that have something to serve, in the layer's order (the first draws on top). */
  maps: PublishedMapSource[];
  /**
   * A metalayer's members (decision 0084): the layers its piles' layer datums name that the caller
   * may read, each resolved with its own piles pinned in the same request, in the order of the stack
   * (piles in the layer's order, datums in index order; the first is drawn on top). Undefined for
   * every other type.
   */
  members?: Publication[];
  /**
   * The frozen view (its slug) whose pinned moments are served instead of the latest approved ones
   * (`finalview=`, decision 0086); such a publication is not kept in the tile cache.
   */
  frozenView?: string;
  /**
   * Names the served state (layer revision and every moment): the key of caches and the ETag. A new
   * approved moment or a change of the layer gives a new key, so caches need no invalidation.
   */
  key: string;
}

/** The types whose depots a layer service reads features from. */
const FEATURE_TYPE = /\/type\/feature\/$|^feature$/;
/** The type of a metalayer's piles (datums naming layers). */
const LAYER_TYPE = /\/type\/layer\/$|^layer$/;
/** A metalayer inside metalayers deeper than this is not followed (cycles are refused when written, decision 0063). */
export const MAX_MEMBER_DEPTH = 8;
/** At most this many layers are resolved for one metalayer request (all levels). */
export const MAX_MEMBERS = 200;
/** The types of map piles (external_map, mapproxy), with the kind of their datums. */
const MAP_TYPE = /(?:\/type\/|^)(wms|wmts)(?:\/$|$)/;

/** The realm an API key must include to call the services (the layers' realm). */
export const SERVICE_REALM = 'layer';

/**
 * Resolves who calls and what they see: a public layer for everyone, an internal one for callers
 * who may read it (session or API key, also as the `apikey` query parameter on service addresses),
 * at the latest approved moment of each pile's depot; `moment=` previews one pile's draft for
 * callers who may change the layer. Anything else is 404, so an unreadable layer looks like one that
 * does not exist.
 */
@injectable()
export class PublishedLayers {
  @inject(ServicesServices) protected readonly services!: ServicesServices;
  /** The window readers of a publication's piles by depot (they live as long as the publication object). */
  protected readonly readers = new WeakMap<Publication, Map<number, Promise<DepotWindowReader>>>();

  /** The signed-in caller (null: anonymous), after the API key's realms are checked. */
  caller(ctx: WerkbankContext): AuthUser | undefined {
    const realms = ctx.state.apiKeyRealms;
    if (realms && !realms.includes('*') && !realms.includes(SERVICE_REALM))
      throw new ApiError(403, 'realm_denied', 'errors.realm_denied', { realm: SERVICE_REALM });
    return ctx.state.user;
  }

  /**
   * The publication of layer `name` (short name or id) for this request; `moment` as given in the
   * query. With `finalview=` (a frozen view's slug, any letter case of the parameter) the layer's piles
   * are served at the moments that frozen view pinned, when the caller may read it and it holds the
   * layer (404 otherwise, like a layer that does not exist); it cannot be combined with `moment=`.
   */
  async open(ctx: WerkbankContext, name: string, moment?: string): Promise<Publication> {
    const user = this.caller(ctx);
    const frozen = frozenViewOf(ctx);
    if (frozen !== undefined && moment)
      throw ApiError.badRequest('invalid_parameter', 'services:errors.finalview_moment', {}, FINALVIEW_PARAM);
    return this.resolve(user, name, moment, { seen: new Set(), count: { n: 0 }, depth: 0 }, frozen);
  }

  /**
   * A layer's publication: its piles pinned, and for a metalayer its members' (the walk `walk`
   * carries the layers above, so a stack that names a layer above it is not followed again).
   */
  private async resolve(
    user: AuthUser | undefined,
    name: string | number,
    moment: string | undefined,
    walk: { seen: Set<number>; count: { n: number }; depth: number },
    frozen?: string,
  ): Promise<Publication> {
    const { layer, style, writable } = await this.services.layers.published(user, name);
    const pins = frozen === undefined ? undefined : await this.services.frozenViews?.pins(user, frozen, layer.id);
    if (frozen !== undefined && !pins) throw ApiError.notFound();
    const preview = moment === undefined || moment === '' ? undefined : previewMoment(moment, writable);
    const sources: PublishedSource[] = [];
    let previewed = preview === undefined;
    const maps: PublishedMapSource[] = [];
    const stacks: PublishedSource[] = [];
    const meta = layer.type === 'metalayer';
    for (const pile of layer.layerpiles) {
      const kind = MAP_TYPE.exec(pile.content_type)?.[1] as PublishedMapSource['kind'] | undefined;
      const stack = meta && LAYER_TYPE.test(pile.content_type);
      if (!kind && !stack && !FEATURE_TYPE.test(pile.content_type)) continue;
      const pinned = pins?.moments[pile.depot_id];
      const source = pins ? { moment_id: pinned ?? undefined } : await this.momentOf(user, pile.depot_id, preview);
      if (source.previewed) previewed = true;
      if (source.moment_id === undefined) continue;
      const served = { depot_id: pile.depot_id, moment_id: source.moment_id, name: pile.name || String(pile.depot_id) };
      if (stack) stacks.push(served);
      else if (kind) maps.push({ ...served, kind });
      else sources.push(served);
    }
    if (!previewed) throw ApiError.badRequest('unknown_moment', 'services:errors.unknown_moment', { moment: preview }, 'moment');
    const members = meta ? await this.membersOf(user, layer.id, stacks, walk) : undefined;
    const key = [
      layer.id,
      layer.revision,
      style.moment_id ?? '-',
      ...sources.map((s) => `${s.depot_id}@${s.moment_id}`),
      // Map piles only in layers that have them, so the keys of feature layers stay as they were.
      ...(maps.length ? ['maps', ...maps.map((s) => `${s.depot_id}@${s.moment_id}`)] : []),
      // A metalayer: its stacks' moments and a digest of its members' keys (each names its own moments).
      ...(members
        ? [
            'stack',
            ...stacks.map((s) => `${s.depot_id}@${s.moment_id}`),
            createHash('sha256')
              .update(members.map((m) => m.key).join('|'))
              .digest('base64url')
              .slice(0, 22),
          ]
        : []),
    ].join('.');
    return {
      layer,
      style,
      writable,
      sources,
      maps,
      ...(members ? { members } : {}),
      ...(frozen !== undefined ? { frozenView: frozen } : {}),
      key,
    };
  }

  /**
   * The members of metalayer `layerId`: the layers its stacks' datums name, at the stacks' pinned
   * moments, each resolved at once (its piles pinned in this request) when the caller may read it;
   * a layer the caller may not read, one that is gone, one named twice or one above it in the stack
   * is left out.
   */
  private async membersOf(
    user: AuthUser | undefined,
    layerId: number,
    stacks: PublishedSource[],
    walk: { seen: Set<number>; count: { n: number }; depth: number },
  ): Promise<Publication[]> {
    const members: Publication[] = [];
    if (walk.depth >= MAX_MEMBER_DEPTH) return members;
    const seen = new Set([...walk.seen, layerId]);
    const taken = new Set<number>();
    for (const stack of stacks) {
      const { batches } = await this.services.depots.readStream(publisher(), stack.depot_id, { momentId: stack.moment_id });
      for await (const batch of batches)
        for (const datum of batch) {
          const id = parseRef(datum.fields.value, LAYER_PATH);
          if (id === undefined || seen.has(id) || taken.has(id) || walk.count.n >= MAX_MEMBERS) continue;
          taken.add(id);
          walk.count.n++;
          try {
            members.push(await this.resolve(user, id, undefined, { seen, count: walk.count, depth: walk.depth + 1 }));
          } catch (e) {
            // A member the caller may not read (or that is gone) is left out, as if it were not stacked.
            if (!(e instanceof ApiError) || e.status !== 404) throw e;
          }
        }
    }
    return members;
  }

  /**
   * The moment served from a depot: the preview moment when it is one of this depot's (read with the
   * caller's own permissions), else the latest approved one (read as the publisher); none when the
   * depot has no approved moment yet.
   */
  private async momentOf(
    user: AuthUser | undefined,
    depotId: number,
    preview: number | undefined,
  ): Promise<{ moment_id?: number; previewed?: boolean }> {
    if (preview !== undefined && user) {
      try {
        const { moment_id } = await this.services.depots.readStream(user, depotId, { momentId: preview });
        return { moment_id, previewed: true };
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 404) throw e;
      }
    }
    try {
      return { moment_id: (await this.services.depots.readStream(publisher(), depotId)).moment_id };
    } catch (e) {
      if (e instanceof ApiError && (e.code === 'no_approved_moment' || e.status === 404)) return {};
      throw e;
    }
  }

  /**
   * The publication's features in batches, pile by pile in the layer's order, each in the datum's
   * index order, in EPSG:4326 (depots hold nothing else), optionally only those whose extent meets
   * `window`.
   */
  async *features(publication: Publication, options: { window?: DepotWindow } = {}): AsyncGenerator<ServedFeature[]> {
    for (const source of publication.sources) {
      const batches = options.window
        ? (await this.windowReader(publication, source)).read(options.window)
        : (await this.services.depots.readStream(publisher(), source.depot_id, { momentId: source.moment_id })).batches;
      for await (const batch of batches) {
        const out: ServedFeature[] = [];
        for (const datum of batch) {
          const feature = servedFeature(datum.index, datum.fields);
          if (feature) out.push(feature);
        }
        if (out.length) yield out;
      }
    }
  }

  /**
   * The datums of the publication's piles whose extent meets `window`, as `features` reads them but
   * with their fields as JSON text, unparsed: for a worker thread that makes features of them
   * (`servedFeature`) where it parses them.
   */
  async *featureTexts(publication: Publication, window: DepotWindow): AsyncGenerator<DepotDatumText[]> {
    for (const source of publication.sources) yield* (await this.windowReader(publication, source)).readText(window);
  }

  /**
   * The window reader of a pile's served moment, made once per publication: the Magazine checks the
   * depot and the moment when it is made, not on every window (a map view's tiles share one
   * publication through the tile memo, so its dozens of windows cost one check). A reader that
   * failed is forgotten, so the next window asks again.
   */
  protected windowReader(publication: Publication, source: PublishedSource): Promise<DepotWindowReader> {
    let readers = this.readers.get(publication);
    if (!readers) this.readers.set(publication, (readers = new Map()));
    let reader = readers.get(source.depot_id);
    if (!reader) {
      reader = this.services.depots.windowReader(publisher(), source.depot_id, { momentId: source.moment_id });
      readers.set(source.depot_id, reader);
      reader.catch(() => readers.delete(source.depot_id));
    }
    return reader;
  }

  /**
   * How many features `features` gives with the same window, by one counting query per pile (no
   * feature is read): what a service that must name its answer's size first (WFS) asks.
   */
  async count(publication: Publication, options: { window?: DepotWindow } = {}): Promise<number> {
    let total = 0;
    for (const source of publication.sources) {
      total += (
        await this.services.depots.count(publisher(), source.depot_id, { momentId: source.moment_id, window: options.window })
      ).count;
    }
    return total;
  }

  /** The datums of the publication's map piles, pile by pile in the layer's order, each in the datum's index order. */
  async *mapDatums(publication: Publication): AsyncGenerator<{ source: PublishedMapSource; fields: Record<string, unknown> }> {
    for (const source of publication.maps) {
      const { batches } = await this.services.depots.readStream(publisher(), source.depot_id, { momentId: source.moment_id });
      for await (const batch of batches) for (const datum of batch) yield { source, fields: datum.fields };
    }
  }
}

/**
 * Feature services (WFS, GeoJSON, vector tiles) do not offer a metalayer (decision 0084): its
 * members are served at their own addresses. A 404 that says so, in the caller's language.
 */
export function refuseMetalayer(publication: Publication): void {
  if (publication.members)
    throw new ApiError(404, 'metalayer_features', 'services:errors.metalayer_features', {
      name: publication.layer.slug || String(publication.layer.id),
    });
}

/** A `moment=` preview: a moment id, for callers who may change the layer only. */
/**
 * The frozen view a service request names (`finalview=`, any letter case of the parameter, as OGC
 * KVP parameters are), or undefined; 400 when it is not a valid slug.
 */
export function frozenViewOf(ctx: WerkbankContext): string | undefined {
  for (const [key, value] of Object.entries(ctx.query)) {
    if (key.toLowerCase() !== FINALVIEW_PARAM) continue;
    const slug = Array.isArray(value) ? value[0] : value;
    if (typeof slug !== 'string' || !isValidSlug(slug))
      throw ApiError.badRequest('invalid_parameter', 'services:errors.finalview_invalid', {}, FINALVIEW_PARAM);
    return slug;
  }
  return undefined;
}

function previewMoment(text: string, writable: boolean): number {
  if (!/^\d{1,12}$/.test(text)) throw ApiError.badRequest('invalid_parameter', 'services:errors.moment_invalid', {}, 'moment');
  if (!writable) throw ApiError.forbidden('preview_denied', 'services:errors.preview_denied');
  return Number(text);
}

/** The services read piles as the layer's publisher: a public layer publishes its depots' approved moments. */
export function publisher(): AuthUser {
  return {
    id: 0,
    username: '',
    isSuperuser: true,
    isStaff: false,
    groupIds: [],
    permissions: new Set(),
    language: null,
    displayName: '',
  };
}
