import { makeAutoObservable, runInAction, UploadQueue, type ApiClient, type UploadFile } from '@werkbank/sdk/browser';
import { UPLOAD_RESET_PATH, uploadFilePath } from '../common/magazine-types';
import { batchReady, batchStatus } from '../common/upload-status';
import type { UploadTransport } from './upload-transport';

/**
 * One upload batch into a file depot (spec 000 §2 "File upload", docs/api.md "Uploads"): asks for
 * an upload id once per batch, then sends the files one after another (the SDK's UploadQueue, which
 * refuses files over 5 GiB before sending). `onSettled` runs each time the batch has nothing left
 * to send and is ready.
 */
export class UploadStore {
  uploadId: string | undefined = undefined;
  readonly queue: UploadQueue;

  constructor(
    private readonly api: ApiClient,
    transport: UploadTransport,
    private readonly depot: string,
    onSettled: () => void,
  ) {
    this.queue = new UploadQueue({
      transport,
      url: () => uploadFilePath(this.uploadId!),
      prepare: () => this.ensureUploadId(),
      onIdle: () => this.status !== 'started' && this.ready && onSettled(),
    });
    makeAutoObservable<UploadStore, 'api' | 'depot'>(this, { api: false, depot: false, queue: false });
  }

  get items() {
    return this.queue.items;
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
    this.queue.add(files);
  }

  /** spec 000 §2: nothing is sent before an upload id exists; one id per batch. */
  private async ensureUploadId(): Promise<void> {
    if (this.uploadId) return;
    const reply = await this.api.post<{ upload_id: string | number }>(UPLOAD_RESET_PATH, { depot: this.depot });
    runInAction(() => (this.uploadId = String(reply.upload_id)));
  }

  /** Starts a new batch: the list empties and the next file asks for a new upload id. */
  clear(): void {
    if (this.queue.running) return;
    this.queue.clearFinished();
    this.uploadId = undefined;
  }
}
