/** The signed part of a licence. */
export interface LicencePayload {
  id: string;
  licensee: string;
  /** Licensed component names; '*' enables every known component. */
  components: string[];
  /** ISO date-time. */
  issued: string;
  /** ISO date-time after which the licence enables nothing. */
  expires: string;
  /** A local development licence made on first start. */
  development?: boolean;
}

/** A licence file: the payload, the Ed25519 signature over its canonical JSON, and the key id. */
export interface LicenceDocument {
  payload: LicencePayload;
  /** base64 Ed25519 signature of canonicalJson(payload). */
  signature: string;
  /** Fingerprint of the public key that signed it. */
  keyId: string;
}

/** JSON with object keys sorted at every level: the exact bytes that are signed. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value as object).sort();
    return `{${keys
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export type LicenceState = 'valid' | 'expired' | 'bad-signature' | 'untrusted-key' | 'malformed';

export interface LicenceStatus {
  state: LicenceState;
  payload?: LicencePayload;
  reason?: string;
  source?: string;
}
