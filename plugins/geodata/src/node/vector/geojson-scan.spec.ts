import assert from 'node:assert/strict';
import type { ApiError } from '@werkbank/sdk/node';
import { GeoJsonScanner, jsonBreak } from './geojson-scan';
import { seededRandom as random } from '@werkbank/testing/random';

/** Texts that trip a scanner that counts brackets and quotes carelessly. */
const NASTY = ['a"b', 'back\\slash', '\\', '\\"', '{[', ']}', 'zeile\nzwei', 'Straße', '😀 Ünïcödé', '', ',:', '\u2028'];

function anyValue(r: () => number, depth: number): unknown {
  const pick = Math.floor(r() * (depth > 2 ? 5 : 7));
  switch (pick) {
    case 0:
      return NASTY[Math.floor(r() * NASTY.length)] + String(Math.floor(r() * 100));
    case 1:
      return (r() - 0.5) * 10 ** Math.floor(r() * 30 - 10);
    case 2:
      return [true, false, null][Math.floor(r() * 3)];
    case 3:
      return Math.floor(r() * 1000) - 500;
    case 4:
      return NASTY[Math.floor(r() * NASTY.length)];
    case 5:
      return Array.from({ length: Math.floor(r() * 4) }, () => anyValue(r, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(r() * 4) }, (_, i) => [
          `${NASTY[Math.floor(r() * NASTY.length)]}${i}`,
          anyValue(r, depth + 1),
        ]),
      );
  }
}

function collection(r: () => number): unknown {
  const features = Array.from({ length: Math.floor(r() * 6) }, (_, i) => ({
    type: 'Feature',
    id: i,
    geometry: r() < 0.2 ? null : { type: 'Point', coordinates: [r() * 360 - 180, r() * 180 - 90] },
    properties: anyValue(r, 1),
  }));
  const members: Record<string, unknown> = { type: 'FeatureCollection', name: anyValue(r, 2) };
  // `features` anywhere among the members, not only last.
  return r() < 0.5 ? { ...members, features, bbox: [0, 1, 2, 3] } : { features, ...members };
}

/** The text in pieces of random length (1 to 40 characters). */
function pieces(text: string, r: () => number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(r() * 40);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

interface Scanned {
  members: Record<string, unknown>;
  features: unknown[];
  sawFeatures: boolean;
}

function scan(chunks: string[]): Scanned {
  const out: Scanned = { members: {}, features: [], sawFeatures: false };
  const scanner = new GeoJsonScanner({
    member: (key, value) => (out.members[key] = value),
    featuresStart: () => (out.sawFeatures = true),
    // Pauses after every third feature, as a reader handing on batches does.
    feature: (value) => out.features.push(value) % 3 === 0,
  });
  for (const chunk of chunks) {
    scanner.push(chunk);
    while (scanner.read());
  }
  scanner.end();
  while (scanner.read());
  return out;
}

function failureOf(chunks: string[]): { code: string; line?: unknown; column?: unknown } {
  try {
    scan(chunks);
  } catch (e) {
    const { code, params } = e as ApiError;
    return { code, line: params.line, column: params.column };
  }
  assert.fail(`no failure for ${JSON.stringify(chunks.join(''))}`);
}

/** Line and column (from 1) of text[index]. */
function lineColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** Indices of text outside its strings (where a stray character is no JSON). */
function outsideStrings(text: string): number[] {
  const out: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    if (inString) {
      if (text[i] === '\\') i++;
      else if (text[i] === '"') inString = false;
    } else if (text[i] === '"') inString = true;
    else out.push(i);
  }
  return out;
}

describe('GeoJSON scanner', () => {
  it('reads what JSON.parse reads, members and features, in any pieces and with any whitespace', () => {
    const r = random(15);
    for (let n = 0; n < 300; n++) {
      const document = collection(r) as { features: unknown[] } & Record<string, unknown>;
      const text = JSON.stringify(document, null, [undefined, 2, '\t'][n % 3]);
      const { features, ...members } = JSON.parse(text) as typeof document;
      const scanned = scan(pieces(text, r));
      assert.deepEqual(scanned.features, features, text);
      assert.deepEqual(scanned.members, members, text);
      assert.ok(scanned.sawFeatures);
    }
  });

  it('skips a byte order mark and reads a document without features', () => {
    const scanned = scan(['', '\uFEFF{"type": "Point", ', '"coordinates": [1, 2]}\n']);
    assert.deepEqual(scanned.members, { type: 'Point', coordinates: [1, 2] });
    assert.equal(scanned.sawFeatures, false);
    assert.deepEqual(scan(['{}']).members, {});
  });

  it('names the line and column of a stray character anywhere outside strings (a broken word at its start), however the text is split', () => {
    const r = random(20);
    for (let n = 0; n < 300; n++) {
      const text = JSON.stringify(collection(r), null, n % 2 ? 2 : undefined);
      const places = outsideStrings(text);
      // Not before the first brace: a text that does not start with an object is no GeoJSON.
      const at = places[1 + Math.floor(r() * (places.length - 1))];
      const broken = `${text.slice(0, at)}@${text.slice(at)}`;
      // Within a word (`fal@se`) the broken word is named at its start.
      let named = at;
      if (/[a-z]/.test(text[at - 1]) && /[a-z]/.test(text[at])) while (/[a-z]/.test(text[named - 1])) named--;
      const expected = { code: 'invalid_json', ...lineColumn(broken, named) };
      assert.deepEqual(failureOf([broken]), expected, broken);
      assert.deepEqual(failureOf(pieces(broken, r)), expected, broken);
    }
  });

  it('refuses a text that ends too early at its end, and one that goes on after the document', () => {
    const text = '{"type":"FeatureCollection",\n"features":[{"type":"Feature","geometry":null,"properties":{"a":"b"}}]}';
    for (let cut = 1; cut < text.length; cut++) {
      const f = failureOf([text.slice(0, cut)]);
      assert.equal(f.code, 'invalid_json', text.slice(0, cut));
      assert.ok(f.line === 1 || f.line === 2, `line ${f.line} of ${text.slice(0, cut)}`);
    }
    assert.deepEqual(failureOf([`${text}\n {}`]), { code: 'invalid_json', line: 3, column: 2 });
    assert.deepEqual(failureOf([`${text}`, ',']), { code: 'invalid_json', line: 2, column: 72 });
  });

  it('tells an empty text and one that is JSON but no object apart from broken JSON', () => {
    assert.equal(failureOf(['', ' \n\t']).code, 'empty_input');
    assert.equal(failureOf(['\uFEFF']).code, 'empty_input');
    for (const text of ['[1, 2]', '"text"', '42', 'null', '-1']) assert.equal(failureOf([text]).code, 'not_geojson', text);
    assert.deepEqual(failureOf(['\n  x']), { code: 'invalid_json', line: 2, column: 3 });
  });

  it('says where and why a value breaks: escapes, control characters, numbers, words, the end', () => {
    const cases: [string, number, string][] = [
      ['{"a": "x\\qy"}', 9, "expected an escape sequence, not 'q'"],
      ['{"a": "\\u12G4"}', 11, "expected a hex digit, not 'G'"],
      ['["tab\there"]', 5, 'a control character must be escaped in a string, not U+0009'],
      ['[01]', 2, "expected ',' or ']', not '1'"],
      ['[1.]', 3, "expected a digit after the decimal point, not ']'"],
      ['[1e+]', 4, "expected a digit of the exponent, not ']'"],
      ['[-]', 2, "expected a digit, not ']'"],
      ['{"a" 1}', 5, "expected ':', not '1'"],
      ['{"a": 1 "b": 2}', 8, "expected ',' or '}', not '\"'"],
      ['{"a": tru}', 6, 'expected true'],
      ['{"a": [1, 2', 11, 'the text ends too early'],
      ['{"a": "open', 11, 'the text ends too early'],
    ];
    for (const [text, index, reason] of cases) assert.deepEqual(jsonBreak(text), { index, reason }, text);
  });
});
