import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * QGIS 3.22 as our users run it, headless (Debian's python3-qgis and qgis-providers with the Qt
 * offscreen platform): opens each source through a QGIS data provider (`WFS`, `OAPIF`, `wms` for
 * WMS and WMTS, `vectortile`, `ogr`) and reports what a user would see — validity, feature count,
 * fields with their types, every feature's attributes and first position (vector layers), or a
 * rendered image's size, count of drawn pixels and of pixels of given colours (raster layers).
 */
const PYQGIS = String.raw`
import json, os, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from qgis.core import (QgsApplication, QgsVectorLayer, QgsRasterLayer, QgsVectorTileLayer, QgsMapSettings,
                       QgsMapRendererParallelJob, QgsRectangle, QgsCoordinateReferenceSystem, QgsPointXY, QgsRaster)
from qgis.PyQt.QtCore import QSize, QEventLoop
from qgis.PyQt.QtGui import QColor

app = QgsApplication([], False)
app.initQgis()
log = []
# What the providers report (a layer's error().summary() crashes PyQGIS 3.22 for some providers).
QgsApplication.messageLog().messageReceived.connect(lambda message, tag, level: log.append(tag + ": " + message))
out = []
for src in json.loads(sys.argv[1]):
    del log[:]
    provider, uri, kind = src["provider"], src["uri"], src.get("kind", "vector")
    if kind == "raster":
        layer = QgsRasterLayer(uri, "r", provider)
    elif kind == "vectortile":
        layer = QgsVectorTileLayer(uri, "t")
    else:
        layer = QgsVectorLayer(uri, "v", provider)
    entry = {"uri": uri, "valid": layer.isValid()}
    if layer.isValid() and kind == "vector":
        entry["fields"] = [[f.name(), f.typeName()] for f in layer.fields()]
        feats = []
        for feat in layer.getFeatures():
            g = feat.geometry()
            p = None if g is None or g.isEmpty() else [g.vertexAt(0).x(), g.vertexAt(0).y()]
            feats.append({"attributes": {k: (v if isinstance(v, (int, float, str, bool)) or v is None else str(v)) for k, v in zip(feat.fields().names(), feat.attributes())}, "position": p})
        entry["count"] = len(feats)
        entry["features"] = feats
    if layer.isValid() and kind in ("raster", "vectortile"):
        settings = QgsMapSettings()
        settings.setLayers([layer])
        settings.setOutputSize(QSize(src.get("width", 256), src.get("height", 256)))
        settings.setBackgroundColor(QColor(255, 255, 255, 0))
        crs = QgsCoordinateReferenceSystem(src.get("crs", "EPSG:3857"))
        settings.setDestinationCrs(crs)
        settings.setExtent(QgsRectangle(*src["extent"]))
        job = QgsMapRendererParallelJob(settings)
        loop = QEventLoop()
        job.finished.connect(loop.quit)
        job.start()
        loop.exec_()
        img = job.renderedImage()
        drawn = 0
        wanted = [QColor(c) for c in src.get("colours", [])]
        coloured = [0] * len(wanted)
        for y in range(img.height()):
            for x in range(img.width()):
                c = QColor(img.pixel(x, y))
                if c.alpha() > 0 and img.pixel(x, y) != 0xffffffff:
                    drawn += 1
                    for k, want in enumerate(wanted):
                        if c.alpha() > 200 and max(abs(c.red() - want.red()), abs(c.green() - want.green()), abs(c.blue() - want.blue())) <= 24:
                            coloured[k] += 1
        entry["image"] = {"width": img.width(), "height": img.height(), "drawn": drawn, "coloured": coloured}
    if layer.isValid() and kind == "raster" and src.get("identify"):
        # Identify as a user clicks a pixel: the provider's GetFeatureInfo for the map drawn above.
        x, y = src["identify"]
        formats = {"html": QgsRaster.IdentifyFormatHtml, "feature": QgsRaster.IdentifyFormatFeature, "text": QgsRaster.IdentifyFormatText}
        fmt = formats[src.get("identifyFormat", "html")]
        res = layer.dataProvider().identify(QgsPointXY(x, y), fmt, QgsRectangle(*src["extent"]), src.get("width", 256), src.get("height", 256))
        found = []
        if res.isValid():
            for value in res.results().values():
                if isinstance(value, str):
                    found.append(value)
                elif isinstance(value, list):
                    for store in value:
                        for feat in store.features():
                            attrs = {k: (v if isinstance(v, (int, float, str, bool)) or v is None else str(v)) for k, v in zip(feat.fields().names(), feat.attributes())}
                            found.append({"attributes": attrs, "wkt": feat.geometry().asWkt(7) if feat.hasGeometry() else None})
        entry["identified"] = {"valid": res.isValid(), "results": found}
    entry["error"] = "\n".join(log) if log else None
    out.append(entry)
sys.stdout.write(json.dumps(out) + "\n")
sys.stdout.flush()
# QGIS 3.22 may crash while tearing down providers at exit; the report is written, so leave at once.
os._exit(0)
`;

export interface QgisSource {
  provider: 'WFS' | 'OAPIF' | 'wms' | 'ogr' | 'vectortile';
  uri: string;
  kind?: 'vector' | 'raster' | 'vectortile';
  /** Raster and vector tile layers: the map extent to render (in `crs`, default EPSG:3857). */
  extent?: [number, number, number, number];
  crs?: string;
  width?: number;
  height?: number;
  /** Raster layers: a position in `crs` identified on the drawn map (GetFeatureInfo), in `identifyFormat` (default html). */
  identify?: [number, number];
  identifyFormat?: 'html' | 'feature' | 'text';
  /** Raster layers: colours (#rrggbb) whose opaque pixels (each channel within 24) are counted in `image.coloured`. */
  colours?: string[];
}

export interface QgisLayerReport {
  uri: string;
  valid: boolean;
  error: string | null;
  fields?: Array<[string, string]>;
  count?: number;
  features?: Array<{ attributes: Record<string, unknown>; position: [number, number] | null }>;
  image?: { width: number; height: number; drawn: number; coloured: number[] };
  /** What identify found: HTML or text per sublayer, or each feature's attributes and geometry (WKT). */
  identified?: { valid: boolean; results: Array<string | { attributes: Record<string, unknown>; wkt: string | null }> };
}

/** Opens the sources in one headless QGIS (async: the server under test answers in this process). */
export async function qgisOpen(sources: QgisSource[]): Promise<QgisLayerReport[]> {
  const { stdout } = await promisify(execFile)('/usr/bin/python3', ['-c', PYQGIS, JSON.stringify(sources)], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as QgisLayerReport[];
}
