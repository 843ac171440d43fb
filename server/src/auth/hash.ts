import { createHash } from 'node:crypto';

/** sha256 hex of a high-entropy secret (session keys, API keys): stored instead of the secret. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
