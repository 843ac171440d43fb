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

/** At most this many attribute types and groups are loaded (administrators configure a handful). */
const LIMIT = 500;

/**
 * Typed metadata (spec 001 §3.3, §5.1): one input per attribute type, by group — text, a select of
 * its options, or a date; empty values are dropped and none left is null. Used by the layer's
 * Metadata tab and the depot editor's (decision 0063). `exportHref` links the ISO 19139 export.
 */
export function TypedMetadataEditor({
  value,
  readOnly,
  onChange,
  exportHref,
  idPrefix,
  testId,
}: {
  value: Metadata | null;
  readOnly: boolean;
  onChange(metadata: Metadata | null): void;
  exportHref?: string;
  /** Prefix of the inputs' ids (unique per screen). */
  idPrefix: string;
  testId: string;
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
  const set = (type: MetadataAttributeType, v: string) => onChange(withMetadataValue(value, type.resource_uri, v));
  const sections = [
    ...groups.map((g) => ({ key: g.resource_uri, name: g.name, types: types.filter((ty) => ty.group === g.resource_uri) })),
    {
      key: 'none',
      name: String(t('metadata.ungrouped')),
      types: types.filter((ty) => !ty.group || !groups.some((g) => g.resource_uri === ty.group)),
    },
  ].filter((s) => s.types.length);
  return (
    <div data-testid={testId}>
      {exportHref && (
        <AnchorButton icon="download" href={exportHref} text={t('metadata.export')} data-testid={`${testId}-export`} />
      )}
      {!types.length && <Callout>{t('metadata.no_types')}</Callout>}
      {sections.map((s) => (
        <fieldset key={s.key} className="wb-fieldset">
          <legend>{s.name}</legend>
          {s.types.map((ty) => {
            const id = `${idPrefix}-${ty.id}`;
            const current = metadataValue(value, ty.resource_uri);
            return (
              <FormGroup key={ty.id} label={ty.display_name} labelFor={id} helperText={ty.description || undefined}>
                {ty.datatype === 'select' ? (
                  <HTMLSelect id={id} disabled={readOnly} value={current} onChange={(e) => set(ty, e.target.value)}>
                    <option value="">{t('metadata.unset')}</option>
                    {!!current && !ty.options.includes(current) && <option value={current}>{current}</option>}
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
                    value={current.slice(0, 10)}
                    onChange={(e) => set(ty, e.target.value)}
                  />
                ) : (
                  <InputGroup id={id} disabled={readOnly} value={current} onValueChange={(v) => set(ty, v)} />
                )}
              </FormGroup>
            );
          })}
        </fieldset>
      ))}
    </div>
  );
}
