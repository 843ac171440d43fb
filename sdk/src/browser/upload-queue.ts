import { makeAutoObservable, runInAction } from 'mobx';
import { replyError, type UploadTransport } from './upload-transport';

/** spec 000 §9: uploads up to 5 GB; the server refuses more than 5 GiB (docs/api.md "Uploads"). */
export const UPLOAD_LIMIT_BYTES = 5 * 1024 ** 3;

/** A file to upload: a Blob with a name (a File), optionally with its path inside a dropped folder. */
export type UploadFile = Blob & { name: string; webkitRelativePath?: string };

/** Per-file status (spec 000 §2 "File upload"); `queued` waits for its turn. */
export type UploadStatus = 'queued' | 'uploading' | 'success' | 'failed';

/** Why a file failed without a reason from the server: over the size limit, or no reply at all. */
export type UploadRefusal = 'too_large' | 'network';

export interface UploadItem {
  key: number;
  path: string;
  size: number;
  status: UploadStatus;
  /** 0 to 1 while uploading. */
  progress: number;
  /** The server's reason when it refused the file, or why `prepare` failed. */
  reason?: string;
  /** A refusal decided here; the screen shows it in its own words. */
  refusal?: UploadRefusal;
}

export interface UploadQueueOptions {
  transport: UploadTransport;
  /** Where the waiting file goes: a multipart POST of `path`, then `file`. Called when it is its turn. */
  url(): string;
  /**
   * Runs before files are sent whenever some wait (e.g. to ask for an upload id); nothing is sent
   * before it resolves, and when it rejects every waiting file fails with its message.
   */
  prepare?(): Promise<void>;
  /** After each file the server took. */
  onUploaded?(): void;
  /** Each time the queue has nothing left to send. */
  onIdle?(): void;
}

let seq = 0;

/**
 * Files uploaded one after another through an UploadTransport, with a status per file: queued,
 * uploading (with progress), success, failed (with the server's reason or a refusal). Files over
 * UPLOAD_LIMIT_BYTES fail before anything is sent.
 */
export class UploadQueue {
  items: UploadItem[] = [];
  private busy = false;
  private readonly files = new Map<number, UploadFile>();

  constructor(private readonly options: UploadQueueOptions) {
    makeAutoObservable<UploadQueue, 'options' | 'busy' | 'files'>(this, { options: false, busy: false, files: false });
  }

  /** True while a file waits or is being sent. */
  get running(): boolean {
    return this.items.some((i) => i.status === 'queued' || i.status === 'uploading');
  }

  /** Adds files at the end and starts sending; a file over the limit is failed at once. */
  add(files: UploadFile[]): void {
    for (const file of files) {
      const key = ++seq;
      const tooLarge = file.size > UPLOAD_LIMIT_BYTES;
      this.items.push({
        key,
        path: file.webkitRelativePath || file.name,
        size: file.size,
        status: tooLarge ? 'failed' : 'queued',
        progress: 0,
        refusal: tooLarge ? 'too_large' : undefined,
      });
      if (!tooLarge) this.files.set(key, file);
    }
    void this.pump();
  }

  /** Removes the finished files from the list (all of them when nothing runs). */
  clearFinished(): void {
    this.items = this.items.filter((i) => i.status === 'queued' || i.status === 'uploading');
  }

  private update(key: number, patch: Partial<UploadItem>): void {
    this.items = this.items.map((i) => (i.key === key ? { ...i, ...patch } : i));
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      if (this.options.prepare && this.items.some((i) => i.status === 'queued')) {
        try {
          await this.options.prepare();
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
      this.options.onIdle?.();
    }
  }

  private async send(item: UploadItem): Promise<void> {
    const file = this.files.get(item.key)!;
    this.update(item.key, { status: 'uploading', progress: 0 });
    try {
      const reply = await this.options.transport.send(
        this.options.url(),
        [
          ['path', item.path],
          ['file', file, file.name],
        ],
        (progress) => runInAction(() => this.update(item.key, { progress })),
      );
      const error = replyError(reply);
      runInAction(() => this.update(item.key, error ? { status: 'failed', reason: error } : { status: 'success', progress: 1 }));
      if (!error) this.options.onUploaded?.();
    } catch {
      runInAction(() => this.update(item.key, { status: 'failed', refusal: 'network' }));
    } finally {
      this.files.delete(item.key);
    }
  }
}
