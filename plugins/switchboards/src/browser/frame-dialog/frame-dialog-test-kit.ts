/** Fixtures of the frame dialog's jsdom specs. Import it after ../switchboards-test-kit (which installs the DOM). */
import { definePlugin, RouteContribution, type RouteContribution as RC } from '@werkbank/sdk/browser';
import type { PluginModule } from '@werkbank/sdk';
import type { RecordedCall } from '@werkbank/testing/browser';
import { createElement } from '@werkbank/sdk/react';
import { boot, byTestId, page } from '../switchboards-test-kit';
import type { Frame } from '../../common/switchboard-types';
import { FrameDialog, type FrameDialogProps } from './frame-dialog';
import type { FrameItem } from './frame-kind';

export const FRAME_URI = '/api/v1/frame/7/';
export const CONTENT = `${FRAME_URI}content/`;
export const TEMPLATE = '/api/v1/datum/create-in-frame/7/';

/** The server's type list (docs/api.md "type"): names with their base chains. */
export const TYPES = [
  { name: 'any', base_chain: ['any'] },
  { name: 'bbox', base_chain: ['bbox'] },
  { name: 'bool', base_chain: ['bool'] },
  { name: 'color', base_chain: ['color', 'string'] },
  { name: 'datetime', base_chain: ['datetime'] },
  { name: 'feature', base_chain: ['feature', 'object'] },
  { name: 'file', base_chain: ['file'] },
  { name: 'float', base_chain: ['float', 'number'] },
  { name: 'int', base_chain: ['int', 'number'] },
  { name: 'row', base_chain: ['row', 'dict', 'object'] },
  { name: 'string', base_chain: ['string'] },
];

/** A frame of `type` holding `size` items that the caller may change. */
export function frame(type: string, size: number, patch: Partial<Frame> & { access?: string[] } = {}): Frame {
  return {
    id: 7,
    resource_uri: FRAME_URI,
    switchboard: '/api/v1/switchboard/1/',
    content_type: `/api/v1/type/${type}/`,
    type_name: type,
    storage_context: null,
    frame_type: 0,
    name: '',
    description: '',
    content_visible: false,
    content_edit: false,
    ui_docked: false,
    ui_x: 0,
    ui_y: 0,
    size,
    text_repr: '',
    content_hash: 'a'.repeat(64),
    access: ['read', 'write'],
    ...patch,
  } as Frame;
}

/** The content pages of `items` as GET {frame}content/ answers them (offset, limit). */
export const contentOf =
  (items: FrameItem[], hash = 'a'.repeat(64)) =>
  (call: RecordedCall) => {
    const q = (call.query ?? {}) as { offset?: number; limit?: number };
    const offset = Number(q.offset ?? 0);
    const limit = Number(q.limit ?? 100);
    return {
      objects: items.slice(offset, offset + limit),
      meta: { offset, limit, total_count: items.length },
      content_hash: hash,
    };
  };

/** The routes every dialog loads: the frame, the types, its content and the type's template. */
export function frameRoutes(
  type: string,
  items: FrameItem[],
  opts: { template?: Record<string, unknown>; patch?: Partial<Frame> & { access?: string[] } } = {},
): Record<string, unknown> {
  return {
    [`GET ${FRAME_URI}`]: frame(type, items.length, opts.patch),
    'GET /api/v1/type/': page(TYPES),
    [`GET ${CONTENT}`]: contentOf(items),
    [`GET ${TEMPLATE}`]: { ...(opts.template ?? { value: '' }), content_type: `/api/v1/type/${type}/`, frame: FRAME_URI },
  };
}

/** How the dialog closed: the `saved` flags of its onClose calls. */
export const closed: boolean[] = [];

type PluginContext = Parameters<Parameters<typeof definePlugin>[0]>[0];

/**
 * Boots the workbench with a probe route rendering the frame dialog and waits until its tabs show;
 * `bind` adds bindings (e.g. a fake upload transport), `components` switches licensed components.
 */
export async function openFrameDialog(
  routes: Record<string, unknown>,
  props: Partial<Omit<FrameDialogProps, 'onClose'>> = {},
  opts: { components?: Record<string, boolean>; bind?: (ctx: PluginContext) => void } = {},
) {
  closed.length = 0;
  const component = () => createElement(FrameDialog, { frameUri: FRAME_URI, ...props, onClose: (saved) => closed.push(saved) });
  const routeSet: RC = { registerRoutes: (r) => r.add({ id: 'probe.frame-dialog', path: '/probe/', component }) };
  const module: PluginModule = definePlugin((ctx) => {
    ctx.contribute(RouteContribution, routeSet);
    opts.bind?.(ctx);
  });
  const booted = await boot('/probe/', routes, [{ id: 'probe', module }], opts.components);
  await booted.waitFor(() => !!byTestId('frame-tabs') || !!byTestId('frame-load-error'));
  return booted;
}

/** The selected tab's id ('single', 'table', …). */
export const activeTab = () =>
  document
    .querySelector('[data-testid^="frame-tab-"][aria-selected="true"]')
    ?.getAttribute('data-testid')
    ?.replace('frame-tab-', '');

/** The ids of the tabs offered. */
export const offeredTabs = () =>
  [...document.querySelectorAll('[data-testid^="frame-tab-"]')].map((e) =>
    e.getAttribute('data-testid')!.replace('frame-tab-', ''),
  );

export const rows = (n: number, make: (i: number) => FrameItem) => Array.from({ length: n }, (_, i) => make(i));
