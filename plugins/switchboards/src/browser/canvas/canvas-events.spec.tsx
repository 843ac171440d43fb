import { boot, type BootedWorkbench } from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { probe } from '../dialogs/dialogs-test-kit';
import type { CanvasController } from './canvas-controller';
import { useViewerMessages } from './canvas-events';
import { useEffect } from '@werkbank/sdk/react';

const calls: string[] = [];
const controller = {
  run: () => calls.push('run'),
  openDialog: (d: { kind: string; mode?: string }) => calls.push(`${d.kind}:${d.mode ?? ''}`),
} as unknown as CanvasController;
const noFrame = { current: null };

/** Resolves once the probe's effects ran, so its message listener is in place. */
let listening: () => void = () => undefined;

function Probe() {
  useViewerMessages(controller, noFrame, 'https://viewer.example');
  // Effects run in the order they are declared: this one runs after the hook added its listener.
  useEffect(() => listening(), []);
  return null;
}

/** Posts a message as if from `origin` (jsdom's postMessage always uses the page's own origin). */
const post = (data: unknown, origin = window.location.origin) =>
  window.dispatchEvent(new window.MessageEvent('message', { data, origin, source: null }));

/** Boots the probe and waits until its listener is in place (React runs effects when it can). */
async function bootProbe(): Promise<BootedWorkbench> {
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const b = await boot('/probe/', {}, [probe(Probe)]);
  await ready;
  return b;
}

describe('canvas: messages from the embedded viewer (spec 000 §2)', () => {
  let booted: BootedWorkbench | undefined;
  beforeEach(() => (calls.length = 0));
  afterEach(async () => booted?.unmount());

  it('dispatches switchboard_action with its name and args, as an object or a list', async () => {
    booted = await bootProbe();
    post({ type: 'switchboard_action', action: 'run', args: [] });
    post(['switchboard_action', 'insert', ['data']]);
    assert.deepEqual(calls, ['run', 'insert:data']);
  });

  it('ignores other origins (also the viewer’s, unless it is the preview frame), unknown actions and other messages', async () => {
    booted = await bootProbe();
    post({ type: 'switchboard_action', action: 'run', args: [] }, 'https://evil.example');
    post({ type: 'switchboard_action', action: 'run', args: [] }, 'https://viewer.example');
    post({ type: 'switchboard_action', action: 'constructor', args: [] });
    post({ type: 'something_else', action: 'run' });
    assert.deepEqual(calls, []);
  });
});
