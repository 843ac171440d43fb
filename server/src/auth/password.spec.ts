import assert from 'node:assert/strict';
import { hashPassword, randomToken, safeEqual, verifyPassword } from './password';
import { sha256 } from './hash';

describe('password hashes', () => {
  let stored = '';
  before(async () => {
    stored = await hashPassword('correct horse battery');
  });

  it('accepts the password a hash was made of and refuses any other', async () => {
    assert.match(stored, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    assert.equal(await verifyPassword('correct horse battery', stored), true);
    assert.equal(await verifyPassword('correct horse batterY', stored), false);
    assert.notEqual(await hashPassword('correct horse battery'), stored, 'every hash has its own salt');
  });

  it('refuses even the right password against a hash that is not a complete scrypt hash', async () => {
    const parts = stored.split('$');
    assert.equal(await verifyPassword('correct horse battery', ['argon2', ...parts.slice(1)].join('$')), false);
    assert.equal(await verifyPassword('correct horse battery', `${stored}$extra`), false);
    assert.equal(await verifyPassword('correct horse battery', parts.slice(0, 5).join('$')), false);
    assert.equal(await verifyPassword('', ''), false, 'an account without a password cannot be logged into');
  });
});

describe('secrets', () => {
  it('compares strings exactly, whatever their lengths', () => {
    assert.equal(safeEqual('token-abc', 'token-abc'), true);
    assert.equal(safeEqual('token-abc', 'token-abd'), false);
    assert.equal(safeEqual('token-abc', 'token-ab'), false);
    assert.equal(safeEqual('token-ab', 'token-abc'), false);
    assert.equal(safeEqual('', 'x'), false);
  });

  it('makes URL-safe random tokens of the asked number of bytes, and stores only their sha256', () => {
    const token = randomToken(32);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(randomToken(32), token);
    assert.equal(sha256('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
