import { useEffect, useMemo, useState } from '@werkbank/sdk/react';
import { Callout, Dialog, DialogBody, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, ConfirmService, observer, TypeHierarchy, useService, useT } from '@werkbank/sdk/browser';
import { FrameDialogStore } from './frame-dialog-store';
import type { FrameTab } from './frame-kind';
import { FrameTabBar } from './frame-tab-bar';
import { FrameFooter } from './frame-footer';
import { SingleView } from './single-view';
import { CardView } from './card-view';
import { FrameTable } from './table/frame-table';
import { FrameUploadTab } from './upload/frame-upload-tab';
import { FrameSettingsTab } from './settings/frame-settings-tab';
import { FrameMapTab } from './frame-map-tab';

export type { FrameTab } from './frame-kind';

export interface FrameDialogProps {
  /** The frame's address (`/api/v1/frame/{id}/`). */
  frameUri: string;
  /** The tab to open with when the dialog offers it; otherwise chosen from the datum count (spec 001 §2.6). */
  initialTab?: FrameTab;
  hideFrameSettings?: boolean;
  /** Nothing can be changed (no upload tab, no save); also when the caller may not change the switchboard. */
  readOnly?: boolean;
  /**
   * Called when the dialog closes; `saved` is true when anything reached the server while it was
   * open (saves, table edits, uploads), so the caller reloads the frame.
   */
  onClose(saved: boolean): void;
}

/** The height of the tab content; the Card view scrolls inside it. */
const BODY_HEIGHT = '60vh';

/**
 * The frame dialog of spec 001 §2.6/§2.7: a frame's datums in a Single view, as cards or as an
 * editable table, the upload into file frames, and the frame's settings. Single-view and settings
 * changes wait for Save & Close or Save & Back; a failed save keeps the dialog open with the reason.
 */
export const FrameDialog = observer(function FrameDialog(props: FrameDialogProps) {
  const api = useService(ApiClient);
  const types = useService(TypeHierarchy);
  const confirm = useService(ConfirmService);
  const t = useT('sb-frame');
  const { frameUri, initialTab, hideFrameSettings, readOnly } = props;
  const store = useMemo(
    () => new FrameDialogStore(api, types, { frameUri, initialTab, hideFrameSettings, readOnly }),
    [api, types, frameUri, initialTab, hideFrameSettings, readOnly],
  );
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  useEffect(() => void store.load(), [store]);

  const finish = () => props.onClose(store.changed);
  const close = async () => {
    if (store.busy) return;
    if (store.dirty && !store.readOnly && !(await confirm.confirm(String(t('discard_confirm')), { intent: 'danger' }))) return;
    finish();
  };
  const frame = store.frame;
  const title = frame ? frame.name || String(t('title', { type: store.typeName })) : String(t('loading'));

  return (
    <Dialog
      isOpen
      icon="th-list"
      title={title}
      onClose={() => void close()}
      canOutsideClickClose={false}
      style={{ width: 1000, maxWidth: '95vw' }}
      data-testid="frame-dialog"
    >
      <DialogBody useOverflowScrollContainer={false}>
        {store.loadError ? (
          <Callout intent="danger" data-testid="frame-load-error">
            {store.loadError}
          </Callout>
        ) : !frame || !store.ready ? (
          <Spinner />
        ) : (
          <>
            <FrameTabBar store={store} />
            <div
              ref={setScroller}
              style={{ height: BODY_HEIGHT, overflow: store.tab === 'table' || store.tab === 'map' ? 'hidden' : 'auto' }}
            >
              {store.tab === 'single' && <SingleView store={store} />}
              {store.tab === 'cards' && <CardView store={store} scroller={scroller} />}
              {store.tab === 'table' && <FrameTable store={store} />}
              {store.tab === 'map' && <FrameMapTab store={store} />}
              {store.tab === 'upload' && <FrameUploadTab store={store} />}
              {store.tab === 'settings' && <FrameSettingsTab store={store} />}
            </div>
            {store.error && (
              <Callout intent="danger" title={String(t('save_failed'))} data-testid="frame-save-error">
                {store.error}
              </Callout>
            )}
          </>
        )}
      </DialogBody>
      <FrameFooter
        store={store}
        onCancel={finish}
        onClose={() => void close()}
        onSaveClose={() => void store.save().then((ok) => ok && props.onClose(true))}
        onSaveBack={() => void store.save().then((ok) => ok && store.back())}
      />
    </Dialog>
  );
});
