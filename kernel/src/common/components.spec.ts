import assert from 'node:assert/strict';
import { ComponentDisabledError, StaticComponentGate } from './components';

describe('StaticComponentGate', () => {
  it('enables only the components switched on', () => {
    const gate = new StaticComponentGate({ magazine: true, tags: false });
    assert.equal(gate.isEnabled('magazine'), true);
    assert.equal(gate.isEnabled('tags'), false);
    assert.equal(gate.isEnabled('parquet'), false);
  });

  it("refuses a disabled component with 'The {name} add-on has not yet been licensed.'", () => {
    const gate = new StaticComponentGate({ tags: true });
    assert.doesNotThrow(() => gate.require('tags'));
    assert.throws(
      () => gate.require('magazine'),
      (e: unknown) => {
        assert.ok(e instanceof ComponentDisabledError);
        assert.equal(e.message, 'The magazine add-on has not yet been licensed.');
        assert.equal(e.component, 'magazine');
        return true;
      },
    );
  });

  it('replaces every switch on update', () => {
    const gate = new StaticComponentGate({ tags: true });
    gate.update({ magazine: true });
    assert.equal(gate.isEnabled('tags'), false);
    assert.equal(gate.isEnabled('magazine'), true);
  });

  it('hands out a copy of its switches that cannot change the gate', () => {
    const gate = new StaticComponentGate({ tags: true });
    const switches = gate.switches();
    switches.magazine = true;
    assert.deepEqual(gate.switches(), { tags: true });
    assert.equal(gate.isEnabled('magazine'), false);
  });
});
