import assert from 'node:assert/strict';
import { PluginLoadError, definePlugin, selectPlugins, sortPlugins, type PluginManifest } from './plugin';

/** An entry as discovery gives it: the manifest only. */
const p = (id: string, requires: string[] = [], optional: string[] = []): { manifest: PluginManifest } => ({
  manifest: { id, requires, optional },
});

const ids = (entries: { manifest: PluginManifest }[]) => entries.map((e) => e.manifest.id);

/** Runs `fn` and returns the PluginLoadError it throws (fails when it throws nothing else). */
function loadError(fn: () => unknown): PluginLoadError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof PluginLoadError, `expected a PluginLoadError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a PluginLoadError');
}

describe('sortPlugins', () => {
  it('loads every plugin after the plugins it requires', () => {
    const sorted = sortPlugins([p('app', ['ui', 'core']), p('ui', ['core']), p('core')]);
    assert.deepEqual(ids(sorted), ['core', 'ui', 'app']);
  });

  it('loads a present optional plugin first and ignores an absent one', () => {
    const sorted = sortPlugins([p('maps', [], ['tags', 'not-installed']), p('tags')]);
    assert.deepEqual(ids(sorted), ['tags', 'maps']);
  });

  it('keeps the given order among plugins that do not depend on each other', () => {
    assert.deepEqual(ids(sortPlugins([p('c'), p('a'), p('b')])), ['c', 'a', 'b']);
    assert.deepEqual(ids(sortPlugins([p('z', ['core']), p('y', ['core']), p('core')])), ['core', 'z', 'y']);
  });

  it('refuses a missing requirement, naming the plugin and what it requires', () => {
    const err = loadError(() => sortPlugins([p('core'), p('maps', ['geometry'])]));
    assert.match(err.message, /'maps'/);
    assert.match(err.message, /'geometry'/);
    assert.deepEqual(err.plugins, ['maps']);
  });

  it('refuses a plugin installed twice, naming it', () => {
    const err = loadError(() => sortPlugins([p('core'), p('tags'), p('core')]));
    assert.match(err.message, /'core'/);
    assert.deepEqual(err.plugins, ['core']);
  });

  it('refuses a cycle, naming every plugin in it in order', () => {
    const err = loadError(() => sortPlugins([p('a', ['b']), p('b', ['c']), p('c', ['a'])]));
    assert.match(err.message, /a → b → c → a/);
    assert.deepEqual(err.plugins, ['a', 'b', 'c']);
  });

  it('refuses a cycle through a present optional plugin, leaving plugins outside the cycle unnamed', () => {
    const err = loadError(() => sortPlugins([p('core'), p('x', ['core', 'y']), p('y', [], ['x'])]));
    assert.match(err.message, /x → y → x/);
    assert.deepEqual(err.plugins, ['x', 'y']);
  });

  it('refuses a plugin that requires itself', () => {
    const err = loadError(() => sortPlugins([p('a', ['a'])]));
    assert.match(err.message, /a → a/);
  });
});

describe('selectPlugins', () => {
  const all = [p('core'), p('ui', ['core']), p('maps', ['ui']), p('tags', ['core']), p('extra')];

  it('loads every discovered plugin when none are chosen', () => {
    assert.deepEqual(ids(selectPlugins(all)), ids(all));
    assert.deepEqual(ids(selectPlugins(all, [])), ids(all));
  });

  it('adds the requirements of chosen plugins transitively, in discovery order', () => {
    assert.deepEqual(ids(selectPlugins(all, ['maps'])), ['core', 'ui', 'maps']);
    assert.deepEqual(ids(selectPlugins(all, ['tags', 'extra'])), ['core', 'tags', 'extra']);
  });

  it('refuses unknown chosen plugins, naming them', () => {
    const err = loadError(() => selectPlugins(all, ['maps', 'nope', 'gone']));
    assert.match(err.message, /nope, gone/);
    assert.deepEqual(err.plugins, ['nope', 'gone']);
  });
});

describe('definePlugin', () => {
  it('marks the module as a Werkbank plugin and keeps its register function', () => {
    const register = () => {};
    const module = definePlugin(register);
    assert.equal(module.werkbankPlugin, true);
    assert.equal(module.register, register);
  });
});
