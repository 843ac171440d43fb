import { token, type UploadTransport } from '@werkbank/sdk/browser';

/**
 * The transport of preview image uploads (`POST {view}image/`, decision 0092); the module binds the
 * SDK's XhrUploadTransport, an integrator or a test may rebind it.
 */
export const ViewImageUploadTransport = token<UploadTransport>('views.ViewImageUploadTransport');
