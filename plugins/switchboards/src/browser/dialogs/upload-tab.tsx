import { useState } from '@werkbank/sdk/react';
import { Button, Callout, Icon } from '@werkbank/sdk/ui';
import { FileDropZone, formatBytes, I18nService, UPLOAD_LIMIT_BYTES, useService, useT } from '@werkbank/sdk/browser';
import type { InsertResult } from './insert-result';

/**
 * The insert dialog's upload tab (spec 000 §2 file drop zone): files dropped or chosen; Insert asks
 * the canvas for a file frame that uploads them. Files over 5 GB and repeats (same name and size)
 * are left out, with a note.
 */
export function UploadTab({ onInsert }: { onInsert(r: InsertResult): void }) {
  const t = useT('sb-dialogs');
  const lang = useService(I18nService).language;
  const [files, setFiles] = useState<File[]>([]);
  const [tooLarge, setTooLarge] = useState<string[]>([]);
  const add = (chosen: File[]) => {
    const same = (a: File, b: File) => a.name === b.name && a.size === b.size;
    setTooLarge(chosen.filter((f) => f.size > UPLOAD_LIMIT_BYTES).map((f) => f.name));
    setFiles((known) => [
      ...known,
      ...chosen.filter(
        (f, i) => f.size <= UPLOAD_LIMIT_BYTES && !known.some((k) => same(k, f)) && chosen.findIndex((o) => same(o, f)) === i,
      ),
    ]);
  };
  return (
    <div>
      <FileDropZone
        labels={{ drop: t('upload.drop'), choose: t('upload.choose'), hint: t('upload.hint') }}
        onFiles={(files) => add(files as File[])}
        testId="upload-dropzone"
        inputTestId="upload-input"
        autoFocus
      />
      {tooLarge.length > 0 && (
        <Callout intent="warning" data-testid="upload-too-large">
          {t('upload.too_large', { names: tooLarge.join(', ') })}
        </Callout>
      )}
      <ul data-testid="upload-files" style={{ margin: '8px 0', paddingLeft: 0, listStyle: 'none' }}>
        {files.map((f, i) => (
          <li key={`${f.name}:${f.size}`} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
            <Icon icon="document" />
            <span style={{ flex: '1 1 auto' }}>{f.name}</span>
            <span className="wb-muted">{formatBytes(f.size, lang)}</span>
            <Button
              variant="minimal"
              size="small"
              icon="cross"
              aria-label={String(t('upload.remove', { name: f.name }))}
              onClick={() => setFiles(files.filter((_, j) => j !== i))}
            />
          </li>
        ))}
      </ul>
      <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          intent="primary"
          icon="add"
          text={t('upload.insert', { count: files.length })}
          disabled={!files.length}
          data-testid="upload-insert"
          onClick={() => onInsert({ kind: 'upload', files })}
        />
      </div>
    </div>
  );
}
