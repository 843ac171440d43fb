import { boot, type BootedWorkbench } from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { probe } from '../dialogs/dialogs-test-kit';
import type { CanvasController } from './canvas-controller';
import { useViewerMessages } from './canvas-events';

const calls: string[] = [];
const controller = {
  run: () => calls.push('run'),
  openDialog: (d: { kind: string; mode?: string }) => calls.push(`${d.kind}:${d.mode ?? ''}`),
} as unknown as CanvasController;
const noFrame = { current: null };

function Probe() {
  useViewerMessages(controller, noFrame, 'https://viewer.example');
  return null;
}

/** Posts a message as if from `origin` (jsdom's postMessage always uses the page's own origin). */
const post = (data: unknown, origin = window.location.origin) =>
  window.dispatchEvent(new window.MessageEvent('message', { data, origin, source: null }));

/** Lets React run the probe's effects (its listener is added in one). */
const effects = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('canvas: messages from the embedded viewer (spec 000 §2)', () => {
  let booted: BootedWorkbench | undefined;
  beforeEach(() => (calls.length = 0));
  afterEach(async () => booted?.unmount());

  it('dispatches switchboard_action with its name and args, as an object or a list', async () => {
    booted = await boot('/probe/', {}, [probe(Probe)]);
    await effects();
    post({ type: 'switchboard_action', action: 'run', args: [] });
    post(['switchboard_action', 'insert', ['data']]);
    assert.deepEqual(calls, ['run', 'insert:data']);
  });

  it('ignores other origins (also the viewer’s, unless it is the preview frame), unknown actions and other messages', async () => {
    booted = await boot('/probe/', {}, [probe(Probe)]);
    await effects();
    post({ type: 'switchboard_action', action: 'run', args: [] }, 'https://evil.example');
    post({ type: 'switchboard_action', action: 'run', args: [] }, 'https://viewer.example');
    post({ type: 'switchboard_action', action: 'constructor', args: [] });
    post({ type: 'something_else', action: 'run' });
    assert.deepEqual(calls, []);
  });
});
