import assert from 'node:assert/strict';
import type { ApiError } from '@werkbank/sdk/node';

type Bundle = { errors: Record<string, string> };

/**
 * The specs every part's failure reasons meet: each reason has a message in German and English,
 * with the same placeholders, and the part's failure maker names it in the part's namespace.
 */
export function describeReasons(
  namespace: string,
  failure: (code: never, params?: Record<string, unknown>) => ApiError,
  en: Bundle,
  de: Bundle,
): void {
  describe(`${namespace}: failure reasons`, () => {
    it('has every reason in German and English, with the same placeholders', () => {
      assert.deepEqual(Object.keys(de.errors).sort(), Object.keys(en.errors).sort());
      const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      for (const [key, text] of Object.entries(en.errors)) assert.deepEqual(holes(de.errors[key]), holes(text), key);
    });

    it('fails with a reason whose key names its message in this namespace', () => {
      const make = failure as (code: string, params?: Record<string, unknown>) => ApiError;
      for (const reason of Object.keys(en.errors)) {
        const e = make(reason, { line: 3 });
        assert.deepEqual([e.status, e.code, e.key, e.params], [400, reason, `${namespace}:errors.${reason}`, { line: 3 }]);
      }
    });
  });
}
