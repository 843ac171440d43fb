import {
  ApiError,
  createI18n,
  inject,
  injectable,
  type AuthUser,
  type ResourceRequest,
  type Row,
  type SelectQueryBuilder,
} from '@werkbank/sdk/node';
import type { EffectiveLayerStyle, Layer, LayerAttribute, LayerReader, PublishedLayer } from '../common/layers-api';
import { effectiveStyleOf } from './layer-style-source';
import { attributeUnion } from '../common/layer-attributes';
import { collect, layerItems } from './layer-data';
import { LayersServices } from './layers-services';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

/** LayerReader for other plugins: the resource layer's reads, as the given user. */
@injectable()
export class LayerReaderService implements LayerReader {
  @inject(LayersServices) protected readonly services!: LayersServices;
  private translator?: ReturnType<typeof createI18n>;

  protected request(user: AuthUser): ResourceRequest {
    this.translator ??= createI18n([{ id: 'layers.reader', namespace: 'layers', de, en }]);
    const lang = user.language === 'de' ? 'de' : 'en';
    return {
      user,
      t: this.translator.getFixedT(lang, 'layers'),
      lang,
      manager: this.services.dataSource.manager,
      services: this.services.resources,
    };
  }

  /** The layer's id for an id or a short name; undefined when there is none. */
  private async idOf(req: ResourceRequest, idOrSlug: number | string): Promise<number | undefined> {
    if (typeof idOrSlug === 'number') return idOrSlug;
    if (/^\d{1,9}$/.test(idOrSlug)) return Number(idOrSlug);
    const [row] = (await req.manager.query(`SELECT id FROM layers_layer WHERE slug = $1`, [idOrSlug])) as { id: number }[];
    return row?.id;
  }

  async layer(user: AuthUser, idOrSlug: number | string): Promise<Layer> {
    const req = this.request(user);
    const def = req.services.definitions().find((d) => d.kind === 'layer')!;
    const id = await this.idOf(req, idOrSlug);
    const row = id !== undefined ? await req.services.loadReadable(def, id, req) : undefined;
    if (!row) throw ApiError.notFound();
    return (await req.services.serialize(def, [row], req))[0] as unknown as Layer;
  }

  async published(
    caller: AuthUser | undefined,
    idOrSlug: number | string,
    options: { extent?: boolean } = {},
  ): Promise<PublishedLayer> {
    // The publisher's view: every pile and the linked style, whoever calls (decision 0083).
    const system = this.request(publisher(caller));
    const def = system.services.definitions().find((d) => d.kind === 'layer')!;
    const id = await this.idOf(system, idOrSlug);
    const row = id !== undefined ? await system.services.loadReadable(def, id, system) : undefined;
    if (!row) throw ApiError.notFound();
    let writable = false;
    if (caller) {
      const req = this.request(caller);
      const own = await req.services.loadReadable(def, row.id as number, req);
      if (!own) throw ApiError.notFound();
      writable = await req.services.mayWrite(def, own, req);
    } else if (!row.public) throw ApiError.notFound();
    const [layer] = (await system.services.serialize(def, [row], system)) as unknown as Layer[];
    const [styleRow] = (await system.manager.query(`SELECT id, style, style_datum_id FROM layers_layer WHERE id = $1`, [
      layer.id,
    ])) as Row[];
    const style = await effectiveStyleOf(this.services.depots, system, styleRow);
    if (!options.extent) return { layer, writable, style };
    return { layer, writable, style, extent: layer.bbox ?? (await this.pilesExtent(system.user, layer)) };
  }

  /** The union of the extents of the moments the layer's piles publish (each depot's latest approved one). */
  private async pilesExtent(user: AuthUser, layer: Layer): Promise<[number, number, number, number] | null> {
    let box: [number, number, number, number] | null = null;
    for (const pile of layer.layerpiles) {
      let e: [number, number, number, number] | null;
      try {
        e = await (await this.services.depots.windowReader(user, pile.depot_id)).extent();
      } catch (err) {
        // A pile without an approved moment publishes nothing.
        if (err instanceof ApiError && (err.status === 404 || err.code === 'no_approved_moment')) continue;
        throw err;
      }
      if (e) box = box ? [Math.min(box[0], e[0]), Math.min(box[1], e[1]), Math.max(box[2], e[2]), Math.max(box[3], e[3])] : e;
    }
    return box;
  }

  async publishedLayers(caller: AuthUser | undefined): Promise<Layer[]> {
    const system = this.request(publisher(caller));
    const def = system.services.definitions().find((d) => d.kind === 'layer')!;
    let ids: number[];
    if (caller) {
      const req = this.request(caller);
      const qb = req.manager
        .createQueryBuilder()
        .from(def.table, 'l')
        .select('l.id', 'id')
        .orderBy('l.id') as unknown as SelectQueryBuilder<Row>;
      req.services.applyReadable(qb, def, req, 'l');
      ids = (await qb.getRawMany<{ id: number }>()).map((r) => Number(r.id));
    } else {
      const rows = (await system.manager.query(`SELECT id FROM layers_layer WHERE public = true ORDER BY id`)) as {
        id: number;
      }[];
      ids = rows.map((r) => Number(r.id));
    }
    const rows: Row[] = [];
    for (const id of ids) {
      const row = await system.services.loadReadable(def, id, system);
      if (row) rows.push(row);
    }
    return (await system.services.serialize(def, rows, system)) as unknown as Layer[];
  }

  async effectiveStyle(user: AuthUser, idOrSlug: number | string): Promise<EffectiveLayerStyle> {
    const layer = await this.layer(user, idOrSlug);
    const req = this.request(user);
    const [row] = (await req.manager.query(`SELECT id, style, style_datum_id FROM layers_layer WHERE id = $1`, [
      layer.id,
    ])) as Row[];
    if (!row) throw ApiError.notFound();
    return effectiveStyleOf(this.services.depots, req, row);
  }

  async attributes(user: AuthUser, layerId: number): Promise<LayerAttribute[]> {
    const layer = await this.layer(user, layerId);
    return attributeUnion(await collect(layerItems(this.request(user), this.services.depots, layer.id)));
  }
}

/** The reader the services read a layer's piles and style as: a superuser in the caller's language. */
function publisher(caller: AuthUser | undefined): AuthUser {
  return {
    id: caller?.id ?? 0,
    username: caller?.username ?? '',
    isSuperuser: true,
    isStaff: false,
    groupIds: [],
    permissions: new Set(),
    language: caller?.language ?? null,
    displayName: caller?.displayName ?? '',
  };
}
