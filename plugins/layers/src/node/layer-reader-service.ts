import { ApiError, createI18n, inject, injectable, type AuthUser, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import type { EffectiveLayerStyle, Layer, LayerAttribute, LayerReader } from '../common/layers-api';
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

  async layer(user: AuthUser, idOrSlug: number | string): Promise<Layer> {
    const req = this.request(user);
    const def = req.services.definitions().find((d) => d.kind === 'layer')!;
    let id = typeof idOrSlug === 'number' ? idOrSlug : /^\d{1,9}$/.test(idOrSlug) ? Number(idOrSlug) : undefined;
    if (id === undefined) {
      const [row] = (await req.manager.query(`SELECT id FROM layers_layer WHERE slug = $1`, [idOrSlug])) as { id: number }[];
      id = row?.id;
    }
    const row = id !== undefined ? await req.services.loadReadable(def, id, req) : undefined;
    if (!row) throw ApiError.notFound();
    return (await req.services.serialize(def, [row], req))[0] as unknown as Layer;
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
