import { useState } from '@werkbank/sdk/react';
import { Button, FormGroup, HTMLSelect, InputGroup } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import type { InsertResult } from './insert-result';
import { useTypeNames } from './use-type-names';

/** The type an empty frame starts with when the list offers it. */
const DEFAULT_TYPE = 'string';

/**
 * The insert dialog's empty tab (spec 000 §2): an empty frame of a chosen type (GET /api/v1/type/),
 * optionally named; Enter in the name field inserts.
 */
export function EmptyTab({ onInsert }: { onInsert(r: InsertResult): void }) {
  const t = useT('sb-dialogs');
  const types = useTypeNames();
  const [chosen, setChosen] = useState('');
  const [name, setName] = useState('');
  const type = chosen || (types.includes(DEFAULT_TYPE) ? DEFAULT_TYPE : (types[0] ?? ''));
  const insert = () =>
    type && onInsert({ kind: 'frame', contentType: type, ...(name.trim() ? { name: name.trim() } : {}), items: [] });
  return (
    <div>
      <FormGroup label={t('empty.type')} labelFor="insert-empty-type" helperText={t('empty.hint')}>
        <HTMLSelect
          id="insert-empty-type"
          fill
          autoFocus
          value={type}
          data-testid="empty-type"
          onChange={(e) => setChosen(e.target.value)}
        >
          {types.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('empty.name')} labelFor="insert-empty-name">
        <InputGroup
          id="insert-empty-name"
          value={name}
          data-testid="empty-name"
          onValueChange={setName}
          onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), insert())}
        />
      </FormGroup>
      <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          intent="primary"
          icon="add"
          text={t('empty.insert')}
          disabled={!type}
          data-testid="empty-insert"
          onClick={insert}
        />
      </div>
    </div>
  );
}
