import { useState } from '@werkbank/sdk/react';
import { Button, Classes, Dialog, TextArea } from '@werkbank/sdk/ui';
import { ApiClient, useService } from '@werkbank/sdk/browser';
import type { Note } from '../../common/switchboard-types';
import type { CanvasController } from './canvas-controller';

/** Edits a note's Markdown text (the server renders and sanitises it). */
export function NoteDialog({ c, uri, onClose }: { c: CanvasController; uri: string; onClose(): void }) {
  const api = useService(ApiClient);
  const note = c.store.notes.get(uri);
  const [text, setText] = useState(note?.text ?? '');
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    const saved = await c.guard(api.patch<Note>(uri, { text }));
    setBusy(false);
    if (saved) {
      c.store.put(saved);
      onClose();
    }
  };
  return (
    <Dialog isOpen title={c.t('note.edit')} onClose={onClose}>
      <div className={Classes.DIALOG_BODY}>
        <TextArea fill autoFocus rows={10} value={text} data-testid="note-text" onChange={(e) => setText(e.target.value)} />
        <p className="wb-muted">{c.t('note.markdown_hint')}</p>
      </div>
      <div className={Classes.DIALOG_FOOTER}>
        <div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text={c.t('dialog.cancel')} onClick={onClose} />
          <Button intent="primary" loading={busy} text={c.t('dialog.save')} onClick={() => void save()} />
        </div>
      </div>
    </Dialog>
  );
}
