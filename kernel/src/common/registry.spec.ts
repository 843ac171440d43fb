import assert from 'node:assert/strict';
import { DuplicateRegistrationError, Registry, sinkFor, type Registered } from './registry';

interface Item extends Registered {
  value: number;
}

describe('Registry', () => {
  let registry: Registry<Item>;

  beforeEach(() => {
    registry = new Registry<Item>('thing');
  });

  it('remembers the plugin that registered each item', () => {
    const a = registry.add({ id: 'core.a', value: 1 }, 'core');
    const b = sinkFor(registry, 'maps').add({ id: 'maps.b', value: 2 });
    assert.equal(registry.ownerOf('core.a'), 'core');
    assert.equal(registry.ownerOf('maps.b'), 'maps');
    assert.equal(registry.get('maps.b')?.value, 2);
    [a, b].forEach((d) => d.dispose());
  });

  it('refuses a duplicate id, naming the kind, the id and both plugins', () => {
    const first = registry.add({ id: 'core.a', value: 1 }, 'core');
    assert.throws(
      () => registry.add({ id: 'core.a', value: 2 }, 'maps'),
      (e: unknown) => {
        assert.ok(e instanceof DuplicateRegistrationError);
        assert.equal(e.message, "Duplicate thing 'core.a': registered by plugin 'core' and again by plugin 'maps'");
        return true;
      },
    );
    assert.equal(registry.get('core.a')?.value, 1);
    first.dispose();
  });

  it('removes an item when its registration is disposed, and only that registration', () => {
    const first = registry.add({ id: 'core.a', value: 1 }, 'core');
    first.dispose();
    assert.deepEqual(registry.all(), []);
    const second = registry.add({ id: 'core.a', value: 2 }, 'core');
    first.dispose();
    assert.equal(registry.get('core.a')?.value, 2);
    second.dispose();
  });

  it('fires onDidChange on each add and removal', () => {
    let changes = 0;
    const listening = registry.onDidChange(() => changes++);
    const added = registry.add({ id: 'core.a', value: 1 });
    added.dispose();
    assert.equal(changes, 2);
    listening.dispose();
  });
});
