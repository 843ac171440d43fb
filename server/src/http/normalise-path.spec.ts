import assert from 'node:assert/strict';
import { normalisePath } from './normalise-path';

describe('normalisePath', () => {
  it('collapses slashes, removes dot segments and decodes escaped unreserved characters', () => {
    assert.equal(normalisePath('/api/v1/moment/3/finalize//'), '/api/v1/moment/3/finalize/');
    assert.equal(normalisePath('//api///v1/moment/3/finalize'), '/api/v1/moment/3/finalize/');
    assert.equal(normalisePath('/api/v1/moment/3/x/../finalize/./'), '/api/v1/moment/3/finalize/');
    assert.equal(normalisePath('/api/v1/moment/3/%66inalize/'), '/api/v1/moment/3/finalize/');
    assert.equal(normalisePath('/api/v1/moment/3/fin%61lize%2f'), '/api/v1/moment/3/finalize%2F/');
    assert.equal(normalisePath('/../../etc/passwd'), '/etc/passwd');
  });

  it('keeps other addresses and the letter case as they are', () => {
    assert.equal(normalisePath('/'), '/');
    assert.equal(normalisePath('/docs/en/manual.md'), '/docs/en/manual.md');
    assert.equal(normalisePath('/assets/app.js'), '/assets/app.js');
    assert.equal(normalisePath('/api/v1/greeting/1/FAVOR'), '/api/v1/greeting/1/FAVOR/');
    assert.equal(normalisePath('/api/v2/backend/tags'), '/api/v2/backend/tags/');
    assert.equal(normalisePath('/api/v1/datum/by-depot/3/%C3%A4'), '/api/v1/datum/by-depot/3/%C3%A4/');
  });
});
