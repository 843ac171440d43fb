import type { AuthUser, FunctionRunContext } from '@werkbank/sdk/node';

/** A run context for calling functions directly in tests: records progress, log lines and reads. */
export interface FakeRunContext extends FunctionRunContext {
  controller: AbortController;
  progresses: number[];
  logs: string[];
  reads: Array<{ depot_id: number; moment_id: number }>;
  writes: Array<{ depot_id: number; moment_id: number }>;
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

export function fakeRunContext(): FakeRunContext {
  const controller = new AbortController();
  const ctx: FakeRunContext = {
    controller,
    signal: controller.signal,
    progresses: [],
    logs: [],
    reads: [],
    writes: [],
    progress: (f) => ctx.progresses.push(f),
    log: (m) => ctx.logs.push(m),
    user: TEST_USER,
    nodeRunId: 42,
    recordRead: (r) => ctx.reads.push(r),
    recordWrite: (w) => ctx.writes.push(w),
    lang: 'en',
  };
  return ctx;
}
