import { Callout } from '@blueprintjs/core';
import { Registries, TypeHierarchy, useService, useT } from '@werkbank/kernel/browser';

export interface DatumEditorHostProps {
  /** A type name (`color`) or a type address (`/api/v1/type/color/`). */
  contentType: string;
  value: unknown;
  readOnly?: boolean;
  onChange(value: unknown): void;
}

/**
 * Renders the editor for a datum of `contentType` (spec 002 §2 "Datum editor by content type"):
 * the type's own editor, else one inherited along its base chain, else the generic editor.
 */
export function DatumEditorHost(props: DatumEditorHostProps) {
  const registries = useService(Registries);
  const types = useService(TypeHierarchy);
  const t = useT();
  const found = registries.datumEditors.resolve(props.contentType, (name) => types.baseChain(name));
  if (!found) return <Callout intent="warning">{t('datum.no_editor', { type: props.contentType })}</Callout>;
  const Editor = found.component;
  return <Editor contentType={props.contentType} value={props.value} readOnly={props.readOnly} onChange={props.onChange} />;
}
