import { useMemo, useRef, useState } from '@werkbank/sdk/react';
import { Button, Callout, Icon, ProgressBar, Tag } from '@werkbank/sdk/ui';
import { ApiClient, I18nService, observer, useService, useT } from '@werkbank/sdk/browser';
import { formatBytes } from '../common/byte-size';
import { UploadStore, type UploadFile, type UploadItem } from './upload-store';
import { UploadTransport } from './upload-transport';

const STATUS_INTENT = { queued: 'none', uploading: 'primary', success: 'success', failed: 'danger' } as const;
const BATCH_INTENT = { started: 'primary', success: 'success', failure: 'danger' } as const;

/**
 * The file drop zone and upload of spec 000 §2 for a file depot: drag files onto it or choose
 * them; a progress bar and status per file, the batch status, the hint 'up to 5 GB'. `onReady`
 * runs when a batch with at least one uploaded file has finished.
 */
export const FileUploadWidget = observer(function FileUploadWidget({ depot, onReady }: { depot: string; onReady(): void }) {
  const api = useService(ApiClient);
  const transport = useService(UploadTransport);
  const i18n = useService(I18nService);
  const t = useT('magazine');
  const ready = useRef(onReady);
  ready.current = onReady;
  const store = useMemo(() => new UploadStore(api, transport, depot, () => ready.current()), [api, transport, depot]);
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const add = (list: FileList | UploadFile[] | null | undefined) => list && store.add(Array.from(list as ArrayLike<UploadFile>));
  const reason = (item: UploadItem) => (item.refusal ? t(item.refusal) : item.reason);
  return (
    <div className="wb-gap" data-testid="file-upload">
      <div
        className={`wb-dropzone ${over ? 'wb-dropzone-over' : ''}`}
        data-testid="file-dropzone"
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
          data-testid="file-input"
          onChange={(e) => {
            add(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
      </div>
      {store.items.length > 0 && (
        <div className="wb-upload-list">
          <Callout intent={BATCH_INTENT[store.status]} data-testid="upload-status" data-status={store.status} compact>
            {t(`upload.batch_${store.status}`)}
            {store.status !== 'started' && (
              <Button variant="minimal" size="small" text={t('upload.clear')} onClick={() => store.clear()} />
            )}
          </Callout>
          {store.items.map((item) => (
            <div key={item.key} className="wb-upload-item" data-testid="upload-item" data-status={item.status}>
              <span className="wb-upload-name">{item.path}</span>
              <span className="wb-muted">{formatBytes(item.size, i18n.language)}</span>
              <Tag minimal intent={STATUS_INTENT[item.status]}>
                {t(`upload.status_${item.status}`)}
              </Tag>
              {item.status === 'uploading' && <ProgressBar value={item.progress} intent="primary" />}
              {item.status === 'failed' && <span className="wb-upload-reason">{reason(item)}</span>}
            </div>
          ))}
        </div>
      )}
    </div>
  );
});
