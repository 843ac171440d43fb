import assert from 'node:assert/strict';
import { csvCell, csvHeader, csvRow } from './csv-rows';

describe('services: features as CSV rows', () => {
  it('quotes fields with commas, quotes, line breaks or outer spaces, writes objects as JSON and null as nothing', () => {
    assert.equal(csvCell('Wald'), 'Wald');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('sagte "ja"'), '"sagte ""ja"""');
    assert.equal(csvCell('zwei\nZeilen'), '"zwei\nZeilen"');
    assert.equal(csvCell(' rand'), '" rand"');
    assert.equal(csvCell(1.5), '1.5');
    assert.equal(csvCell(null), '');
    assert.equal(csvCell({ a: [1, 2] }), '"{""a"":[1,2]}"');
  });

  it('writes the geometry as WKT first, then the columns in order, ending each line with CRLF', () => {
    assert.equal(csvHeader(['art', 'nr']), 'WKT,art,nr\r\n');
    const row = csvRow(
      { id: 1, geometry: { type: 'Point', coordinates: [6.9, 50.9] }, properties: { nr: 2, art: 'Eiche' } } as never,
      ['art', 'nr', 'fehlt'],
    );
    assert.equal(row, 'POINT (6.9 50.9),Eiche,2,\r\n');
    assert.equal(csvRow({ id: 2, geometry: null, properties: null } as never, ['art']), ',\r\n');
  });
});
