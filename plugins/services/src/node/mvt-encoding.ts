/**
 * Mapbox Vector Tile encoding (spec version 2) of a geojson-vt tile: the bytes vt-pbf's
 * `fromGeojsonVt` gives for one layer (field order, key and value tables in order of first use,
 * values typed as it types them, the same varint and length encoding as pbf), written without its
 * per-feature wrapper objects, Point objects and string-keyed value cache. vt-pbf spent about a
 * third of a 1,600-feature tile's time in its value cache (an object with a key per distinct value,
 * `type:value` strings); Maps by type do the same job (decision 0083, bench/services-tiles).
 */

/** A feature of a geojson-vt tile (its `getTile(…).features`). */
export interface TileFeature {
  /** 1 point, 2 line, 3 polygon. */
  type: number;
  /** Points ([x, y] pairs) for type 1, else rings or lines of pairs. */
  geometry: number[][] | number[][][];
  tags: Record<string, unknown> | null;
  id?: unknown;
}

const VARINT = 0;
const FIXED64 = 1;
const BYTES = 2;

/** A growing protobuf buffer with pbf's encodings (varints, zigzag, doubles, length-delimited messages). */
class ProtoWriter {
  buf = new Uint8Array(16 * 1024);
  pos = 0;
  private view = new DataView(this.buf.buffer);

  /** Room for `n` more bytes. */
  room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let length = this.buf.length;
    while (length < this.pos + n) length *= 2;
    const buf = new Uint8Array(length);
    buf.set(this.buf);
    this.buf = buf;
    this.view = new DataView(buf.buffer);
  }

  tag(field: number, type: number): void {
    this.varint((field << 3) | type);
  }

  varint(value: number): void {
    let v = +value || 0;
    if (v > 0xfffffff || v < 0) return this.bigVarint(v);
    this.room(4);
    const b = this.buf;
    b[this.pos++] = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);
    if (v <= 0x7f) return;
    b[this.pos++] = ((v >>>= 7) & 0x7f) | (v > 0x7f ? 0x80 : 0);
    if (v <= 0x7f) return;
    b[this.pos++] = ((v >>>= 7) & 0x7f) | (v > 0x7f ? 0x80 : 0);
    if (v <= 0x7f) return;
    b[this.pos++] = (v >>> 7) & 0x7f;
  }

  /** A varint beyond 28 bits (up to 64, negative numbers as two's complement), as pbf writes it. */
  private bigVarint(v: number): void {
    let low: number;
    let high: number;
    if (v >= 0) {
      low = (v % 0x100000000) | 0;
      high = (v / 0x100000000) | 0;
    } else {
      low = ~(-v % 0x100000000);
      high = ~(-v / 0x100000000);
      if (low ^ 0xffffffff) low = (low + 1) | 0;
      else {
        low = 0;
        high = (high + 1) | 0;
      }
    }
    if (v >= 0x10000000000000000 || v < -0x10000000000000000) throw new Error("Given varint doesn't fit into 10 bytes");
    this.room(10);
    const b = this.buf;
    for (let i = 0; i < 4; i++) {
      b[this.pos++] = (low & 0x7f) | 0x80;
      low >>>= 7;
    }
    const lsb = (high & 0x07) << 4;
    high >>>= 3;
    b[this.pos++] = (low & 0x7f) | lsb | (high ? 0x80 : 0);
    for (let i = 0; i < 5 && high; i++) {
      const part = high & 0x7f;
      high >>>= 7;
      b[this.pos++] = part | (high ? 0x80 : 0);
    }
  }

  svarint(value: number): void {
    this.varint(value < 0 ? -value * 2 - 1 : value * 2);
  }

  double(value: number): void {
    this.room(8);
    if (Number.isNaN(value)) {
      // pbf's IEEE 754 writer gives NaN the mantissa 1 (DataView the quiet NaN).
      this.view.setUint32(this.pos, 1, true);
      this.view.setUint32(this.pos + 4, 0x7ff00000, true);
    } else this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  string(field: number, text: string): void {
    this.tag(field, BYTES);
    // Buffer's UTF-8 replaces lone surrogates with U+FFFD as pbf's encoder does.
    const bytes = Buffer.from(text, 'utf8');
    this.varint(bytes.length);
    this.room(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** A length-delimited field whose body `write` writes (the length is moved in front afterwards). */
  message(field: number, write: () => void): void {
    this.tag(field, BYTES);
    this.pos++;
    const start = this.pos;
    write();
    const len = this.pos - start;
    if (len >= 0x80) {
      const extra = len <= 0x3fff ? 1 : len <= 0x1fffff ? 2 : len <= 0xfffffff ? 3 : Math.floor(Math.log(len) / (Math.LN2 * 7));
      this.room(extra);
      this.buf.copyWithin(start + extra, start, this.pos);
    }
    this.pos = start - 1;
    this.varint(len);
    this.pos += len;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

const command = (cmd: number, length: number) => (length << 3) + (cmd & 0x7);
const zigzag = (n: number) => (n << 1) ^ (n >> 31);

/** One layer's tile: version 2, `extent`, the features as vt-pbf writes them. */
export function encodeVectorTile(layerName: string, features: TileFeature[], extent: number): Uint8Array {
  const pbf = new ProtoWriter();
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const values: Array<string | number | boolean> = [];
  // vt-pbf's cache key is the value's type and text: a JSON text of an object is not the same value as that string.
  const valueIndex = {
    string: new Map<string, number>(),
    number: new Map<number, number>(),
    boolean: new Map<boolean, number>(),
    json: new Map<string, number>(),
  };
  const indexOf = <T>(cache: Map<T, number>, key: T, value: string | number | boolean) => {
    let i = cache.get(key);
    if (i === undefined) {
      cache.set(key, (i = values.length));
      values.push(value);
    }
    return i;
  };
  pbf.message(3, () => {
    pbf.tag(15, VARINT);
    pbf.varint(2);
    pbf.string(1, layerName);
    pbf.tag(5, VARINT);
    pbf.varint(extent);
    for (const feature of features) {
      pbf.message(2, () => {
        if (typeof feature.id === 'number') {
          pbf.tag(1, VARINT);
          pbf.varint(feature.id);
        }
        pbf.message(2, () => {
          const tags = feature.tags;
          if (!tags) return;
          for (const key in tags) {
            const value = tags[key];
            if (value === null || value === undefined) continue;
            let k = keyIndex.get(key);
            if (k === undefined) {
              keyIndex.set(key, (k = keys.length));
              keys.push(key);
            }
            pbf.varint(k);
            let v: number;
            if (typeof value === 'string') v = indexOf(valueIndex.string, value, value);
            else if (typeof value === 'number') v = indexOf(valueIndex.number, value, value);
            else if (typeof value === 'boolean') v = indexOf(valueIndex.boolean, value, value);
            else {
              const text = JSON.stringify(value);
              v = indexOf(valueIndex.json, text, text);
            }
            pbf.varint(v);
          }
        });
        pbf.tag(3, VARINT);
        pbf.varint(feature.type);
        pbf.message(4, () => writeGeometry(pbf, feature));
      });
    }
    for (const key of keys) pbf.string(3, key);
    for (const value of values)
      pbf.message(4, () => {
        if (typeof value === 'string') pbf.string(1, value);
        else if (typeof value === 'boolean') {
          pbf.tag(7, VARINT);
          pbf.varint(value ? 1 : 0);
        } else if (value % 1 !== 0) {
          pbf.tag(3, FIXED64);
          pbf.double(value);
        } else if (value < 0) {
          pbf.tag(6, VARINT);
          pbf.svarint(value);
        } else {
          pbf.tag(5, VARINT);
          pbf.varint(value);
        }
      });
  });
  return pbf.finish();
}

/** The geometry commands: move-to, line-to with zigzag deltas, close-path for polygon rings (their closing point left out). */
function writeGeometry(pbf: ProtoWriter, feature: TileFeature): void {
  const type = feature.type;
  const rings = (type === 1 ? [feature.geometry] : feature.geometry) as number[][][];
  let x = 0;
  let y = 0;
  for (const ring of rings) {
    pbf.varint(command(1, type === 1 ? ring.length : 1));
    const lineCount = type === 3 ? ring.length - 1 : ring.length;
    for (let i = 0; i < lineCount; i++) {
      if (i === 1 && type !== 1) pbf.varint(command(2, lineCount - 1));
      const dx = ring[i][0] - x;
      const dy = ring[i][1] - y;
      pbf.varint(zigzag(dx));
      pbf.varint(zigzag(dy));
      x += dx;
      y += dy;
    }
    if (type === 3) pbf.varint(command(7, 1));
  }
}
