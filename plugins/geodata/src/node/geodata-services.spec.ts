import assert from 'node:assert/strict';
import { GeodataServices } from './geodata-services';

describe('geodata services', () => {
  it('hands on a log function that writes to the server log, also when taken off the object', () => {
    const lines: string[] = [];
    const services = Object.assign(new GeodataServices(), { logger: { log: (m: string) => lines.push(m) } });
    const { log } = services;
    log('live dataset 3: polled');
    assert.deepEqual(lines, ['live dataset 3: polled']);
  });
});
