import type { DepotMetadataEditorProps } from '@werkbank/plugin-magazine/api';
import { typedOf, withTyped } from '../common/metadata';
import { TypedMetadataEditor } from './typed-metadata-editor';

/**
 * The depot editor's Metadata tab with the layers' typed metadata (decision 0063): the values live
 * in the depot's `metadata` under `values` (older key/value pairs there are kept), so the depot's
 * Save writes them with the Magazine's own rules; `/api/v2/metadata/depot/{id}/` reads the same.
 */
export function DepotTypedMetadata({ depot, value, readOnly, onChange }: DepotMetadataEditorProps) {
  return (
    <TypedMetadataEditor
      value={typedOf(value)}
      readOnly={readOnly}
      onChange={(typed) => onChange(withTyped(value, typed))}
      exportHref={depot ? `${depot}download.xml` : undefined}
      idPrefix="depot-metadata"
      testId="depot-typed-metadata"
    />
  );
}
