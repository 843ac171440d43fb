import { HTMLSelect } from '@werkbank/sdk/ui';
import { useAssignableTags, useT, type DatumEditorProps } from '@werkbank/sdk/browser';

/**
 * The editor of `tag` datums: chooses one of the tags and keeps its id and name, so the datum reads
 * as the tag's name wherever it is shown (issue 14 item 22), not as `#id`.
 */
export function TagDatumEditor({ value, readOnly, onChange }: DatumEditorProps) {
  const t = useT('tags');
  const tags = useAssignableTags(true);
  const current = (value ?? {}) as { id?: number; name?: string };
  const known = tags.some((tag) => tag.id === current.id);
  return (
    <HTMLSelect
      data-testid="datum-editor-tag"
      fill
      disabled={readOnly}
      value={current.id ?? ''}
      onChange={(e) => {
        const tag = tags.find((x) => x.id === Number(e.currentTarget.value));
        if (tag) onChange({ id: tag.id, name: tag.name });
      }}
    >
      <option value="" disabled>
        {t('datum.choose')}
      </option>
      {!known && current.id ? <option value={current.id}>{current.name ?? `#${current.id}`}</option> : null}
      {tags.map((tag) => (
        <option key={tag.id} value={tag.id}>
          {tag.name}
        </option>
      ))}
    </HTMLSelect>
  );
}
