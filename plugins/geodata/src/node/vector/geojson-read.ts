import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, type DatumFields, type FrameItems, type FunctionRunContext } from '@werkbank/sdk/node';
import Parser from 'stream-json/Parser.js';
import Assembler from 'stream-json/Assembler.js';
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

type AssemblerToken = Parameters<Assembler['consume']>[0];

interface Token {
  name: string;
  value?: unknown;
}

/** The part of stream-json's parser this module watches to say where broken JSON breaks. */
interface WatchedParser {
  _buffer: string;
  _processBuffer(callback: (error?: Error | null) => void): void;
}

/**
 * Reads GeoJSON bytes from `source` as a stream (stream-json): a FeatureCollection's features are
 * parsed and checked one by one as they arrive, so memory holds the features produced and one chunk
 * of input, never the whole text. A single Feature or a bare geometry gives one feature. `size`
 * (bytes) drives progress. Throws failures naming the line and column of broken JSON and the index
 * of a broken feature; the signal aborts. With a `sink` the features go there batch by batch and
 * the returned content has none.
 */
export async function readGeoJson(
  source: Readable,
  ctx: FunctionRunContext,
  size = 0,
  sink?: FeatureSink,
): Promise<GeoJsonContent> {
  const parser = new Parser({ streamValues: false });
  const where = new PositionTracker(parser as unknown as WatchedParser & ParserState);
  const document = new DocumentReader();
  let read = 0;
  source.on('data', (chunk: Buffer | string) => {
    read += chunk.length;
    if (size > 0) ctx.progress(Math.min(0.99, read / size));
  });
  // A feature (or sink) the consumer refuses: the pipeline is torn down, and the source's
  // AbortError may be reported in its place.
  let refused: unknown;
  let count = 0;
  // Tokens are taken by a Writable, synchronously one after the other (an async iterator would
  // cost a promise per token); it waits only for the sink and for the checks of the signal.
  const consumer = new Writable({
    objectMode: true,
    highWaterMark: 1024,
    write(token: Token, _encoding, done) {
      let wait: Promise<void> | undefined;
      try {
        document.consume(token);
        if (sink && document.features.length >= sink.size) wait = sink.take(document.drain(), document.crs());
      } catch (e) {
        refused = e;
        return done(e as Error);
      }
      wait?.catch((e: unknown) => (refused = e));
      if (document.count >= count + CHUNK) {
        count = document.count;
        wait = (wait ?? Promise.resolve()).then(() => yieldToLoop(ctx));
      }
      if (!wait) return done();
      wait.then(() => done(), done);
    },
  });
  try {
    await pipeline(source, parser, consumer, { signal: ctx.signal });
  } catch (e) {
    ctx.signal.throwIfAborted();
    if (refused) throw refused;
    if (e instanceof ApiError) throw e;
    const message = e instanceof Error ? e.message : String(e);
    if (message.startsWith('Parser')) {
      if (!where.sawText) throw failure('empty_input');
      throw failure('invalid_json', { ...where.failedAt(), reason: message.replace(/^Parser (cannot parse input: )?/, '') });
    }
    throw e;
  }
  const content = document.finish();
  if (sink && content.features.length) await sink.take(content.features, content.crs);
  ctx.progress(1);
  return sink ? { features: [], crs: content.crs } : content;
}

/** How far from the end of its input the parser may see a failure only once the input ends. */
const TAIL = 64;

/** The parser state a chunk of input starts from (to replay that chunk when it fails). */
interface ParserState {
  _expect: unknown;
  _stack: unknown[];
  _parent: unknown;
  _open_number: unknown;
  _accumulator: unknown;
}

/**
 * Follows the parser's input to give the line and column where it failed. Each time the parser
 * takes more text, the text it consumed since the last time is counted. When it fails, the text it
 * was working on is replayed in shorter and shorter beginnings (a bisection, from the state it
 * started in) by a second parser: the shortest failing beginning ends at the broken character.
 */
class PositionTracker {
  private segment = '';
  private state: ParserState | undefined;
  private line = 1;
  private column = 1;
  private first = true;
  /** Whether any text other than whitespace has come. */
  sawText = false;

  constructor(private readonly parser: WatchedParser & ParserState) {
    const process = parser._processBuffer.bind(parser);
    parser._processBuffer = (callback) => {
      if (this.first && parser._buffer) {
        this.first = false;
        // A byte order mark is no JSON; the parser would fail on it.
        if (parser._buffer.startsWith('\uFEFF')) parser._buffer = parser._buffer.slice(1);
      }
      if (!this.sawText && parser._buffer.trim()) this.sawText = true;
      this.segment = parser._buffer;
      this.state = snapshot(parser);
      let failed = false;
      process((error) => {
        failed = !!error;
        callback(error);
      });
      if (failed) return;
      this.advance(this.segment, this.segment.length - parser._buffer.length);
    };
  }

  private advance(text: string, upTo: number): void {
    for (let i = 0; i < upTo && i < text.length; i++) {
      if (text.charCodeAt(i) === 10) {
        this.line++;
        this.column = 1;
      } else this.column++;
    }
  }

  /** The line and column (from 1) of the first character the parser could not take. */
  failedAt(): { line: number; column: number } {
    const text = this.segment;
    let low = 0;
    let high = text.length;
    // The shortest beginning of text that fails: low does not fail, high does (or is all of it).
    while (high - low > 1) {
      const mid = (low + high) >> 1;
      if (this.fails(text.slice(0, mid))) high = mid;
      else low = mid;
    }
    if (high === text.length) high = this.failingInTail(text);
    let at = Math.max(0, high - 1);
    while (at < text.length && /\s/.test(text[at])) at++;
    this.advance(text, at);
    return { line: this.line, column: this.column };
  }

  /**
   * When only the end of the input showed the failure (a word such as `nul` the parser waits to
   * see completed), the first of the last characters after which the text fails once whitespace
   * follows; all of it when none does.
   */
  private failingInTail(text: string): number {
    for (let k = Math.max(1, text.length - TAIL); k < text.length; k++) {
      if (this.fails(text.slice(0, k) + ' '.repeat(TAIL))) return k;
    }
    return text.length;
  }

  private fails(text: string): boolean {
    if (!this.state) return true;
    const probe = new Parser({ streamValues: false }) as unknown as WatchedParser & ParserState;
    Object.assign(probe, snapshot(this.state));
    probe._buffer = text;
    let failed = false;
    probe._processBuffer((error) => (failed = !!error));
    return failed;
  }
}

function snapshot(s: ParserState): ParserState {
  return {
    _expect: s._expect,
    _stack: [...s._stack],
    _parent: s._parent,
    _open_number: s._open_number,
    _accumulator: s._accumulator,
  };
}

/**
 * Builds the document from parser tokens: the top-level object's members are assembled whole,
 * except `features`, whose items become feature datums one at a time.
 */
class DocumentReader {
  features: FrameItems = [];
  /** Features read so far (drained or not): the index of the next one. */
  count = 0;
  private readonly members: Record<string, unknown> = {};
  private started = false;
  private inFeatures = false;
  private sawFeatures = false;
  private key = '';
  private value: Assembler | undefined;

  consume(token: Token): void {
    if (this.value) {
      this.value.consume(token as AssemblerToken);
      if (this.value.done) this.take(this.value.current);
      return;
    }
    if (!this.started) {
      if (token.name !== 'startObject') throw failure('not_geojson');
      this.started = true;
      return;
    }
    if (this.inFeatures) {
      if (token.name === 'endArray') this.inFeatures = false;
      else this.begin(token);
      return;
    }
    if (token.name === 'keyValue') this.key = String(token.value);
    else if (token.name === 'endObject') return;
    else if (this.key === 'features' && token.name === 'startArray') {
      this.inFeatures = true;
      this.sawFeatures = true;
    } else this.begin(token);
  }

  private begin(token: Token): void {
    const value = new Assembler();
    value.consume(token as AssemblerToken);
    if (value.done) this.take(value.current);
    else this.value = value;
  }

  private take(value: unknown): void {
    this.value = undefined;
    if (this.inFeatures) this.features.push(featureDatum(value, this.count++));
    else this.members[this.key] = value;
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
    if (!this.started) throw failure('empty_input');
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
