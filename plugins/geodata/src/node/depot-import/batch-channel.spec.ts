import assert from 'node:assert/strict';
import { BatchChannel, ConsumerStopped } from './batch-channel';

describe('BatchChannel', () => {
  it('hands every batch over in order and starts the producer only on the first pull', async () => {
    let started = false;
    const channel = new BatchChannel<number>(async (push) => {
      started = true;
      for (let i = 0; i < 5; i++) await push(i);
    });
    assert.equal(started, false);
    const got: number[] = [];
    for await (const n of channel) got.push(n);
    assert.deepEqual(got, [0, 1, 2, 3, 4]);
    await channel.settled();
  });

  it('lets the producer run at most `capacity` batches ahead of the consumer', async () => {
    let pushed = 0;
    const channel = new BatchChannel<number>(async (push) => {
      for (let i = 0; i < 4; i++) {
        await push(i);
        pushed++;
      }
    }, 1);
    const ahead: number[] = [];
    let pulled = 0;
    for await (const _ of channel) {
      pulled++;
      // Give the producer every chance to run ahead.
      await new Promise((resolve) => setImmediate(resolve));
      ahead.push(pushed - pulled);
    }
    assert.ok(Math.max(...ahead) <= 1, `ahead: ${ahead.join(',')}`);
  });

  it("throws the producer's error to the consumer", async () => {
    const broken = new Error('line 7 is broken');
    const channel = new BatchChannel<number>(async (push) => {
      await push(1);
      throw broken;
    });
    const got: number[] = [];
    await assert.rejects(
      (async () => {
        for await (const n of channel) got.push(n);
      })(),
      (e) => e === broken,
    );
    assert.deepEqual(got, [1]);
  });

  it('stops the producer with ConsumerStopped when the consumer leaves early', async () => {
    let stoppedWith: unknown;
    const channel = new BatchChannel<number>(async (push) => {
      try {
        for (let i = 0; ; i++) await push(i);
      } catch (e) {
        stoppedWith = e;
        throw e;
      }
    });
    for await (const n of channel) if (n === 2) break;
    await channel.settled();
    assert.ok(stoppedWith instanceof ConsumerStopped);
    assert.equal((stoppedWith as Error).message, 'the consumer of the batches stopped');
  });

  it('settles only when the producer has finished its work after the consumer left', async () => {
    let closed = false;
    const channel = new BatchChannel<number>(async (push) => {
      try {
        for (let i = 0; ; i++) await push(i);
      } finally {
        // A producer closes what it read from, which takes turns of the event loop.
        await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setImmediate(resolve));
        closed = true;
      }
    });
    for await (const n of channel) if (n === 1) break;
    await channel.settled();
    assert.equal(closed, true);
  });
});
