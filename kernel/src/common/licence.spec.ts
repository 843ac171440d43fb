import assert from 'node:assert/strict';
import { canonicalJson } from './licence';

describe('canonicalJson', () => {
  it('gives the same text whatever the key order, at every level', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }] } }), '{"a":{"d":[2,{"e":0,"f":1}]},"b":1}');
    assert.equal(canonicalJson({ a: { d: [2, { e: 0, f: 1 }] }, b: 1 }), canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }] } }));
  });

  it('leaves out undefined values, as a JSON round trip of the licence file does', () => {
    const payload = { id: 'lic', development: undefined };
    assert.equal(canonicalJson(payload), canonicalJson(JSON.parse(JSON.stringify(payload))));
  });
});
