import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AuthUser, FunctionRunContext, StoredFileOptions } from '@werkbank/sdk/node';

/** A file a function stored through a fake run context: its bytes, as the blob store would keep them. */
export interface FakeStoredFile {
  name: string;
  mime_type: string;
  bytes: Buffer;
}

/** A run context for calling functions directly in tests: records progress, log lines, reads and stored files. */
export interface FakeRunContext extends FunctionRunContext {
  controller: AbortController;
  progresses: number[];
  logs: string[];
  reads: Array<{ depot_id: number; moment_id: number }>;
  writes: Array<{ depot_id: number; moment_id: number }>;
  /** The files stored with storeFile, by their blob hash (the datum's `stored_blob`). */
  files: Map<string, FakeStoredFile>;
}

export const TEST_USER: AuthUser = {
  id: 7,
  username: 'tester',
  isSuperuser: false,
  isStaff: false,
  groupIds: [],
  permissions: new Set(),
  language: 'en',
  displayName: 'Tester',
};

async function bytesOf(source: Readable | Buffer | string): Promise<Buffer> {
  if (typeof source === 'string') return Buffer.from(source, 'utf8');
  if (Buffer.isBuffer(source)) return source;
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export function fakeRunContext(): FakeRunContext {
  const controller = new AbortController();
  const ctx: FakeRunContext = {
    controller,
    signal: controller.signal,
    progresses: [],
    logs: [],
    reads: [],
    writes: [],
    files: new Map(),
    progress: (f) => ctx.progresses.push(f),
    log: (m) => ctx.logs.push(m),
    user: TEST_USER,
    nodeRunId: 42,
    recordRead: (r) => ctx.reads.push(r),
    recordWrite: (w) => ctx.writes.push(w),
    lang: 'en',
    storeFile: async (source, file: StoredFileOptions) => {
      const bytes = await bytesOf(source);
      const hash = createHash('sha256').update(bytes).digest('hex');
      const mime_type = file.mime_type ?? 'application/octet-stream';
      ctx.files.set(hash, { name: file.name, mime_type, bytes });
      return { value: file.name, size: bytes.length, mime_type, stored_blob: hash };
    },
  };
  return ctx;
}
