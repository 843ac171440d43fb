import { Button, HTMLTable, InputGroup } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import type { DepotMetadataEditorProps } from '../common/magazine-api';

type Metadata = Record<string, unknown>;

/** spec 002 §5: a new key is named 'Key' with a numeric suffix when 'Key' is taken. */
export function newKey(existing: string[], base = 'Key'): string {
  if (!existing.includes(base)) return base;
  let n = 2;
  while (existing.includes(`${base} ${n}`)) n++;
  return `${base} ${n}`;
}

/** spec 001 §5.1: empty values are omitted; when none remain the metadata is null. */
export function cleanMetadata(metadata: Metadata | null | undefined): Metadata | null {
  const kept = Object.entries(metadata ?? {}).filter(([k, v]) => k.trim() && v !== '' && v !== null && v !== undefined);
  return kept.length ? Object.fromEntries(kept) : null;
}

/**
 * Key/value editing of a metadata object (spec 002 §2 "Properties table editor", §5): object
 * values are shown but not editable; a value that was a number is saved as a number. `readOnly`
 * shows the entries disabled, without add and remove.
 */
export function MetadataEditor({
  value,
  readOnly = false,
  onChange,
}: {
  value: Metadata | null;
  readOnly?: boolean;
  onChange(v: Metadata): void;
}) {
  const t = useT('magazine');
  const entries = Object.entries(value ?? {});
  const rebuild = (i: number, key: string, v: unknown) =>
    onChange(Object.fromEntries(entries.map(([k, old], j) => (j === i ? [key, v] : [k, old]))));
  const typed = (old: unknown, text: string) =>
    typeof old === 'number' && text.trim() && Number.isFinite(Number(text)) ? Number(text) : text;
  return (
    <div data-testid="metadata-editor">
      {entries.length === 0 && <p className="wb-muted">{t('metadata.empty')}</p>}
      {entries.length > 0 && (
        <HTMLTable compact>
          <thead>
            <tr>
              <th>{t('metadata.key')}</th>
              <th>{t('metadata.value')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {entries.map(([key, v], i) => (
              <tr key={i}>
                <td>
                  <InputGroup
                    aria-label={String(t('metadata.key'))}
                    disabled={readOnly}
                    value={key}
                    onValueChange={(k) => rebuild(i, k, v)}
                  />
                </td>
                <td>
                  {v !== null && typeof v === 'object' ? (
                    <code>{JSON.stringify(v)}</code>
                  ) : (
                    <InputGroup
                      aria-label={String(t('metadata.value'))}
                      disabled={readOnly}
                      value={String(v ?? '')}
                      onValueChange={(text) => rebuild(i, key, typed(v, text))}
                    />
                  )}
                </td>
                <td>
                  {!readOnly && (
                    <Button
                      size="small"
                      variant="minimal"
                      icon="cross"
                      aria-label={String(t('metadata.remove'))}
                      onClick={() => onChange(Object.fromEntries(entries.filter((_, j) => j !== i)))}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {!readOnly && (
        <Button
          icon="add"
          variant="minimal"
          text={t('metadata.add')}
          onClick={() => onChange({ ...(value ?? {}), [newKey(entries.map(([k]) => k))]: '' })}
        />
      )}
    </div>
  );
}

/** The Magazine's default editor of the depot editor's Metadata tab (DepotMetadataEditor): key/value pairs. */
export function KeyValueDepotMetadata({ value, readOnly, onChange }: DepotMetadataEditorProps) {
  return <MetadataEditor value={value} readOnly={readOnly} onChange={onChange} />;
}
