import {
  ApiError,
  inject,
  injectable,
  ServerConfig,
  type RegistrySink,
  type ServiceEndpointContribution,
  type ServiceEndpointDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { LayerReader, layerServiceName, type LayerAttribute } from '@werkbank/plugin-layers/api';
import {
  tileAddress,
  WEB_MERCATOR_CRS,
  WEB_MERCATOR_QUAD,
  WEB_MERCATOR_QUAD_URI,
  webMercatorQuad,
  MAX_TILE_MATRIX,
} from '../common/web-mercator-quad';
import { conditional, queryParam } from './geojson-endpoint';
import { PublishedLayers, publisher, refuseMetalayer, type Publication } from './published-layers';
import { VectorTileService } from './vector-tile-service';
import { PublicationMemo } from './publication-memo';

export const MVT_TYPE = 'application/vnd.mapbox-vector-tile';
/** The link relation of a layer's vector tilesets (the OGC API landing page links them). */
export const REL_TILESETS_VECTOR = 'http://www.opengis.net/def/rel/ogc/1.0/tilesets-vector';
const REL_TILING_SCHEME = 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme';
const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
const TEMPLATE = '{tileMatrix}/{tileRow}/{tileCol}';

/** JSON types of layer attributes as JSON Schema types of the tiles' properties (objects and arrays are JSON text). */
const SCHEMA_TYPE: Record<string, string> = {
  string: 'string',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  object: 'string',
  array: 'string',
};

/**
 * OGC API – Tiles (issue 17) with Mapbox Vector Tiles in WebMercatorQuad, beside the OGC API –
 * Features addresses of a layer under `/services/ogc/{name}/`:
 * `tiles` (the tilesets), `tiles/WebMercatorQuad` (the tileset's metadata with the tile address
 * template and the attributes), `tiles/WebMercatorQuad/{z}/{y}/{x}` (a tile: 200 with the MVT, 204
 * when no feature reaches it) and `/services/ogc/tileMatrixSets/WebMercatorQuad` (the standard
 * definition). Tiles are cached per publication (VectorTileService); `moment=` previews a draft
 * for authors without touching the cache. Errors are OGC API exceptions `{code, description}` (with
 * Werkbank's `status` and `reason`), in the caller's language.
 */
@injectable()
export class OgcTilesEndpoint implements ServiceEndpointContribution {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(VectorTileService) protected readonly tiles!: VectorTileService;
  @inject(PublicationMemo) protected readonly memo!: PublicationMemo;
  @inject(LayerReader) protected readonly layers!: LayerReader;
  @inject(ServerConfig) protected readonly config!: Readonly<ServerConfig>;

  registerServiceEndpoints(registry: RegistrySink<ServiceEndpointDescriptor>): void {
    registry.add({
      id: 'services.ogc-tiles',
      prefix: '/services/ogc/',
      mount: (router) => {
        router.get(
          '/services/ogc/tileMatrixSets',
          ogcApi((ctx) => this.matrixSets(ctx)),
        );
        router.get(
          '/services/ogc/tileMatrixSets/:tms',
          ogcApi((ctx) => this.matrixSet(ctx)),
        );
        router.get(
          '/services/ogc/:name/tiles',
          ogcApi((ctx) => this.tilesets(ctx)),
        );
        router.get(
          '/services/ogc/:name/tiles/:tms',
          ogcApi((ctx) => this.tileset(ctx)),
        );
        router.get(
          '/services/ogc/:name/tiles/:tms/:z/:y/:x',
          ogcApi((ctx) => this.tile(ctx)),
        );
      },
    });
  }

  private matrixSets(ctx: WerkbankContext): void {
    const href = `${this.root(ctx)}tileMatrixSets/${WEB_MERCATOR_QUAD}`;
    json(ctx, {
      tileMatrixSets: [
        {
          id: WEB_MERCATOR_QUAD,
          title: 'Google Maps Compatible for the World',
          uri: WEB_MERCATOR_QUAD_URI,
          links: [link('self', href)],
        },
      ],
    });
  }

  private matrixSet(ctx: WerkbankContext): void {
    matrixSetOf(ctx);
    json(ctx, webMercatorQuad());
  }

  private async tilesets(ctx: WerkbankContext): Promise<void> {
    const publication = await this.open(ctx);
    const base = `${this.root(ctx)}${encodeURIComponent(ctx.params.name)}/tiles`;
    json(ctx, {
      links: [link('self', `${base}${this.keep(ctx)}`)],
      tilesets: [{ ...this.tilesetSummary(publication), links: this.tilesetLinks(ctx, base, 'self') }],
    });
  }

  private async tileset(ctx: WerkbankContext): Promise<void> {
    matrixSetOf(ctx);
    const publication = await this.open(ctx);
    if (conditional(ctx, publication, 'tileset')) return;
    const base = `${this.root(ctx)}${encodeURIComponent(ctx.params.name)}/tiles`;
    const attributes = await this.layers.attributes(publisher(), publication.layer.id);
    json(ctx, {
      ...this.tilesetSummary(publication),
      links: this.tilesetLinks(ctx, base, 'self'),
      layers: [
        {
          id: layerServiceName(publication.layer),
          title: publication.layer.name,
          dataType: 'vector',
          minTileMatrix: '0',
          maxTileMatrix: String(MAX_TILE_MATRIX),
          propertiesSchema: { type: 'object', properties: propertiesSchema(attributes) },
        },
      ],
    });
  }

  private async tile(ctx: WerkbankContext): Promise<void> {
    matrixSetOf(ctx);
    const at = tileAddress(ctx.params.z, ctx.params.y, ctx.params.x);
    if (at === 'malformed') throw ApiError.badRequest('invalid_parameter', 'services:tiles.errors.tile_malformed');
    if (at === 'outside') throw new ApiError(404, 'not_found', 'services:tiles.errors.tile_outside', { max: MAX_TILE_MATRIX });
    const preview = !!queryParam(ctx, 'moment');
    // Tiles come in dozens per map view: the caller's publication is kept briefly (PublicationMemo).
    const publication = preview ? await this.open(ctx) : await this.memo.open(ctx, ctx.params.name);
    refuseMetalayer(publication);
    if (conditional(ctx, publication, `${at.z}/${at.x}/${at.y}`)) return;
    const tile = await this.tiles.tile(publication, at, !preview);
    ctx.set('X-Tile-Cache', tile.cached ? 'hit' : 'miss');
    if (!tile.bytes) {
      ctx.status = 204;
      return;
    }
    ctx.set('Content-Type', MVT_TYPE);
    ctx.body = tile.bytes;
  }

  private open(ctx: WerkbankContext): Promise<Publication> {
    return this.published.open(ctx, ctx.params.name, queryParam(ctx, 'moment'));
  }

  /** The address of `/services/ogc/` as the caller reached it (PUBLIC_URL when configured). */
  private root(ctx: WerkbankContext): string {
    return `${(this.config.publicUrl || `${ctx.protocol}://${ctx.host}`).replace(/\/$/, '')}/services/ogc/`;
  }

  /** The query parameters every link keeps: the API key (desktop clients follow links without headers) and a preview moment. */
  private keep(ctx: WerkbankContext): string {
    const params = new URLSearchParams();
    for (const [name, raw] of Object.entries(ctx.query)) {
      const value = Array.isArray(raw) ? raw[0] : raw;
      if (value !== undefined && (name.toLowerCase() === 'apikey' || name === 'moment')) params.set(name, value);
    }
    const text = params.toString();
    return text ? `?${text}` : '';
  }

  private tilesetSummary(publication: Publication): Record<string, unknown> {
    const bbox = publication.layer.bbox;
    return {
      title: publication.layer.name,
      dataType: 'vector',
      crs: WEB_MERCATOR_CRS,
      tileMatrixSetURI: WEB_MERCATOR_QUAD_URI,
      ...(bbox ? { boundingBox: { lowerLeft: [bbox[0], bbox[1]], upperRight: [bbox[2], bbox[3]], crs: CRS84 } } : {}),
    };
  }

  private tilesetLinks(ctx: WerkbankContext, base: string, rel: string): Record<string, unknown>[] {
    const keep = this.keep(ctx);
    const tileset = `${base}/${WEB_MERCATOR_QUAD}`;
    return [
      link(rel, `${tileset}${keep}`),
      link(REL_TILING_SCHEME, `${this.root(ctx)}tileMatrixSets/${WEB_MERCATOR_QUAD}`),
      {
        rel: 'item',
        type: MVT_TYPE,
        title: String(ctx.state.t('tiles.tile_title', { ns: 'services' })),
        templated: true,
        href: `${tileset}/${TEMPLATE}${keep}`,
      },
    ];
  }
}

function link(rel: string, href: string): Record<string, unknown> {
  return { rel, type: 'application/json', href };
}

function json(ctx: WerkbankContext, body: unknown): void {
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = JSON.stringify(body);
}

/** Only WebMercatorQuad is offered: any other tile matrix set is 404. */
function matrixSetOf(ctx: WerkbankContext): void {
  if (ctx.params.tms !== WEB_MERCATOR_QUAD)
    throw new ApiError(404, 'not_found', 'services:tiles.errors.unknown_matrix_set', { known: WEB_MERCATOR_QUAD });
}

function propertiesSchema(attributes: LayerAttribute[]): Record<string, unknown> {
  return Object.fromEntries(attributes.map((a) => [a.name, SCHEMA_TYPE[a.type] ? { type: SCHEMA_TYPE[a.type] } : {}]));
}

/**
 * Answers errors as OGC API exceptions (OGC API – Common, exception.yaml): `{code, description}`
 * with the error's status, plus Werkbank's `status` and `reason`, the description in the caller's
 * language. Errors that are not ApiErrors go on to the server's handler.
 */
function ogcApi(handler: (ctx: WerkbankContext) => unknown): (ctx: WerkbankContext) => Promise<void> {
  return async (ctx) => {
    try {
      await handler(ctx);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const [ns, key] = e.key.includes(':') ? e.key.split(':', 2) : ['server', e.key];
      const description = String(ctx.state.t(key, { ns, ...e.params }));
      ctx.status = e.status;
      ctx.set('Content-Type', 'application/json; charset=utf-8');
      ctx.body = JSON.stringify({
        code: e.code,
        description,
        status: 'error',
        reason: description,
        ...(e.field ? { field: e.field } : {}),
      });
    }
  };
}
