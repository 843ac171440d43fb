import assert from 'node:assert/strict';
import { missingTexts, textKeys, usedTextKeys } from '@werkbank/testing/browser';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

/** Keys built at run time: the username problems and the labels of the spec's named permissions. */
const DYNAMIC = [
  'user.username_required',
  'user.username_invalid',
  ...['first_name', 'last_name', 'email'].map((f) => `user.${f}`),
  'users.filter_active',
  'users.filter_staff',
  'users.filter_superuser',
  ...['publish_view', 'access_connect', 'read_depot', 'write_depot', 'read_switchboard', 'write_workflow'].map(
    (p) => `permission.${p}`,
  ),
];

describe('administration texts (admin)', () => {
  it('has every key the screens use, in German and English', () => {
    const used = new Set([...DYNAMIC, ...usedTextKeys(import.meta.dirname, { recursive: true })]);
    assert.deepEqual(missingTexts(used, en, de), []);
    assert.ok(used.size > 60, `found the keys in use (${used.size})`);
  });

  it('has the same keys in both languages', () => {
    assert.deepEqual(textKeys(de).sort(), textKeys(en).sort());
  });
});
