import assert from 'node:assert/strict';
import { LiveRunTrigger, RUN_REQUEST_CHANNEL } from './live-run-trigger';
import { testBus, type TestBus } from './live-test-bus';

describe('geodata live datasets: LiveRunTrigger', () => {
  let bus: TestBus;
  let running: boolean;
  let trigger: LiveRunTrigger;
  const logs: string[] = [];

  beforeEach(() => {
    bus = testBus();
    running = false;
    trigger = new LiveRunTrigger({
      bus,
      isRunning: async () => running,
      log: (m) => logs.push(m),
      debounceMs: 1,
      recheckMs: 60_000,
    });
  });
  afterEach(() => trigger.dispose());

  const requests = () => bus.published.filter((m) => m.channel === RUN_REQUEST_CHANNEL).map((m) => m.payload);

  it('asks once for a burst of news, running from the changed node on', async () => {
    trigger.notify(5, 50);
    trigger.notify(5, 50);
    trigger.notify(5, 50);
    assert.deepEqual(await bus.next(RUN_REQUEST_CHANNEL), { switchboard_id: 5, node_id: 50 });
    assert.equal(requests().length, 1);
  });

  it('runs the whole switchboard when several of its nodes have news, and switchboards separately', async () => {
    trigger.notify(5, 50);
    trigger.notify(5, 51);
    trigger.notify(6, 60);
    const got = [await bus.next(RUN_REQUEST_CHANNEL), await bus.next(RUN_REQUEST_CHANNEL)];
    assert.deepEqual(
      got.sort((a, b) => Number(a.switchboard_id) - Number(b.switchboard_id)),
      [{ switchboard_id: 5 }, { switchboard_id: 6, node_id: 60 }],
    );
  });

  it('never asks while the switchboard runs: news waits for the end of the execution, then runs once', async () => {
    trigger.notify(5, 50);
    await bus.next(RUN_REQUEST_CHANNEL);
    running = true;
    trigger.onSwitchboardStatus(5, 'started');
    trigger.notify(5, 50);
    trigger.notify(5, 50);
    assert.equal(requests().length, 1, 'no second request while the first run is under way');
    running = false;
    trigger.onSwitchboardStatus(5, 'success');
    assert.deepEqual(await bus.next(RUN_REQUEST_CHANNEL), { switchboard_id: 5, node_id: 50 });
    assert.equal(requests().length, 2);
  });

  it('waits for a run it did not start (a manual run) before asking', async () => {
    running = true;
    trigger.dispose();
    let looked!: () => void;
    const lookedAt = new Promise<void>((resolve) => (looked = resolve));
    trigger = new LiveRunTrigger({
      bus,
      isRunning: async () => {
        looked();
        return running;
      },
      log: (m) => logs.push(m),
      debounceMs: 1,
      recheckMs: 60_000,
    });
    trigger.notify(7, 70);
    await lookedAt;
    assert.equal(requests().length, 0);
    running = false;
    trigger.onSwitchboardStatus(7, 'failure');
    assert.deepEqual(await bus.next(RUN_REQUEST_CHANNEL), { switchboard_id: 7, node_id: 70 });
  });

  it('looks at the status again when the end of a run is not heard', async () => {
    trigger.dispose();
    trigger = new LiveRunTrigger({ bus, isRunning: async () => running, log: (m) => logs.push(m), debounceMs: 1, recheckMs: 5 });
    trigger.notify(8, 80);
    await bus.next(RUN_REQUEST_CHANNEL);
    trigger.notify(8, 81);
    // No live message comes; the recheck finds the switchboard idle and lets the news run.
    assert.deepEqual(await bus.next(RUN_REQUEST_CHANNEL), { switchboard_id: 8, node_id: 81 });
  });
});
