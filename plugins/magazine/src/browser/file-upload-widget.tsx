import { useMemo, useRef } from '@werkbank/sdk/react';
import { Button, Callout } from '@werkbank/sdk/ui';
import { ApiClient, FileDropZone, I18nService, observer, UploadItemList, useService, useT } from '@werkbank/sdk/browser';
import { UploadStore } from './upload-store';
import { UploadTransport } from './upload-transport';

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
  return (
    <div className="wb-gap" data-testid="file-upload">
      <FileDropZone
        labels={{ drop: t('upload.drop'), choose: t('upload.choose'), hint: t('upload.hint') }}
        onFiles={(files) => store.add(files)}
        testId="file-dropzone"
        inputTestId="file-input"
      />
      <UploadItemList
        items={store.items}
        language={i18n.language}
        statusLabel={(s) => t(`upload.status_${s}`)}
        refusalLabel={(r) => t(`upload.${r}`)}
        itemTestId="upload-item"
        header={
          <Callout intent={BATCH_INTENT[store.status]} data-testid="upload-status" data-status={store.status} compact>
            {t(`upload.batch_${store.status}`)}
            {store.status !== 'started' && (
              <Button variant="minimal" size="small" text={t('upload.clear')} onClick={() => store.clear()} />
            )}
          </Callout>
        }
      />
    </div>
  );
});
