import type {
  BlobDownloads,
  BlobStore,
  MultipartUpload,
  MultipartUploadOptions,
  RequestBodies,
  SendBlobOptions,
  ServerConfig,
  WerkbankContext,
} from '@werkbank/sdk/node';
import { readForm, readJson, readJsonObject } from './body';
import { readMultipartUpload } from '../blob/read-multipart-upload';
import { sendBlob } from '../blob/send-blob';

/** RequestBodies within the configured BODY_LIMIT and UPLOAD_MAX_BYTES. */
export class ConfiguredRequestBodies implements RequestBodies {
  constructor(
    private readonly config: Pick<ServerConfig, 'bodyLimit' | 'uploadMaxBytes'>,
    private readonly blobs: BlobStore,
  ) {}

  json(ctx: WerkbankContext, options: { limit?: number } = {}): Promise<Record<string, unknown>> {
    return readJsonObject(ctx, options.limit ?? this.config.bodyLimit);
  }

  jsonValue(ctx: WerkbankContext, options: { limit?: number } = {}): Promise<unknown> {
    return readJson(ctx, options.limit ?? this.config.bodyLimit);
  }

  form(ctx: WerkbankContext): Promise<Record<string, string>> {
    return readForm(ctx, this.config.bodyLimit);
  }

  upload(ctx: WerkbankContext, options: MultipartUploadOptions): Promise<MultipartUpload> {
    const maxBytes = Math.min(options.maxBytes ?? this.config.uploadMaxBytes, this.config.uploadMaxBytes);
    return readMultipartUpload(ctx, this.blobs, { ...options, maxBytes });
  }
}

/** BlobDownloads from the server's blob store. */
export class StoreBlobDownloads implements BlobDownloads {
  constructor(private readonly blobs: BlobStore) {}

  send(ctx: WerkbankContext, hash: string, options: SendBlobOptions): Promise<void> {
    return sendBlob(ctx, this.blobs, hash, options);
  }
}
