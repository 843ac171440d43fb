import { createPublicKey, createPrivateKey, generateKeyPairSync, sign, verify, createHash, type KeyObject } from 'node:crypto';
import { canonicalJson, type LicenceDocument, type LicencePayload, type LicenceStatus } from '../common/licence';

/** A short fingerprint of a public key (sha256 of its DER form, first 16 hex digits). */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

export function generateLicenceKeyPair(): { publicKeyPem: string; privateKeyPem: string; keyId: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    keyId: keyId(publicKey),
  };
}

export function signLicence(payload: LicencePayload, privateKeyPem: string): LicenceDocument {
  const privateKey = createPrivateKey(privateKeyPem);
  const publicKey = createPublicKey(privateKey);
  const signature = sign(null, Buffer.from(canonicalJson(payload)), privateKey).toString('base64');
  return { payload, signature, keyId: keyId(publicKey) };
}

/**
 * Checks a licence against the trusted public keys (PEM). Never throws: a malformed document, an
 * untrusted key, a bad signature or an expired licence gives a status that enables nothing and
 * says why.
 */
export function verifyLicence(doc: unknown, trustedKeysPem: string[], now = new Date()): LicenceStatus {
  const d = doc as Partial<LicenceDocument> | null;
  if (!d || typeof d !== 'object' || !d.payload || typeof d.signature !== 'string') {
    return { state: 'malformed', reason: 'the licence file is not a signed licence document' };
  }
  const p = d.payload;
  if (typeof p.id !== 'string' || !Array.isArray(p.components) || typeof p.expires !== 'string') {
    return { state: 'malformed', reason: 'the licence lacks id, components or expiry' };
  }
  const keys = trustedKeysPem.flatMap((pem) => {
    try {
      return [createPublicKey(pem)];
    } catch {
      return []; // a malformed trusted key (configuration) trusts nothing
    }
  });
  const key = keys.find((k) => keyId(k) === d.keyId);
  if (!key)
    return {
      state: 'untrusted-key',
      payload: p,
      reason: `licence '${p.id}' is signed by key ${d.keyId ?? '?'}, which this server does not trust`,
    };
  let ok: boolean;
  try {
    ok = verify(null, Buffer.from(canonicalJson(p)), key, Buffer.from(d.signature, 'base64'));
  } catch {
    ok = false;
  }
  if (!ok)
    return { state: 'bad-signature', payload: p, reason: `licence '${p.id}' has a signature that does not match its content` };
  const expires = new Date(p.expires);
  if (Number.isNaN(expires.getTime()) || expires.getTime() <= now.getTime()) {
    return { state: 'expired', payload: p, reason: `licence '${p.id}' expired on ${p.expires}` };
  }
  return { state: 'valid', payload: p };
}
