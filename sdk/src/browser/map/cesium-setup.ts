import { buildModuleUrl, Ion, ImageryLayer, TileMapServiceImageryProvider, UrlTemplateImageryProvider } from 'cesium';
import { MAP_MAX_ZOOM } from '../../common/map-geometry';

/**
 * Where the build puts Cesium's static files (Workers, Assets, ThirdParty, Widgets): our own
 * origin, so the CSP (`default-src 'self'`, `worker-src 'self' blob:`) allows them. The Vite
 * plugin `cesiumAssets` in server/ copies them there.
 */
export const CESIUM_BASE_PATH = '/cesium/';

let configured = false;

/** Points Cesium at our copy of its files and switches Cesium ion off (no token, no network). */
export function configureCesium(): void {
  if (configured) return;
  configured = true;
  // Documented in Cesium's source, missing from its typings.
  (buildModuleUrl as unknown as { setBaseUrl(url: string): void }).setBaseUrl(CESIUM_BASE_PATH);
  Ion.defaultAccessToken = '';
}

/**
 * The base map (spec 000 §2, DESIGN §4): the configured z/x/y tiles up to level 19, otherwise the
 * Natural Earth imagery inside the cesium package (works offline).
 */
export function baseLayer(tileTemplate: string | undefined): ImageryLayer {
  if (tileTemplate) {
    return new ImageryLayer(new UrlTemplateImageryProvider({ url: tileTemplate, maximumLevel: MAP_MAX_ZOOM }));
  }
  return ImageryLayer.fromProviderAsync(
    TileMapServiceImageryProvider.fromUrl(buildModuleUrl('Assets/Textures/NaturalEarthII')),
    {},
  );
}
