import { addAbortSignal, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { type DatumFields, type FrameItems, type FunctionRunContext } from '@werkbank/sdk/node';
import { GeoJsonScanner, type ScanTarget } from './geojson-scan';
import { checkGeometry, featureDatum, isGeometryType } from './geojson-validate';
import { CHUNK, failure, yieldToLoop } from './vector-params';

/** What a GeoJSON text holds: its features as feature datums and the name of its `crs` member, if any. */
export interface GeoJsonContent {
  features: FrameItems;
  crs?: string;
}

/**
 * Where features go instead of into the returned content (a streaming import): `take` gets each
 * batch of `size` features in order, with the `crs` member as far as it was read (undefined when it
 * has not come yet), and is awaited, so reading waits while the batch is stored; what it throws
 * ends the read with that error.
 */
export interface FeatureSink {
  size: number;
  take(features: FrameItems, crs: string | undefined): Promise<void>;
}

/**
 * Reads GeoJSON bytes from `source` as a stream: a FeatureCollection's features are parsed and
 * checked one by one as they arrive (GeoJsonScanner), so memory holds the features produced and one
 * chunk of input, never the whole text. A single Feature or a bare geometry gives one feature.
 * `size` (bytes) drives progress. Throws failures naming the line and column of broken JSON and the
 * index of a broken feature; the signal aborts. With a `sink` the features go there batch by batch
 * and the returned content has none.
 */
export async function readGeoJson(
  source: Readable,
  ctx: FunctionRunContext,
  size = 0,
  sink?: FeatureSink,
): Promise<GeoJsonContent> {
  // The scanner pauses at each full batch for the sink, and every CHUNK features to let other work in.
  const document = new DocumentReader(sink?.size ?? Infinity);
  const scanner = new GeoJsonScanner(document);
  const decoder = new StringDecoder('utf8');
  let read = 0;
  const readAll = async () => {
    while (scanner.read()) {
      if (sink && document.features.length >= sink.size) await sink.take(document.drain(), document.crs());
      await yieldToLoop(ctx);
    }
  };
  try {
    addAbortSignal(ctx.signal, source);
    for await (const chunk of source as AsyncIterable<Buffer | string>) {
      read += chunk.length;
      if (size > 0) ctx.progress(Math.min(0.99, read / size));
      scanner.push(typeof chunk === 'string' ? chunk : decoder.write(chunk));
      await readAll();
    }
    scanner.push(decoder.end());
    scanner.end();
    await readAll();
  } catch (e) {
    ctx.signal.throwIfAborted();
    throw e;
  } finally {
    source.destroy();
  }
  const content = document.finish();
  if (sink && content.features.length) await sink.take(content.features, content.crs);
  ctx.progress(1);
  return sink ? { features: [], crs: content.crs } : content;
}

/**
 * Builds the document from what the scanner finds: the top-level object's members whole, the items
 * of `features` as feature datums.
 */
class DocumentReader implements ScanTarget {
  features: FrameItems = [];
  /** Features read so far (drained or not): the index of the next one. */
  count = 0;

  /** Pauses the scanner when `batch` features wait to be drained, and after every CHUNK features. */
  constructor(private readonly batch: number) {}

  private readonly members: Record<string, unknown> = {};
  private sawFeatures = false;

  member(key: string, value: unknown): void {
    this.members[key] = value;
  }

  featuresStart(): void {
    this.sawFeatures = true;
  }

  feature(value: unknown): boolean {
    this.features.push(featureDatum(value, this.count++));
    return this.features.length >= this.batch || this.count % CHUNK === 0;
  }

  /** The features read since the last drain (a streaming read passes them on). */
  drain(): FrameItems {
    const out = this.features;
    this.features = [];
    return out;
  }

  /** The name of the `crs` member if it has been read. */
  crs(): string | undefined {
    return crsName(this.members.crs);
  }

  finish(): GeoJsonContent {
    const { type, crs: crsMember, ...rest } = this.members;
    const crs = crsName(crsMember);
    if (type === 'FeatureCollection') {
      if (!this.sawFeatures) throw failure('features_missing');
      return { features: this.features, crs };
    }
    if (this.sawFeatures) throw failure('not_a_collection', { type: String(type ?? '–') });
    if (type === 'Feature') return { features: [featureDatum({ type, ...rest }, 0)], crs };
    if (isGeometryType(type)) {
      const feature: DatumFields = {
        feature: { type: 'Feature', geometry: checkGeometry({ type, ...rest }, 0), properties: {} },
      };
      return { features: [feature], crs };
    }
    throw failure('unknown_type', { type: String(type ?? '–') });
  }
}

/** The name of a `crs` member (`{type: 'name', properties: {name}}`, GeoJSON 2008); undefined without one. */
function crsName(crs: unknown): string | undefined {
  if (crs === undefined || crs === null) return undefined;
  const name = (crs as { properties?: { name?: unknown } }).properties?.name;
  if (typeof name !== 'string' || !name.trim()) throw failure('crs_member_invalid');
  return name.trim();
}
