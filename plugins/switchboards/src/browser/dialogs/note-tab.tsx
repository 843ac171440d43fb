import { useState } from '@werkbank/sdk/react';
import { Button, FormGroup, TextArea } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import type { InsertResult } from './insert-result';

/** docs/api.md "note": a note's text holds at most 20,000 characters. */
export const NOTE_MAX_LENGTH = 20_000;

/**
 * The insert dialog's note tab (spec 000 §2): Markdown text; Ctrl+Enter (or ⌘+Enter) inserts, Enter
 * starts a new line.
 */
export function NoteTab({ onInsert }: { onInsert(r: InsertResult): void }) {
  const t = useT('sb-dialogs');
  const [text, setText] = useState('');
  const tooLong = text.length > NOTE_MAX_LENGTH;
  const ok = !!text.trim() && !tooLong;
  const insert = () => ok && onInsert({ kind: 'note', text });
  return (
    <div>
      <FormGroup
        label={t('note.label')}
        labelFor="insert-note"
        helperText={tooLong ? t('note.too_long', { max: NOTE_MAX_LENGTH }) : t('note.hint')}
        intent={tooLong ? 'danger' : 'none'}
      >
        <TextArea
          id="insert-note"
          autoFocus
          fill
          rows={8}
          value={text}
          data-testid="note-text"
          intent={tooLong ? 'danger' : 'none'}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              insert();
            }
          }}
        />
      </FormGroup>
      <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button intent="primary" icon="add" text={t('note.insert')} disabled={!ok} data-testid="note-insert" onClick={insert} />
      </div>
    </div>
  );
}
