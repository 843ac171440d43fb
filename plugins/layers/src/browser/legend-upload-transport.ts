import { token, type UploadTransport } from '@werkbank/sdk/browser';

/**
 * The transport of legend uploads (`POST {layer}legend/`, decision 0063); the module binds the
 * SDK's XhrUploadTransport, an integrator or a test may rebind it.
 */
export const LegendUploadTransport = token<UploadTransport>('layers.LegendUploadTransport');
