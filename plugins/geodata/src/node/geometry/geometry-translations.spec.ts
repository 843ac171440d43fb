import assert from 'node:assert/strict';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { failure } from './geometry-items';

describe('geodata geometry: error reasons', () => {
  it('has every reason in German and English, with the same placeholders', () => {
    assert.deepEqual(Object.keys(de.errors).sort(), Object.keys(en.errors).sort());
    const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of Object.entries(en.errors)) {
      assert.deepEqual(holes(de.errors[key as keyof typeof de.errors]), holes(text), key);
    }
  });

  it('fails with a reason whose key names its message (the type of failure admits only reasons with one)', () => {
    const first = Object.keys(en.errors)[0] as keyof typeof en.errors;
    const e = failure(first, { line: 3 });
    assert.deepEqual([e.status, e.code, e.key, e.params], [400, first, `geodata-geometry:errors.${first}`, { line: 3 }]);
    assert.deepEqual(failure(first).params, {});
  });
});
