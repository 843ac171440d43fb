import type { AuthUser, FunctionRunContext } from '@werkbank/sdk/node';

/** A run context for calling the tabular functions directly in tests: records progress and log lines. */
export interface FakeRunContext extends FunctionRunContext {
  controller: AbortController;
  progresses: number[];
  logs: string[];
}

const TEST_USER: AuthUser = {
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
    progress: (f) => ctx.progresses.push(f),
    log: (m) => ctx.logs.push(m),
    user: TEST_USER,
    nodeRunId: 42,
    recordRead: () => {},
    recordWrite: () => {},
    lang: 'en',
  };
  return ctx;
}
