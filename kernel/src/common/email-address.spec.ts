import assert from 'node:assert/strict';
import { isValidEmail } from './email-address';

describe('isValidEmail (spec 002 §5: the invitation address)', () => {
  it('accepts ordinary addresses, with subdomains, plus tags and umlaut domains', () => {
    for (const a of ['eva@example.org', 'eva.kahl+werkbank@mail.stadt-bonn.de', 'x@müller.de', ' eva@example.org '])
      assert.equal(isValidEmail(a), true, a);
  });
  it('refuses empty text, missing parts, spaces, lists, display names and double dots', () => {
    for (const a of [
      '',
      'eva',
      'eva@',
      '@example.org',
      'eva@example',
      'eva kahl@example.org',
      'a@b.c',
      'a@x.org, b@x.org',
      'Eva <eva@example.org>',
      'eva@@example.org',
      'eva..k@example.org',
      'eva@.example.org',
    ])
      assert.equal(isValidEmail(a), false, a);
    assert.equal(isValidEmail(`${'a'.repeat(250)}@x.org`), false, 'too long');
  });
});
