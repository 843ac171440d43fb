import assert from 'node:assert/strict';
import { DisposableCollection } from './disposable';
import { EditorRegistry, UnknownEditorError, type EditorDescriptor } from './editor-registry';

const editor = (id: string, prefix: string, priority?: number): EditorDescriptor<string> => ({
  id,
  prefix,
  priority,
  component: id,
});

describe('EditorRegistry.resolve', () => {
  let editors: EditorRegistry<string>;

  let registered: DisposableCollection;

  beforeEach(() => {
    editors = new EditorRegistry<string>();
    registered = new DisposableCollection();
  });
  afterEach(() => registered.dispose());

  it('chooses the editor with the longest matching prefix, whatever its priority', () => {
    registered.push(editors.add(editor('core.any-resource', '/api/v1/', 100), 'core'));
    registered.push(editors.add(editor('maps.layer', '/api/v1/layer/'), 'maps'));
    registered.push(editors.add(editor('maps.layer-style', '/api/v1/layer/style/'), 'maps'));
    assert.equal(editors.resolve('/api/v1/layer/7/').id, 'maps.layer');
    assert.equal(editors.resolve('/api/v1/layer/style/3/').id, 'maps.layer-style');
    assert.equal(editors.resolve('/api/v1/dataset/1/').id, 'core.any-resource');
  });

  it('chooses the highest priority among equally long prefixes', () => {
    registered.push(editors.add(editor('a.low', '/api/v1/layer/', -1), 'a'));
    registered.push(editors.add(editor('b.high', '/api/v1/layer/', 10), 'b'));
    registered.push(editors.add(editor('c.default', '/api/v1/layer/'), 'c'));
    assert.equal(editors.resolve('/api/v1/layer/1/').id, 'b.high');
  });

  it('chooses by plugin id when prefix and priority are equal, whatever the registration order', () => {
    registered.push(editors.add(editor('zeta.layer', '/api/v1/layer/', 5), 'zeta'));
    registered.push(editors.add(editor('alpha.layer', '/api/v1/layer/', 5), 'alpha'));
    assert.equal(editors.resolve('/api/v1/layer/1/').id, 'alpha.layer');

    const reversed = new EditorRegistry<string>();
    registered.push(reversed.add(editor('alpha.layer', '/api/v1/layer/', 5), 'alpha'));
    registered.push(reversed.add(editor('zeta.layer', '/api/v1/layer/', 5), 'zeta'));
    assert.equal(reversed.resolve('/api/v1/layer/1/').id, 'alpha.layer');
  });

  it('lets a configured association win over the longest prefix and the highest priority', () => {
    registered.push(editors.add(editor('maps.layer', '/api/v1/layer/', 100), 'maps'));
    registered.push(editors.add(editor('raw.json', '/api/v1/'), 'raw'));
    editors.associate('/api/v1/layer/', 'raw.json');
    assert.equal(editors.resolve('/api/v1/layer/1/').id, 'raw.json');
  });

  it('uses the longest matching association, and a later association for the same prefix replaces the earlier', () => {
    registered.push(editors.add(editor('maps.layer', '/api/v1/layer/'), 'maps'));
    registered.push(editors.add(editor('raw.json', '/api/v1/'), 'raw'));
    registered.push(editors.add(editor('raw.text', '/api/v1/'), 'raw'));
    editors.associate('/api/v1/', 'raw.text');
    editors.associate('/api/v1/layer/', 'raw.text');
    editors.associate('/api/v1/layer/', 'raw.json');
    assert.equal(editors.resolve('/api/v1/layer/1/').id, 'raw.json');
    assert.equal(editors.resolve('/api/v1/dataset/1/').id, 'raw.text');
  });

  it('falls back to prefix resolution when the associated editor is not registered', () => {
    registered.push(editors.add(editor('maps.layer', '/api/v1/layer/'), 'maps'));
    editors.associate('/api/v1/layer/', 'uninstalled.editor');
    assert.equal(editors.resolve('/api/v1/layer/1/').id, 'maps.layer');
  });

  it("throws 'UnknownEditor: {address}' when no prefix matches", () => {
    registered.push(editors.add(editor('maps.layer', '/api/v1/layer/'), 'maps'));
    const address = '/api/v1/dataset/9/';
    assert.throws(
      () => editors.resolve(address),
      (e: unknown) => {
        assert.ok(e instanceof UnknownEditorError);
        assert.equal(e.message, `UnknownEditor: ${address}`);
        assert.equal(e.address, address);
        return true;
      },
    );
  });

  it('stops resolving to an editor once its registration is disposed', () => {
    registered.push(editors.add(editor('core.any-resource', '/api/v1/'), 'core'));
    const layer = editors.add(editor('maps.layer', '/api/v1/layer/'), 'maps');
    assert.equal(editors.resolve('/api/v1/layer/1/').id, 'maps.layer');
    layer.dispose();
    assert.equal(editors.resolve('/api/v1/layer/1/').id, 'core.any-resource');
  });
});
