import assert from 'node:assert/strict';
import { joinDepotPath, splitDepotPath } from './depot-path';

describe('depot path (spec 001 §5.1)', () => {
  it('splits at the last slash into folder and depot name', () => {
    assert.deepEqual(splitDepotPath('Projekte/Hamburg/Pegel'), { folder: 'Projekte/Hamburg', name: 'Pegel' });
    assert.deepEqual(splitDepotPath('Pegel'), { folder: '', name: 'Pegel' });
    assert.deepEqual(splitDepotPath('Projekte/'), { folder: 'Projekte', name: '' });
    assert.deepEqual(splitDepotPath('/Pegel'), { folder: '', name: 'Pegel' });
  });

  it('joins folder and name back, the root giving the name alone', () => {
    assert.equal(joinDepotPath({ folder: 'Projekte/Hamburg', name: 'Pegel' }), 'Projekte/Hamburg/Pegel');
    assert.equal(joinDepotPath({ folder: '', name: 'Pegel' }), 'Pegel');
  });
});
