import { token, type UploadTransport as Transport } from '@werkbank/sdk/browser';

export type { UploadPart, UploadReply } from '@werkbank/sdk/browser';

/**
 * The transport of the Magazine's file uploads (docs/api.md "Uploads"); the module binds the SDK's
 * XhrUploadTransport, an integrator or a test may rebind it.
 */
export const UploadTransport = token<Transport>('magazine.UploadTransport');
export type UploadTransport = Transport;
