import assert from 'node:assert/strict';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { failure } from './tabular-params';

describe('tabular translations', () => {
  it('has a German and an English message for every reason (the type of failure admits only reasons with one)', () => {
    assert.deepEqual(Object.keys(de.errors).sort(), Object.keys(en.errors).sort());
    const first = Object.keys(en.errors)[0] as keyof typeof en.errors;
    const e = failure(first, { line: 3 });
    assert.deepEqual([e.status, e.code, e.key, e.params], [400, first, `geodata-tabular:errors.${first}`, { line: 3 }]);
    assert.deepEqual(failure(first).params, {});
  });

  it('uses the same placeholders in both languages', () => {
    const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [code, text] of Object.entries(en.errors)) {
      assert.deepEqual(holes((de.errors as Record<string, string>)[code]), holes(text), code);
    }
  });
});
