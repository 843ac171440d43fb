import assert from 'node:assert/strict';
import { type LicenceDocument, type LicencePayload } from '../common/licence';
import { generateLicenceKeyPair, signLicence, verifyLicence } from './licence-verifier';

describe('verifyLicence', () => {
  const vendor = generateLicenceKeyPair();
  const stranger = generateLicenceKeyPair();
  const now = new Date('2026-06-01T00:00:00Z');
  const payload = (overrides: Partial<LicencePayload> = {}): LicencePayload => ({
    id: 'lic-42',
    licensee: 'Stadt Musterhausen',
    components: ['magazine', 'tags'],
    issued: '2026-01-01T00:00:00Z',
    expires: '2027-01-01T00:00:00Z',
    ...overrides,
  });
  /** A licence as it arrives: a JSON round trip of the signed document. */
  const asFile = (doc: LicenceDocument): LicenceDocument => JSON.parse(JSON.stringify(doc)) as LicenceDocument;

  it('accepts a licence signed by a trusted key and not yet expired', () => {
    const doc = asFile(signLicence(payload(), vendor.privateKeyPem));
    const status = verifyLicence(doc, [stranger.publicKeyPem, vendor.publicKeyPem], now);
    assert.equal(status.state, 'valid');
    assert.deepEqual(status.payload, payload());
    assert.equal(doc.keyId, vendor.keyId);
  });

  it('refuses an expired licence, naming its expiry', () => {
    const doc = signLicence(payload({ expires: '2026-05-31T23:59:59Z' }), vendor.privateKeyPem);
    const status = verifyLicence(doc, [vendor.publicKeyPem], now);
    assert.equal(status.state, 'expired');
    assert.match(status.reason ?? '', /lic-42/);
    assert.match(status.reason ?? '', /2026-05-31T23:59:59Z/);
  });

  it('treats a licence as expired at the very moment of its expiry', () => {
    const doc = signLicence(payload({ expires: now.toISOString() }), vendor.privateKeyPem);
    assert.equal(verifyLicence(doc, [vendor.publicKeyPem], now).state, 'expired');
  });

  it('refuses a licence whose payload was changed after signing', () => {
    const doc = asFile(signLicence(payload(), vendor.privateKeyPem));
    doc.payload.components = ['*'];
    const status = verifyLicence(doc, [vendor.publicKeyPem], now);
    assert.equal(status.state, 'bad-signature');
    assert.match(status.reason ?? '', /lic-42/);
  });

  it('refuses a licence whose expiry was extended after signing', () => {
    const doc = asFile(signLicence(payload({ expires: '2026-02-01T00:00:00Z' }), vendor.privateKeyPem));
    doc.payload.expires = '2099-01-01T00:00:00Z';
    assert.equal(verifyLicence(doc, [vendor.publicKeyPem], now).state, 'bad-signature');
  });

  it('refuses a licence signed by another key that claims a trusted key id', () => {
    const doc = signLicence(payload(), stranger.privateKeyPem);
    assert.equal(verifyLicence({ ...doc, keyId: vendor.keyId }, [vendor.publicKeyPem], now).state, 'bad-signature');
  });

  it('refuses a licence signed by a key this server does not trust, naming the key', () => {
    const doc = signLicence(payload(), stranger.privateKeyPem);
    const status = verifyLicence(doc, [vendor.publicKeyPem], now);
    assert.equal(status.state, 'untrusted-key');
    assert.match(status.reason ?? '', new RegExp(stranger.keyId));
    assert.equal(verifyLicence(doc, [], now).state, 'untrusted-key');
  });

  it('reports malformed input instead of throwing', () => {
    const signed = signLicence(payload(), vendor.privateKeyPem);
    const { components: _components, ...withoutComponents } = signed.payload;
    const inputs: unknown[] = [
      null,
      undefined,
      'not a licence',
      42,
      {},
      { payload: signed.payload },
      { payload: withoutComponents, signature: signed.signature, keyId: signed.keyId },
      { payload: { ...signed.payload, id: 7 }, signature: signed.signature, keyId: signed.keyId },
    ];
    for (const input of inputs) {
      const status = verifyLicence(input, [vendor.publicKeyPem], now);
      assert.equal(status.state, 'malformed', `for ${JSON.stringify(input)}`);
      assert.ok(status.reason);
    }
  });

  it('reports a signature that is not base64 Ed25519 as a bad signature', () => {
    const doc = signLicence(payload(), vendor.privateKeyPem);
    assert.equal(verifyLicence({ ...doc, signature: '%%%' }, [vendor.publicKeyPem], now).state, 'bad-signature');
  });
});
