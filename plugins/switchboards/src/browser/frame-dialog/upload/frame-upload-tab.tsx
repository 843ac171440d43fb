import { useContext, useMemo, useRef, useState } from '@werkbank/sdk/react';
import { Button, Icon, ProgressBar, Tag } from '@werkbank/sdk/ui';
import { I18nService, KernelContext, observer, useService, useT } from '@werkbank/sdk/browser';
import type { FrameDialogStore } from '../frame-dialog-store';
import { formatBytes } from '../value-format';
import { FrameUploadStore, type UploadFile, type UploadItem } from './frame-upload-store';
import { FrameUploadTransport, XhrFrameUploadTransport } from './frame-upload-transport';

const STATUS_INTENT = { queued: 'none', uploading: 'primary', success: 'success', failed: 'danger' } as const;

/** The bound FrameUploadTransport, else the XMLHttpRequest one. */
function useUploadTransport(): FrameUploadTransport {
  const container = useContext(KernelContext);
  return useMemo(
    () => (container?.isBound(FrameUploadTransport) ? container.get(FrameUploadTransport) : new XhrFrameUploadTransport()),
    [container],
  );
}

/**
 * The File upload tab (spec 001 §2.6) of a file frame that is not read-only: drop files or choose
 * them; each file's status (queued, uploading with progress, success, failed with the reason).
 * Each uploaded file is appended to the frame at once; the items reload after each one.
 */
export const FrameUploadTab = observer(function FrameUploadTab({ store }: { store: FrameDialogStore }) {
  const t = useT('sb-frame');
  const language = useService(I18nService).language;
  const transport = useUploadTransport();
  const uploads = useMemo(
    () => new FrameUploadStore(transport, store.options.frameUri, () => (store.markChanged(), void store.content.reload())),
    [transport, store],
  );
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const add = (list: FileList | null | undefined) => list && uploads.add(Array.from(list as ArrayLike<UploadFile>));
  const reason = (item: UploadItem) => (item.refusal ? t(item.refusal) : item.reason);
  return (
    <div data-testid="frame-upload">
      <div
        className={`wb-dropzone ${over ? 'wb-dropzone-over' : ''}`}
        data-testid="frame-dropzone"
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
        <Button icon="folder-open" text={t('upload.choose')} onClick={() => input.current?.click()} />
        <span className="wb-muted">{t('upload.hint')}</span>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          data-testid="frame-file-input"
          onChange={(e) => {
            add(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
      </div>
      {uploads.items.length > 0 && (
        <div className="wb-upload-list">
          {uploads.items.map((item) => (
            <div key={item.key} className="wb-upload-item" data-testid="frame-upload-item" data-status={item.status}>
              <span className="wb-upload-name" title={item.path}>
                {item.path}
              </span>
              <span className="wb-muted">{formatBytes(item.size, language)}</span>
              <Tag minimal intent={STATUS_INTENT[item.status]}>
                {t(`upload.status_${item.status}`)}
              </Tag>
              {item.status === 'uploading' && <ProgressBar value={item.progress} intent="primary" />}
              {item.status === 'failed' && <span className="wb-upload-reason">{reason(item)}</span>}
            </div>
          ))}
          {!uploads.running && (
            <div className="wb-toolbar">
              <Button variant="minimal" text={t('upload.clear')} onClick={() => uploads.clearFinished()} />
              {store.tabs.includes('table') && (
                <Button variant="minimal" icon="th" text={t('upload.show_files')} onClick={() => store.select('table')} />
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
});
