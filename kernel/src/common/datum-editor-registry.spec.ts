import assert from 'node:assert/strict';
import { DatumEditorRegistry, GENERIC_CONTENT_TYPE, type DatumEditorDescriptor } from './datum-editor-registry';
import { TypeRegistry } from './type-registry';

const datumEditor = (id: string, contentType: string, priority?: number): DatumEditorDescriptor<string> => ({
  id,
  contentType,
  priority,
  component: id,
});

describe('DatumEditorRegistry.resolve', () => {
  let types: TypeRegistry;
  let editors: DatumEditorRegistry<string>;
  const resolve = (contentType: string) => editors.resolve(contentType, (t) => types.baseChain(t))?.id;

  afterEach(() => {
    types.dispose();
    editors.dispose();
  });

  beforeEach(() => {
    types = new TypeRegistry();
    // geometry ← polygon ← building: a chain of three levels, plus an unrelated type.
    types.add({ id: 'core.geometry', name: 'geometry' }, 'core');
    types.add({ id: 'core.polygon', name: 'polygon', base: 'geometry' }, 'core');
    types.add({ id: 'cadastre.building', name: 'building', base: 'polygon' }, 'cadastre');
    types.add({ id: 'core.text', name: 'text' }, 'core');
    editors = new DatumEditorRegistry<string>();
  });

  it('uses the editor registered for exactly the content type', () => {
    editors.add(datumEditor('maps.geometry', 'geometry'), 'maps');
    editors.add(datumEditor('cadastre.building', 'building'), 'cadastre');
    assert.equal(resolve('building'), 'cadastre.building');
    assert.equal(resolve('geometry'), 'maps.geometry');
  });

  it('inherits the editor of a base type through a chain of several levels', () => {
    editors.add(datumEditor('maps.geometry', 'geometry'), 'maps');
    assert.equal(resolve('building'), 'maps.geometry');
  });

  it('prefers the most specific level of the base chain over a higher priority further up', () => {
    editors.add(datumEditor('maps.geometry', 'geometry', 100), 'maps');
    editors.add(datumEditor('maps.polygon', 'polygon'), 'maps');
    assert.equal(resolve('building'), 'maps.polygon');
  });

  it('chooses the highest priority at one level, then the lowest plugin id', () => {
    editors.add(datumEditor('zeta.polygon', 'polygon', 1), 'zeta');
    editors.add(datumEditor('maps.polygon', 'polygon', 5), 'maps');
    editors.add(datumEditor('alpha.polygon', 'polygon'), 'alpha');
    assert.equal(resolve('polygon'), 'maps.polygon');

    editors.add(datumEditor('beta.polygon', 'polygon', 5), 'beta');
    assert.equal(resolve('polygon'), 'beta.polygon');
  });

  it("falls back to the highest-ranked generic '*' editor when no level of the chain has one", () => {
    editors.add(datumEditor('maps.geometry', 'geometry'), 'maps');
    editors.add(datumEditor('core.json', GENERIC_CONTENT_TYPE), 'core');
    editors.add(datumEditor('raw.hex', GENERIC_CONTENT_TYPE, -1), 'raw');
    assert.equal(resolve('text'), 'core.json');
    assert.equal(resolve('never-registered'), 'core.json');
    assert.equal(resolve('building'), 'maps.geometry');
  });

  it('returns undefined when not even a generic editor is registered', () => {
    assert.equal(resolve('text'), undefined);
  });

  it("accepts a type address '/api/v1/type/{name}/' as well as a bare name", () => {
    editors.add(datumEditor('maps.polygon', 'polygon'), 'maps');
    assert.equal(resolve('/api/v1/type/building/'), 'maps.polygon');
    assert.equal(resolve('/api/v1/type/building'), 'maps.polygon');
  });
});
