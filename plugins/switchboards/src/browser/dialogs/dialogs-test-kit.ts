/** Fixtures of the dialogs' jsdom specs. Import it after ../switchboards-test-kit (which installs the DOM). */
import { ConfigStore, definePlugin, RouteContribution, type RouteContribution as RC } from '@werkbank/sdk/browser';
import type { BootedWorkbench } from '@werkbank/testing/browser';
import type { ComponentType } from '@werkbank/sdk/react';
import type { FunctionInfo, NodeRun, Port, SbNode } from '../../common/switchboard-types';

/** A plugin with one route '/probe/' rendering `component` (boot it at '/probe/'). */
export function probe(component: ComponentType) {
  const routes: RC = { registerRoutes: (r) => r.add({ id: 'probe.dialog', path: '/probe/', component }) };
  return { id: 'probe', module: definePlugin((ctx) => ctx.contribute(RouteContribution, routes)) };
}

/** Stands in for the magazine plugin: the data tab only looks at whether it is installed. */
export const magazineStandIn = { id: 'magazine', module: definePlugin(() => undefined) };

/** A port of a function or node. */
export const port = (name: string, type: string, isInput: boolean, patch: Partial<Port> = {}) => ({
  name,
  content_type: type,
  type: `/api/v1/type/${type}/`,
  is_input: isInput,
  is_optional: false,
  is_list: false,
  is_dict: false,
  default_value: null,
  ...patch,
});

/** A function `name` (namespace: its first segment) with a string input and output. */
export function fn(name: string, patch: Partial<FunctionInfo> = {}): FunctionInfo {
  return {
    name,
    resource_uri: `/api/v1/function/${name}/`,
    namespace: name.split('.')[0],
    version: '1',
    verbose_name: `Verbose ${name}`,
    doc: `Does ${name}.\n\nMore about it.`,
    inputs: [port('value', 'string', true)],
    outputs: [port('value', 'string', false)],
    favored: false,
    hidden: false,
    superuser_required: false,
    plugin: 'basic-functions',
    ...patch,
  };
}

export function node(patch: Partial<SbNode> = {}): SbNode {
  return {
    id: 7,
    resource_uri: '/api/v1/node/7/',
    switchboard: '/api/v1/switchboard/1/',
    func: 'string.upper',
    func_verbose_name: 'Upper case',
    func_doc: 'Turns text into upper case.',
    func_available: true,
    superuser_required: false,
    status: 'success',
    status_changed: '2026-11-20T10:00:05Z',
    outdated: false,
    ports: [port('value', 'string', true, { default_value: { value: 'abc' } }), port('result', 'string', false)],
    ui_x: 0,
    ui_y: 0,
    ui_collapsed: false,
    runinfo: { progress: 100, count: 1, exception: null },
    last_run: null,
    ...patch,
  };
}

export function run(id: number, status: NodeRun['status'], patch: Partial<NodeRun> & Record<string, unknown> = {}) {
  return {
    id,
    resource_uri: `/api/v1/noderun/${id}/`,
    status,
    start: '2026-11-20T10:00:00Z',
    end: '2026-11-20T10:00:02.500Z',
    user: '/api/v1/user/1/',
    user_name: 'alice',
    stacktrace: status === 'failure' ? 'Error: boom\n    at run (test-functions.ts:50:13)' : null,
    exception: status === 'failure' ? 'boom' : null,
    skipped: false,
    func: 'string.upper',
    replayable: true,
    ...patch,
  };
}

/** Dispatches a key on `el` the way React hears it. */
export function press(el: Element, key: string, init: KeyboardEventInit = {}): void {
  el.dispatchEvent(new window.KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
}

export function dblclick(el: Element): void {
  el.dispatchEvent(new window.MouseEvent('dblclick', { bubbles: true }));
}

/** Changes the booted workbench's configuration (the superuser flag, component switches) while it runs. */
export function reconfigure(
  booted: BootedWorkbench,
  patch: { isSuperuser?: boolean; components?: Record<string, boolean> },
): void {
  const store = booted.workbench.kernel.container.get<ConfigStore>(ConfigStore);
  const c = store.config;
  store.update({
    ...c,
    auth: { ...c.auth, is_superuser: patch.isSuperuser ?? c.auth.is_superuser },
    components: { ...c.components, ...patch.components },
  });
}
