import { useRef, useState } from '@werkbank/sdk/react';
import { Button, Callout, Icon } from '@werkbank/sdk/ui';
import { I18nService, useService, useT } from '@werkbank/sdk/browser';
import type { InsertResult } from './insert-result';

/** spec 000 §9: uploads up to 5 GB (the server refuses larger files, docs/api.md "Uploads"). */
export const UPLOAD_MAX_BYTES = 5 * 1024 ** 3;

/** A size in the user's language: 1.5 MB, 820 kB. */
export function formatSize(bytes: number, lang: string): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toLocaleString(lang === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits: digits })} ${units[unit]}`;
}

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
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const add = (list: FileList | null | undefined) => {
    const chosen = Array.from(list ?? []);
    const same = (a: File, b: File) => a.name === b.name && a.size === b.size;
    setTooLarge(chosen.filter((f) => f.size > UPLOAD_MAX_BYTES).map((f) => f.name));
    setFiles((known) => [
      ...known,
      ...chosen.filter(
        (f, i) => f.size <= UPLOAD_MAX_BYTES && !known.some((k) => same(k, f)) && chosen.findIndex((o) => same(o, f)) === i,
      ),
    ]);
  };
  return (
    <div>
      <div
        className={`wb-dropzone ${over ? 'wb-dropzone-over' : ''}`}
        data-testid="upload-dropzone"
        onDragOver={(e) => (e.preventDefault(), setOver(true))}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          add(e.dataTransfer?.files);
        }}
      >
        <Icon icon="cloud-upload" size={24} />
        <span>{t('upload.drop')}</span>
        <Button icon="folder-open" text={t('upload.choose')} autoFocus onClick={() => input.current?.click()} />
        <span className="wb-muted">{t('upload.hint')}</span>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          data-testid="upload-input"
          onChange={(e) => {
            add(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
      </div>
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
            <span className="wb-muted">{formatSize(f.size, lang)}</span>
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
