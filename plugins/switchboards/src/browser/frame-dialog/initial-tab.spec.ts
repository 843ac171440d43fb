import assert from 'node:assert/strict';
import { availableTabs, initialTab, type TabFacts } from './initial-tab';

const facts = (patch: Partial<TabFacts>): TabFacts => ({
  kind: 'row',
  count: 0,
  readOnly: false,
  hideFrameSettings: false,
  creatable: true,
  ...patch,
});

describe('frame dialog tab rules (spec 001 §2.6)', () => {
  it('more than one datum: Table for table-capable types, else Cards', () => {
    assert.equal(initialTab(facts({ count: 2 })), 'table');
    assert.equal(initialTab(facts({ count: 2, kind: 'value' })), 'table');
    assert.equal(initialTab(facts({ count: 5, kind: 'other' })), 'cards');
  });

  it('exactly one: Single', () => {
    assert.equal(initialTab(facts({ count: 1, kind: 'other' })), 'single');
    assert.equal(initialTab(facts({ count: 1, kind: 'file' })), 'single');
  });

  it('none: Upload for a writable file frame, Single for types made by hand, else Table or Cards', () => {
    assert.equal(initialTab(facts({ kind: 'file', creatable: false })), 'upload');
    assert.equal(initialTab(facts({ kind: 'file', creatable: false, readOnly: true })), 'table');
    assert.equal(initialTab(facts({ kind: 'value' })), 'single');
    assert.equal(initialTab(facts({ kind: 'value', readOnly: true })), 'table');
    assert.equal(initialTab(facts({ kind: 'other', creatable: false })), 'cards');
  });

  it('a requested tab wins only when offered', () => {
    assert.equal(initialTab(facts({ count: 3 }), 'settings'), 'settings');
    assert.equal(initialTab(facts({ count: 3, hideFrameSettings: true }), 'settings'), 'table');
    assert.equal(initialTab(facts({ count: 3, kind: 'value' }), 'upload'), 'table');
  });

  it('offers Upload for writable file frames only, Settings unless hidden', () => {
    assert.deepEqual(availableTabs(facts({ kind: 'file' })), ['single', 'cards', 'table', 'upload', 'settings']);
    assert.deepEqual(availableTabs(facts({ kind: 'file', readOnly: true, hideFrameSettings: true })), [
      'single',
      'cards',
      'table',
    ]);
  });

  it('offers the read-only Map tab for feature frames only (issue 16)', () => {
    assert.deepEqual(availableTabs(facts({ kind: 'feature' })), ['single', 'cards', 'table', 'map', 'settings']);
    assert.equal(availableTabs(facts({ kind: 'row' })).includes('map'), false);
    assert.equal(initialTab(facts({ kind: 'feature', count: 4 }), 'map'), 'map');
    assert.equal(initialTab(facts({ kind: 'value', count: 4 }), 'map'), 'table');
  });
});
