import type { Metadata } from '../common/metadata';
import type { Layer } from '../common/layers-api';
import { TypedMetadataEditor } from './typed-metadata-editor';

/**
 * The Metadata tab (spec 001 §2.2, §3.3, §5.1; gated by the metadata component): the typed metadata
 * editor on the layer's `metadata`. The export link is the layer's address plus download.xml.
 */
export function LayerMetadataTab({
  layer,
  readOnly,
  onChange,
}: {
  layer: Layer;
  readOnly: boolean;
  onChange(patch: Partial<Layer>): void;
}) {
  return (
    <TypedMetadataEditor
      value={layer.metadata as Metadata | null}
      readOnly={readOnly}
      onChange={(metadata) => onChange({ metadata })}
      exportHref={`${layer.resource_uri}download.xml`}
      idPrefix="layer-metadata"
      testId="layer-metadata"
    />
  );
}
