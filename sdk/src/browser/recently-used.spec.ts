import { testConfig } from '@werkbank/testing/browser';
import assert from 'node:assert/strict';
import { ObservableConfigStore, PersistedNavigationStore } from '@werkbank/kernel/browser';
import { RecentlyUsedList } from './recently-used';

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
    clear: () => data.clear(),
    key: (i) => [...data.keys()][i] ?? null,
    get length() {
      return data.size;
    },
  };
}

describe('RecentlyUsedList (spec 000 §9)', () => {
  it('keeps the newest `limit` entries per user, moves a reopened one to the front, and survives a reload', () => {
    const storage = memoryStorage();
    const kim = new ObservableConfigStore(testConfig());
    const list = new RecentlyUsedList(new PersistedNavigationStore(storage), kim, 'depot_mru', 4);
    for (const id of [1, 2, 3, 4, 5]) list.touch({ id, name: `D${id}` });
    list.touch({ id: 3, name: 'D3 renamed' });
    assert.deepEqual(
      list.entries.map((e) => e.name),
      ['D3 renamed', 'D5', 'D4', 'D2'],
    );
    const other = new ObservableConfigStore(testConfig({ auth: { ...testConfig().auth, user: '/api/v1/user/2/' } }));
    const reloaded = new PersistedNavigationStore(storage);
    assert.equal(new RecentlyUsedList(reloaded, other, 'depot_mru', 4).entries.length, 0, 'another user has their own list');
    const again = new RecentlyUsedList(reloaded, kim, 'depot_mru', 4);
    again.remove(5);
    assert.deepEqual(
      again.entries.map((e) => e.id),
      [3, 4, 2],
    );
  });
});
