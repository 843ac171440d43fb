import { useEffect } from 'react';
import {
  DefaultProxy,
  GeographicTilingScheme,
  Rectangle,
  Resource,
  WebMapServiceImageryProvider,
  WebMapTileServiceImageryProvider,
  WebMercatorTilingScheme,
  type CesiumWidget,
  type ImageryLayer,
  type ImageryProvider,
} from 'cesium';
import { useCesium } from 'resium';
import { MAP_IMAGERY_RELAY_PATH, type MapImagery } from '../../common/map-imagery';

/**
 * The address as a Cesium resource: addresses of other origins go through the server's relay
 * (decision 0067: the CSP's connect-src is our origin; the server fetches them with its URL guard).
 */
function resourceOf(url: string): Resource {
  const origin = globalThis.location?.origin ?? 'http://localhost';
  let remote: boolean;
  try {
    remote = new URL(url, origin).origin !== origin;
  } catch {
    remote = false;
  }
  return new Resource({ url, proxy: remote ? new DefaultProxy(`${MAP_IMAGERY_RELAY_PATH}?url=`) : undefined });
}

const geographic = (set: string) => /4326|CRS:?84|WGS ?84/i.test(set);

const extent = (imagery: MapImagery) => (imagery.bbox ? { rectangle: Rectangle.fromDegrees(...imagery.bbox) } : {});

/** Cesium's provider for one imagery entry: WMS GetMap per tile (EPSG:4326), or WMTS KVP/RESTful. */
export function imageryProvider(imagery: MapImagery): ImageryProvider {
  if (imagery.kind === 'wms') {
    const version = imagery.version ?? '1.3.0';
    return new WebMapServiceImageryProvider({
      url: resourceOf(imagery.url),
      layers: imagery.layers,
      parameters: {
        version,
        styles: imagery.styles ?? '',
        format: imagery.format ?? 'image/png',
        transparent: imagery.transparent ?? true,
      },
      ...(version === '1.3.0' ? { crs: 'EPSG:4326' } : { srs: 'EPSG:4326' }),
      ...extent(imagery),
    });
  }
  const style = imagery.style ?? 'default';
  // RESTful templates name these in several spellings; filled here, the rest is Cesium's.
  const url = imagery.url
    .replace(/\{layer\}/gi, encodeURIComponent(imagery.layer))
    .replace(/\{style\}/gi, encodeURIComponent(style))
    .replace(/\{tilematrixset\}/gi, encodeURIComponent(imagery.tileMatrixSet));
  return new WebMapTileServiceImageryProvider({
    url: resourceOf(url),
    layer: imagery.layer,
    style,
    tileMatrixSetID: imagery.tileMatrixSet,
    format: imagery.format ?? 'image/png',
    tilingScheme: geographic(imagery.tileMatrixSet) ? new GeographicTilingScheme() : new WebMercatorTilingScheme(),
    ...extent(imagery),
  });
}

/** Adds the imagery above the base map, in order (the last on top); removes it when it changes or the map closes. */
export function ImageryLayers({ imagery }: { imagery?: readonly MapImagery[] }): null {
  const widget: CesiumWidget | undefined = useCesium().cesiumWidget;
  const key = JSON.stringify(imagery ?? []);
  useEffect(() => {
    if (!widget || !imagery?.length) return;
    const layers: ImageryLayer[] = imagery.map((i) => {
      const layer = widget.imageryLayers.addImageryProvider(imageryProvider(i));
      layer.alpha = i.opacity ?? 1;
      return layer;
    });
    widget.scene.requestRender();
    return () => {
      if (widget.isDestroyed()) return;
      for (const layer of layers) widget.imageryLayers.remove(layer, true);
      widget.scene.requestRender();
    };
    // `key` stands for the imagery's content: a new array with the same entries changes nothing.
  }, [widget, key]);
  return null;
}
