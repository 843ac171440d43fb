import { Callout } from '@blueprintjs/core';
import { useService, Registries } from '@werkbank/kernel/browser';

/**
 * Opens the editor for a resource address, chosen by address prefix (spec 002 §2). An address no
 * editor claims shows 'UnknownEditor: {address}'.
 */
export function ObjectEditorHost({ address, onClose }: { address: string; onClose(saved: boolean): void }) {
  const registries = useService(Registries);
  let Editor;
  try {
    Editor = registries.editors.resolve(address).component;
  } catch (e) {
    return (
      <Callout intent="danger" data-testid="unknown-editor">
        {(e as Error).message}
      </Callout>
    );
  }
  return <Editor address={address} onClose={onClose} />;
}
