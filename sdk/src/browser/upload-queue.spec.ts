import assert from 'node:assert/strict';
import { UPLOAD_LIMIT_BYTES, UploadQueue, type UploadFile } from './upload-queue';
import type { UploadPart, UploadReply } from './upload-transport';

const file = (name: string, size = 8) => ({ name, size }) as unknown as UploadFile;
const settle = () => new Promise((r) => setTimeout(r, 0));

/** Answers each file by name: a reply, or a rejection (no connection); records the order of sending. */
function transport(replies: Record<string, UploadReply | 'network'>) {
  const sent: string[] = [];
  return {
    sent,
    async send(url: string, parts: UploadPart[]): Promise<UploadReply> {
      const name = parts[0][1] as string;
      sent.push(`${url} ${name}`);
      const reply = replies[name];
      if (reply === 'network') throw new Error('network');
      return reply;
    },
  };
}

describe('UploadQueue (files one after another)', () => {
  it('sends in order, marks each file by the reply, and calls back per accepted file and when idle', async () => {
    const t = transport({
      'a.csv': { status: 201, statusText: 'Created', text: '{}' },
      'b.csv': { status: 409, statusText: 'Conflict', text: JSON.stringify({ status: 'error', reason: 'Schon da.' }) },
      'c.csv': 'network',
    });
    const events: string[] = [];
    const queue = new UploadQueue({
      transport: t,
      url: () => '/up/',
      onUploaded: () => events.push('uploaded'),
      onIdle: () => events.push('idle'),
    });
    queue.add([file('a.csv'), file('b.csv'), file('c.csv'), file('huge.tif', UPLOAD_LIMIT_BYTES + 1)]);
    await settle();
    assert.deepEqual(t.sent, ['/up/ a.csv', '/up/ b.csv', '/up/ c.csv'], 'the file over the limit is never sent');
    assert.deepEqual(
      queue.items.map((i) => [i.path, i.status, i.reason ?? i.refusal ?? '']),
      [
        ['a.csv', 'success', ''],
        ['b.csv', 'failed', 'Schon da.'],
        ['c.csv', 'failed', 'network'],
        ['huge.tif', 'failed', 'too_large'],
      ],
    );
    assert.deepEqual(events, ['uploaded', 'idle']);
    assert.equal(queue.running, false);
    queue.clearFinished();
    assert.deepEqual(queue.items, []);
  });

  it('sends nothing before prepare resolves, and fails the waiting files with its message when it rejects', async () => {
    const t = transport({});
    const queue = new UploadQueue({
      transport: t,
      url: () => '/up/',
      prepare: () => Promise.reject(new Error('Keine Upload-ID.')),
    });
    queue.add([file('a.csv'), file('b.csv')]);
    await settle();
    assert.deepEqual(t.sent, []);
    assert.deepEqual(
      queue.items.map((i) => `${i.status}: ${i.reason}`),
      ['failed: Keine Upload-ID.', 'failed: Keine Upload-ID.'],
    );
  });
});
