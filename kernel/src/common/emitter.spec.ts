import assert from 'node:assert/strict';
import { Emitter } from './emitter';

describe('Emitter', () => {
  it('calls listeners synchronously in subscription order', () => {
    const emitter = new Emitter<number>();
    const log: string[] = [];
    emitter.event((n) => log.push(`a${n}`));
    emitter.event((n) => log.push(`b${n}`));
    emitter.fire(1);
    assert.deepEqual(log, ['a1', 'b1']);
    emitter.dispose();
  });

  it('stops calling a listener once its subscription is disposed', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    const subscription = emitter.event((n) => seen.push(n));
    emitter.fire(1);
    subscription.dispose();
    emitter.fire(2);
    assert.deepEqual(seen, [1]);
    assert.equal(emitter.listenerCount, 0);
  });

  it('removes only the disposed subscription when the same listener is subscribed twice', () => {
    const emitter = new Emitter<void>();
    let calls = 0;
    const listener = () => calls++;
    const first = emitter.event(listener);
    emitter.event(listener);
    first.dispose();
    emitter.fire();
    assert.equal(calls, 1);
    assert.equal(emitter.listenerCount, 1);
    emitter.dispose();
  });

  it('removes every listener when the emitter is disposed', () => {
    const emitter = new Emitter<string>();
    const seen: string[] = [];
    emitter.event((s) => seen.push(s));
    emitter.event((s) => seen.push(s));
    emitter.dispose();
    emitter.fire('after');
    assert.deepEqual(seen, []);
    assert.equal(emitter.listenerCount, 0);
  });

  it('still calls every listener of a fire when one disposes another during it', () => {
    const emitter = new Emitter<void>();
    const log: string[] = [];
    emitter.event(() => {
      log.push('first');
      second.dispose();
    });
    const second = emitter.event(() => log.push('second'));
    emitter.fire();
    emitter.fire();
    assert.deepEqual(log, ['first', 'second', 'first']);
    emitter.dispose();
  });
});
