import assert from 'node:assert/strict';
import type { ApiError } from '@werkbank/sdk/node';
import { decodeText, downloadName, plainFileName, sourcesFailure } from './download-text';

const URL_ = 'https://daten.example.org/orte.csv';

/** The failure decodeText throws, as code and parameters. */
function failureOf(bytes: Buffer, contentType: string | undefined): { code: string; params: Record<string, unknown> } {
  try {
    decodeText(bytes, contentType, URL_);
  } catch (e) {
    const { code, params } = e as ApiError;
    return { code, params: params as Record<string, unknown> };
  }
  assert.fail('decodeText accepted the bytes');
}

/** Downloaded text as the services and GML import read it (issue 6): its charset, its byte order mark, binary refused. */
describe('geodata sources: the text of a download', () => {
  it('decodes UTF-8 when the type names no charset, and drops a byte order mark', () => {
    assert.equal(decodeText(Buffer.from('Straße;1'), 'text/csv', URL_), 'Straße;1');
    assert.equal(decodeText(Buffer.from('\ufeffGörlitz'), undefined, URL_), 'Görlitz');
    assert.equal(decodeText(Buffer.from(''), 'text/plain', URL_), '');
  });

  it('decodes the charset the type names, quoted or not, in any letter case', () => {
    const latin1 = Buffer.from([0x47, 0xf6, 0x72, 0x6c, 0x69, 0x74, 0x7a]);
    assert.equal(decodeText(latin1, 'text/csv; charset=ISO-8859-1', URL_), 'Görlitz');
    assert.equal(decodeText(latin1, 'text/csv;charset="iso-8859-1"', URL_), 'Görlitz');
    assert.equal(decodeText(latin1, 'text/csv; CHARSET=windows-1252; header=present', URL_), 'Görlitz');
    assert.equal(decodeText(Buffer.from('Köln'), 'application/xml; charset=utf-8', URL_), 'Köln');
  });

  it('refuses bytes that are no text in the charset, and binary data, naming the address and the type', () => {
    assert.deepEqual(failureOf(Buffer.from([0x61, 0xff, 0xfe]), 'Text/Plain ; charset=utf-8'), {
      code: 'not_text',
      params: { url: URL_, mime_type: 'text/plain' },
    });
    // Valid UTF-8 with a NUL byte is binary.
    assert.deepEqual(failureOf(Buffer.from([0x61, 0x00, 0x62]), undefined), {
      code: 'not_text',
      params: { url: URL_, mime_type: 'application/octet-stream' },
    });
    assert.deepEqual(failureOf(Buffer.from([0x00]), 'text/csv; charset=iso-8859-1'), {
      code: 'not_text',
      params: { url: URL_, mime_type: 'text/csv' },
    });
  });

  it('names a charset the runtime does not know', () => {
    assert.deepEqual(failureOf(Buffer.from('a'), 'text/csv; charset=X-Klingon'), {
      code: 'unknown_charset',
      params: { url: URL_, charset: 'x-klingon' },
    });
  });

  it('fails in the sources namespace with its parameters, as a client error', () => {
    const e = sourcesFailure('path_missing', { path: '/daten/x.csv' });
    assert.deepEqual(
      [e.status, e.code, e.key, e.params],
      [400, 'path_missing', 'geodata-sources:errors.path_missing', { path: '/daten/x.csv' }],
    );
    assert.deepEqual(sourcesFailure('local_import_off').params, {});
  });

  it('names a download after filename*, then filename, then the address, then "download"', () => {
    assert.equal(downloadName(`attachment; filename*=ISO-8859-1'de'Gew%E4sser%20alt.csv`, URL_), 'Gewässer alt.csv');
    assert.equal(downloadName(`attachment; filename*=UTF-8'de'Gew%C3%A4sser.csv; filename="x.csv"`, URL_), 'Gewässer.csv');
    assert.equal(downloadName(`attachment; filename* = utf-8''Fl%C3%BCsse.csv `, URL_), 'Flüsse.csv');
    // An undecodable extended name falls back to the plain one.
    assert.equal(downloadName(`attachment; filename*=UTF-8''%E0%A4%A; filename="ersatz.csv"`, URL_), 'ersatz.csv');
    assert.equal(downloadName(`attachment; filename = "mit Leer.csv" ; size=3`, URL_), 'mit Leer.csv');
    assert.equal(downloadName('attachment; filename=ohne.csv; size=3', URL_), 'ohne.csv');
    assert.equal(downloadName('attachment; filename= ohne Anführung.csv ; size=3', URL_), 'ohne Anführung.csv');
    assert.equal(downloadName(['attachment; filename="erste.csv"', 'attachment; filename="zweite.csv"'], URL_), 'erste.csv');
    assert.equal(downloadName(undefined, 'https://daten.example.org/pfad/Gew%C3%A4sser.gml/'), 'Gewässer.gml');
    assert.equal(downloadName(undefined, 'https://daten.example.org/%E0%A4%A'), 'download');
    assert.equal(downloadName(undefined, 'keine Adresse'), 'download');
    assert.equal(downloadName(undefined, 'https://daten.example.org'), 'download');
  });

  it('makes a plain file name: no folders, no unsafe characters, no leading dots, at most 200 characters', () => {
    assert.equal(plainFileName('C:\\Daten\\orte.csv', 'x'), 'orte.csv');
    assert.equal(plainFileName('a<b>c:d"e|f?g*h\u0007.csv', 'x'), 'a_b_c_d_e_f_g_h_.csv');
    assert.equal(plainFileName('\u202a\u202egpj.exe\u2066\u2069', 'x'), '_gpj.exe_');
    assert.equal(plainFileName('a\u202ab\u202ec\u2066d\u2069e\u007ff', 'x'), 'a_b_c_d_e_f');
    assert.equal(plainFileName('..versteckt.csv', 'x'), 'versteckt.csv');
    assert.equal(plainFileName('...  ', 'x'), 'x');
    assert.equal(plainFileName('  orte.csv  ', 'x'), 'orte.csv');
    assert.equal(plainFileName(`${'ä'.repeat(250)}.csv`, 'x'), 'ä'.repeat(200));
    assert.equal(plainFileName('', 'export.csv'), 'export.csv');
  });
});
