import assert from 'node:assert/strict';
import { batchReady, batchStatus, type FileUploadStatus } from './upload-status';

const files = (...statuses: FileUploadStatus[]) => statuses.map((status) => ({ status }));

describe('upload batch status (spec 000 §2, docs/api.md "Uploads")', () => {
  it('is started while a file waits or uploads, or before any finished', () => {
    assert.equal(batchStatus(files()), 'started');
    assert.equal(batchStatus(files('success', 'uploading')), 'started');
    assert.equal(batchStatus(files('failed', 'queued')), 'started');
  });

  it('fails with more than one failed file or without any success; otherwise succeeds', () => {
    assert.equal(batchStatus(files('success', 'failed')), 'success');
    assert.equal(batchStatus(files('success', 'failed', 'failed')), 'failure');
    assert.equal(batchStatus(files('failed')), 'failure');
    assert.equal(batchStatus(files('success')), 'success');
  });

  it('is ready once one file succeeded', () => {
    assert.equal(batchReady(files('failed', 'uploading')), false);
    assert.equal(batchReady(files('failed', 'success')), true);
  });
});
