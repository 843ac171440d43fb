import { token, type UploadTransport } from '@werkbank/sdk/browser';

export type { UploadPart, UploadReply } from '@werkbank/sdk/browser';

/**
 * Sends `POST {frame}upload/` (docs/api.md "frame") with upload progress. An integrator (or a test)
 * may bind this token; without a binding the dialog uses the SDK's XhrUploadTransport.
 */
export const FrameUploadTransport = token<UploadTransport>('switchboards.FrameUploadTransport');
export type FrameUploadTransport = UploadTransport;
