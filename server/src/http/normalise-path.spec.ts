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

  it('decodes only escapes of unreserved characters and writes every other escape in upper case', () => {
    assert.equal(normalisePath('/docs/%7Een%2d%5F%2E%30'), '/docs/~en-_.0');
    assert.equal(normalisePath('/docs/a%20b%3ac%25%2fd'), '/docs/a%20b%3Ac%25%2Fd');
  });

  it('ends an address whose last segment is a dot segment with a slash, as the folder it names', () => {
    assert.equal(normalisePath('/docs/en/.'), '/docs/en/');
    assert.equal(normalisePath('/docs/en/..'), '/docs/');
    assert.equal(normalisePath('/docs/en/%2E%2E'), '/docs/');
    assert.equal(normalisePath('/..'), '/');
  });

  it('adds the trailing slash only to addresses under /api/, not to others that contain /api/', () => {
    assert.equal(normalisePath('/services/ogc/api/conformance'), '/services/ogc/api/conformance');
    assert.equal(normalisePath('/docs/api/overview'), '/docs/api/overview');
    assert.equal(normalisePath('/api/openapi.json'), '/api/openapi.json');
  });
});
