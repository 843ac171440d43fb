import { useEffect, useState } from '@werkbank/sdk/react';
import { AnchorButton, Callout, FormGroup, HTMLSelect, InputGroup, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, useService, useT } from '@werkbank/sdk/browser';
import {
  metadataValue,
  METADATA_ATTRIBUTE_TYPE_PATH,
  METADATA_GROUP_PATH,
  withMetadataValue,
  type Metadata,
  type MetadataAttributeType,
  type MetadataGroup,
} from '../common/metadata';
import type { Layer } from '../common/layers-api';

/** At most this many attribute types and groups are loaded (administrators configure a handful). */
const LIMIT = 500;

/**
 * The Metadata tab (spec 001 §2.2, §3.3, §5.1; gated by the metadata component): one input per
 * attribute type, by group — text, a select of its options, or a date; empty values are dropped
 * and none left is null. The export link is the layer's address plus download.xml (ISO 19139).
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
  const t = useT('layers');
  const api = useService(ApiClient);
  const [types, setTypes] = useState<MetadataAttributeType[]>();
  const [groups, setGroups] = useState<MetadataGroup[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    Promise.all([
      api.get<{ objects: MetadataAttributeType[] }>(METADATA_ATTRIBUTE_TYPE_PATH, { query: { limit: LIMIT } }),
      api.get<{ objects: MetadataGroup[] }>(METADATA_GROUP_PATH, { query: { limit: LIMIT } }),
    ]).then(
      ([ty, gr]) => {
        if (!live) return;
        setTypes(ty.objects);
        setGroups(gr.objects);
      },
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [api]);
  if (error) return <Callout intent="danger">{error}</Callout>;
  if (!types) return <Spinner />;
  const metadata = layer.metadata as Metadata | null;
  const set = (type: MetadataAttributeType, value: string) =>
    onChange({ metadata: withMetadataValue(metadata, type.resource_uri, value) });
  const sections = [
    ...groups.map((g) => ({ key: g.resource_uri, name: g.name, types: types.filter((ty) => ty.group === g.resource_uri) })),
    {
      key: 'none',
      name: String(t('metadata.ungrouped')),
      types: types.filter((ty) => !ty.group || !groups.some((g) => g.resource_uri === ty.group)),
    },
  ].filter((s) => s.types.length);
  return (
    <div data-testid="layer-metadata">
      <AnchorButton
        icon="download"
        href={`${layer.resource_uri}download.xml`}
        text={t('metadata.export')}
        data-testid="layer-metadata-export"
      />
      {!types.length && <Callout>{t('metadata.no_types')}</Callout>}
      {sections.map((s) => (
        <fieldset key={s.key} className="wb-fieldset">
          <legend>{s.name}</legend>
          {s.types.map((ty) => {
            const id = `layer-metadata-${ty.id}`;
            const value = metadataValue(metadata, ty.resource_uri);
            return (
              <FormGroup key={ty.id} label={ty.display_name} labelFor={id} helperText={ty.description || undefined}>
                {ty.datatype === 'select' ? (
                  <HTMLSelect id={id} disabled={readOnly} value={value} onChange={(e) => set(ty, e.target.value)}>
                    <option value="">{t('metadata.unset')}</option>
                    {!!value && !ty.options.includes(value) && <option value={value}>{value}</option>}
                    {ty.options.map((o) => (
                      <option key={o} value={o}>
                        {o}
                      </option>
                    ))}
                  </HTMLSelect>
                ) : ty.datatype === 'date' ? (
                  <input
                    id={id}
                    type="date"
                    className="bp6-input"
                    disabled={readOnly}
                    value={value.slice(0, 10)}
                    onChange={(e) => set(ty, e.target.value)}
                  />
                ) : (
                  <InputGroup id={id} disabled={readOnly} value={value} onValueChange={(v) => set(ty, v)} />
                )}
              </FormGroup>
            );
          })}
        </fieldset>
      ))}
    </div>
  );
}
