import assert from 'node:assert/strict';
import { ConnectionGesture, type SocketRef } from './connection-gesture';

const frameOut: SocketRef = { uri: '/api/v1/frame/1/', key: 'out', side: 'output' };
const nodeIn: SocketRef = { uri: '/api/v1/node/2/', key: 'value', side: 'input' };
const nodeOut: SocketRef = { uri: '/api/v1/node/2/', key: 'result', side: 'output' };

/** The gesture with recording handlers. */
function record() {
  const calls: string[] = [];
  const gesture = new ConnectionGesture({
    onConnect: (from, to, replacing) => calls.push(`connect ${from.uri}→${to.uri} replacing [${replacing.join(',')}]`),
    onDisconnect: (uri) => calls.push(`disconnect ${uri}`),
    onDropLink: (from) => calls.push(`drop ${from.uri} ${from.key}`),
  });
  return { gesture, calls };
}

describe('canvas: one connection gesture (issue 14 item 10)', () => {
  it('a connection onto a taken input deletes nothing itself: the old link goes along to the connect', () => {
    const { gesture, calls } = record();
    // Rete takes the input's link off, then asks for the new one, then ends the gesture.
    gesture.removed('/api/v1/link/9/');
    gesture.created(frameOut, nodeIn);
    gesture.dropped(frameOut, nodeIn, true);
    assert.deepEqual(calls, ['connect /api/v1/frame/1/→/api/v1/node/2/ replacing [/api/v1/link/9/]']);
  });

  it('the end of the gesture may arrive before the connection Rete asks for: still no disconnect', () => {
    const { gesture, calls } = record();
    gesture.removed('/api/v1/link/9/');
    gesture.dropped(frameOut, nodeIn, true);
    gesture.created(frameOut, nodeIn);
    assert.deepEqual(calls, ['connect /api/v1/frame/1/→/api/v1/node/2/ replacing [/api/v1/link/9/]']);
  });

  it('a link pulled off its input and dropped nowhere is disconnected', () => {
    const { gesture, calls } = record();
    gesture.removed('/api/v1/link/9/');
    gesture.dropped(frameOut, null, false);
    assert.deepEqual(calls, ['disconnect /api/v1/link/9/']);
  });

  it('a link drawn from a port and let go over empty canvas offers a frame, and nothing else', () => {
    const { gesture, calls } = record();
    gesture.dropped(nodeOut, null, false);
    assert.deepEqual(calls, ['drop /api/v1/node/2/ result']);
  });

  it('starts every gesture afresh', () => {
    const { gesture, calls } = record();
    gesture.removed('/api/v1/link/9/');
    gesture.created(frameOut, nodeIn);
    gesture.created(frameOut, nodeIn);
    assert.deepEqual(calls, [
      'connect /api/v1/frame/1/→/api/v1/node/2/ replacing [/api/v1/link/9/]',
      'connect /api/v1/frame/1/→/api/v1/node/2/ replacing []',
    ]);
  });
});
