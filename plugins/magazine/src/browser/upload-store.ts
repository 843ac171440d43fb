import { makeAutoObservable, runInAction, type ApiClient } from '@werkbank/sdk/browser';
import { UPLOAD_RESET_PATH, uploadFilePath } from '../common/magazine-types';
import { batchReady, batchStatus, UPLOAD_LIMIT_BYTES, type FileUploadStatus } from '../common/upload-status';
import type { UploadReply, UploadTransport } from './upload-transport';

/** A file to upload: a Blob with a name (a File), optionally with its path inside a dropped folder. */
export type UploadFile = Blob & { name: string; webkitRelativePath?: string };

export interface UploadItem {
  key: number;
  path: string;
  size: number;
  status: FileUploadStatus;
  /** 0 to 1 while uploading. */
  progress: number;
  /** The server's reason when it refused the file. */
  reason?: string;
  /** A refusal decided here, as a translation key of the magazine namespace. */
  refusal?: 'upload.too_large' | 'upload.network';
}

let seq = 0;

/** The error text of a reply: the body's reason (spec 000 §8), else the status text; '' when ok. */
export function replyError(reply: UploadReply): string {
  let body: { status?: string; reason?: string } | undefined;
  try {
    body = reply.text ? JSON.parse(reply.text) : undefined;
  } catch {
    body = undefined;
  }
  if (body?.status === 'error') return body.reason || reply.statusText || `HTTP ${reply.status}`;
  return reply.status >= 400 ? reply.statusText || `HTTP ${reply.status}` : '';
}

/**
 * One upload batch into a file depot (spec 000 §2 "File upload", docs/api.md "Uploads"): asks for
 * an upload id once per batch, then sends the files one after another. Files over 5 GiB are refused before
 * sending. `onSettled` runs each time the batch has nothing left to send and is ready.
 */
export class UploadStore {
  items: UploadItem[] = [];
  uploadId: string | undefined = undefined;
  private busy = false;
  private readonly files = new Map<number, UploadFile>();

  constructor(
    private readonly api: ApiClient,
    private readonly transport: UploadTransport,
    private readonly depot: string,
    private readonly onSettled: () => void,
  ) {
    makeAutoObservable<UploadStore, 'api' | 'transport' | 'busy' | 'files' | 'onSettled'>(this, {
      api: false,
      transport: false,
      busy: false,
      files: false,
      onSettled: false,
    });
  }

  get status() {
    return batchStatus(this.items);
  }

  get ready(): boolean {
    return batchReady(this.items);
  }

  /**
   * Adds files to the batch and starts sending; a file over the limit is failed at once. Files
   * added after a batch finished start a new batch (a new upload id), so the status shown is
   * always the status of what was added last.
   */
  add(files: UploadFile[]): void {
    if (this.items.length && this.status !== 'started') this.clear();
    for (const file of files) {
      const key = ++seq;
      const tooLarge = file.size > UPLOAD_LIMIT_BYTES;
      const path = file.webkitRelativePath || file.name;
      this.items.push({
        key,
        path,
        size: file.size,
        status: tooLarge ? 'failed' : 'queued',
        progress: 0,
        refusal: tooLarge ? 'upload.too_large' : undefined,
      });
      if (!tooLarge) this.files.set(key, file);
    }
    void this.pump();
  }

  private update(key: number, patch: Partial<UploadItem>): void {
    this.items = this.items.map((i) => (i.key === key ? { ...i, ...patch } : i));
  }

  /** Sends queued files one at a time; spec 000 §2: nothing is sent before an upload id exists. */
  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      if (!this.uploadId && this.items.some((i) => i.status === 'queued')) {
        try {
          const reply = await this.api.post<{ upload_id: string | number }>(UPLOAD_RESET_PATH, { depot: this.depot });
          runInAction(() => (this.uploadId = String(reply.upload_id)));
        } catch (e) {
          runInAction(() =>
            this.items
              .filter((i) => i.status === 'queued')
              .forEach((i) => this.update(i.key, { status: 'failed', reason: (e as Error).message })),
          );
          return;
        }
      }
      let next: UploadItem | undefined;
      while ((next = this.items.find((i) => i.status === 'queued'))) await this.send(next);
    } finally {
      this.busy = false;
      if (this.status !== 'started' && this.ready) this.onSettled();
    }
  }

  private async send(item: UploadItem): Promise<void> {
    const file = this.files.get(item.key)!;
    this.update(item.key, { status: 'uploading', progress: 0 });
    try {
      const reply = await this.transport.send(
        uploadFilePath(this.uploadId!),
        [
          ['path', item.path],
          ['file', file, file.name],
        ],
        (progress) => runInAction(() => this.update(item.key, { progress })),
      );
      const error = replyError(reply);
      runInAction(() => this.update(item.key, error ? { status: 'failed', reason: error } : { status: 'success', progress: 1 }));
    } catch {
      runInAction(() => this.update(item.key, { status: 'failed', refusal: 'upload.network' }));
    } finally {
      this.files.delete(item.key);
    }
  }

  /** Starts a new batch: the list empties and the next file asks for a new upload id. */
  clear(): void {
    if (this.items.some((i) => i.status === 'uploading' || i.status === 'queued')) return;
    this.items = [];
    this.uploadId = undefined;
  }
}
