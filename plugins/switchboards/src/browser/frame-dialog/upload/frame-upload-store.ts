import { makeAutoObservable, runInAction } from '@werkbank/sdk/browser';
import { replyError, type FrameUploadTransport } from './frame-upload-transport';

/** spec 000 §9: files up to 5 GiB (the server's UPLOAD_MAX_BYTES default). */
export const UPLOAD_LIMIT_BYTES = 5 * 1024 ** 3;

/** A file to upload: a Blob with a name (a File), optionally with its path inside a dropped folder. */
export type UploadFile = Blob & { name: string; webkitRelativePath?: string };

export type UploadStatus = 'queued' | 'uploading' | 'success' | 'failed';

export interface UploadItem {
  key: number;
  path: string;
  size: number;
  status: UploadStatus;
  /** 0 to 1 while uploading. */
  progress: number;
  /** Why it failed: the server's reason, or a translation key of 'sb-frame' for refusals decided here. */
  reason?: string;
  refusal?: 'upload.too_large' | 'upload.network';
}

let seq = 0;

/**
 * Uploads into a file frame (POST {frame}upload/), one file after another, with a status per file:
 * queued, uploading, success, failed. Files over 5 GiB fail before anything is sent. `onUploaded`
 * runs after each file the server took.
 */
export class FrameUploadStore {
  items: UploadItem[] = [];
  private busy = false;
  private readonly files = new Map<number, UploadFile>();

  constructor(
    private readonly transport: FrameUploadTransport,
    private readonly frameUri: string,
    private readonly onUploaded: () => void,
  ) {
    makeAutoObservable<FrameUploadStore, 'transport' | 'busy' | 'files' | 'onUploaded' | 'frameUri'>(this, {
      transport: false,
      busy: false,
      files: false,
      onUploaded: false,
      frameUri: false,
    });
  }

  get running(): boolean {
    return this.items.some((i) => i.status === 'queued' || i.status === 'uploading');
  }

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
        refusal: tooLarge ? 'upload.too_large' : undefined,
      });
      if (!tooLarge) this.files.set(key, file);
    }
    void this.pump();
  }

  /** Removes the finished files from the list. */
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
      let next: UploadItem | undefined;
      while ((next = this.items.find((i) => i.status === 'queued'))) await this.send(next);
    } finally {
      this.busy = false;
    }
  }

  private async send(item: UploadItem): Promise<void> {
    const file = this.files.get(item.key)!;
    this.update(item.key, { status: 'uploading', progress: 0 });
    try {
      const reply = await this.transport.send(
        `${this.frameUri}upload/`,
        [
          ['path', item.path],
          ['file', file, file.name],
        ],
        (progress) => runInAction(() => this.update(item.key, { progress })),
      );
      const error = replyError(reply);
      runInAction(() => this.update(item.key, error ? { status: 'failed', reason: error } : { status: 'success', progress: 1 }));
      if (!error) this.onUploaded();
    } catch {
      runInAction(() => this.update(item.key, { status: 'failed', refusal: 'upload.network' }));
    } finally {
      this.files.delete(item.key);
    }
  }
}
