import { useContext, useMemo } from '@werkbank/sdk/react';
import { Button } from '@werkbank/sdk/ui';
import {
  FileDropZone,
  I18nService,
  KernelContext,
  observer,
  UploadItemList,
  UploadQueue,
  useService,
  useT,
  XhrUploadTransport,
} from '@werkbank/sdk/browser';
import type { FrameDialogStore } from '../frame-dialog-store';
import { FrameUploadTransport } from './frame-upload-transport';

/** The bound FrameUploadTransport, else the XMLHttpRequest one. */
function useUploadTransport(): FrameUploadTransport {
  const container = useContext(KernelContext);
  return useMemo(
    () => (container?.isBound(FrameUploadTransport) ? container.get(FrameUploadTransport) : new XhrUploadTransport()),
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
    () =>
      new UploadQueue({
        transport,
        url: () => `${store.options.frameUri}upload/`,
        onUploaded: () => (store.markChanged(), void store.content.reload()),
      }),
    [transport, store],
  );
  return (
    <div data-testid="frame-upload">
      <FileDropZone
        labels={{ drop: t('upload.drop'), choose: t('upload.choose'), hint: t('upload.hint') }}
        onFiles={(files) => uploads.add(files)}
        testId="frame-dropzone"
        inputTestId="frame-file-input"
      />
      <UploadItemList
        items={uploads.items}
        language={language}
        statusLabel={(s) => t(`upload.status_${s}`)}
        refusalLabel={(r) => t(`upload.${r}`)}
        itemTestId="frame-upload-item"
        footer={
          !uploads.running && (
            <div className="wb-toolbar">
              <Button variant="minimal" text={t('upload.clear')} onClick={() => uploads.clearFinished()} />
              {store.tabs.includes('table') && (
                <Button variant="minimal" icon="th" text={t('upload.show_files')} onClick={() => store.select('table')} />
              )}
            </div>
          )
        }
      />
    </div>
  );
});
