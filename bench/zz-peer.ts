import { startMapServer } from './mapserver-peer';
const peer = await startMapServer('/tmp/ms-SfqylT', '/tmp/ms-SfqylT/bench.map', 1);
console.log(peer.url);
await new Promise((r) => setTimeout(r, 600_000));
await peer.stop();
export {};
