import assert from 'node:assert/strict';
import { safeImageUrl } from './safe-image-url';

describe('workflow image addresses', () => {
  const origin = 'https://werkbank.example';
  it('loads absolute http(s) images and read-only API addresses of this server', () => {
    assert.equal(safeImageUrl('https://cdn.example/a.png', origin), 'https://cdn.example/a.png');
    assert.equal(
      safeImageUrl('/api/v1/frame/1/file/ab/embed/', origin),
      'https://werkbank.example/api/v1/frame/1/file/ab/embed/',
    );
  });
  it('refuses other schemes and same-origin pages that change state', () => {
    assert.equal(safeImageUrl('javascript:alert(1)', origin), undefined);
    assert.equal(safeImageUrl('data:image/svg+xml,<svg/>', origin), undefined);
    assert.equal(safeImageUrl('/accounts/logout/', origin), undefined);
    assert.equal(safeImageUrl('https://werkbank.example/accounts/logout/', origin), undefined);
    assert.equal(safeImageUrl('', origin), undefined);
  });
});
