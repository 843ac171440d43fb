import '../../switchboards-test-kit';
import assert from 'node:assert/strict';
import { cellText, colourToHex, parseCell, ruleOfValues } from './cell-rules';

describe('frame table cell rules (spec 001 §5.3)', () => {
  it('bool: 1, true and True are true; anything else is false', () => {
    for (const t of ['1', 'true', 'True', ' true ']) assert.deepEqual(parseCell('bool', t, false), { ok: true, value: true });
    for (const t of ['0', 'TRUE', 'yes', 'false', '']) assert.deepEqual(parseCell('bool', t, false), { ok: true, value: false });
  });

  it('colour: only what the browser accepts, stored as hex; transparent is #000000', () => {
    assert.deepEqual(parseCell('colour', '#ABC', false), { ok: true, value: '#aabbcc' });
    assert.deepEqual(parseCell('colour', '#1e88e5', false), { ok: true, value: '#1e88e5' });
    assert.deepEqual(parseCell('colour', 'rgba(30, 136, 229, 0.5)', false), { ok: true, value: '#1e88e580' });
    assert.deepEqual(parseCell('colour', 'transparent', false), { ok: true, value: '#000000' });
    assert.deepEqual(parseCell('colour', 'blurple', false), { ok: false, reason: 'colour' });
    assert.deepEqual(parseCell('colour', '#12345', false), { ok: false, reason: 'colour' });
    assert.equal(colourToHex(''), undefined);
  });

  it('datetime: only parseable text, stored as ISO 8601 in UTC', () => {
    assert.deepEqual(parseCell('datetime', '2026-05-01T12:00:00+02:00', false), { ok: true, value: '2026-05-01T10:00:00.000Z' });
    assert.deepEqual(parseCell('datetime', 'next Tuesday', false), { ok: false, reason: 'datetime' });
    assert.deepEqual(parseCell('datetime', '', false), { ok: false, reason: 'datetime' });
  });

  it('numbers: a decimal point or a German decimal comma; whole numbers for int; empty is null where allowed', () => {
    assert.deepEqual(parseCell('number', '12,5', true), { ok: true, value: 12.5 });
    assert.deepEqual(parseCell('number', '-1.25e3', true), { ok: true, value: -1250 });
    assert.deepEqual(parseCell('number', '1.234,5', true), { ok: false, reason: 'number' });
    assert.deepEqual(parseCell('number', 'twelve', true), { ok: false, reason: 'number' });
    assert.deepEqual(parseCell('number', '', true), { ok: true, value: null });
    assert.deepEqual(parseCell('number', '', false), { ok: false, reason: 'empty' });
    assert.deepEqual(parseCell('int', '3', false), { ok: true, value: 3 });
    assert.deepEqual(parseCell('int', '3.5', false), { ok: false, reason: 'int' });
  });

  it('shows numbers with up to 20 fraction digits in the user’s decimal notation, booleans as true/false', () => {
    assert.equal(cellText(0.1 + 0.2, 'en'), '0.30000000000000004');
    assert.equal(cellText(1234567.125, 'de'), '1234567,125');
    assert.equal(cellText(1e-7, 'en'), '0.0000001');
    assert.equal(cellText(true, 'de'), 'true');
    assert.equal(cellText(null, 'en'), '');
  });

  it('types free columns by the values they hold', () => {
    assert.equal(ruleOfValues([null, 3, 'x']), 'number');
    assert.equal(ruleOfValues([undefined, false]), 'bool');
    assert.equal(ruleOfValues([{ a: 1 }]), 'json');
    assert.equal(ruleOfValues([null, 'Elbe']), 'text');
  });
});
