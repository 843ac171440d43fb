import { useState } from '@werkbank/sdk/react';
import { Dialog, DialogBody, Tab, Tabs } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import type { InsertResult } from './insert-result';
import { DataTab } from './data-tab';
import { UploadTab } from './upload-tab';
import { UrlTab } from './url-tab';
import { EmptyTab } from './empty-tab';
import { NoteTab } from './note-tab';
import { FunctionBrowser } from './function-browser';

export type InsertMode = 'data' | 'function' | 'note';
type TabId = 'data' | 'upload' | 'url' | 'empty' | 'note' | 'function';

export interface InsertDialogProps {
  /** Which tab opens first, and whether the fourth tab is 'note' (mode note) or 'function'. */
  mode: InsertMode;
  /** What to add; the dialog calls onClose right after it. */
  onInsert(r: InsertResult): void;
  /** Escape, the close button, or after an insert. */
  onClose(): void;
}

/**
 * The insert dialog of spec 000 §2 ("tabs data, upload, url, empty and note or function"), opened
 * by the canvas (Add data, Add Function, Add note; keys d and f). Each tab hands back an
 * InsertResult that the canvas performs.
 */
export function InsertDialog({ mode, onInsert, onClose }: InsertDialogProps) {
  const t = useT('sb-dialogs');
  const [tab, setTab] = useState<TabId>(mode);
  const insert = (r: InsertResult) => {
    onInsert(r);
    onClose();
  };
  const fourth: TabId = mode === 'note' ? 'note' : 'function';
  return (
    <Dialog isOpen icon="add" title={t(`insert.title_${mode}`)} onClose={onClose} style={{ width: 680, maxWidth: '95vw' }}>
      <DialogBody>
        <div data-testid="insert-dialog">
          <Tabs id="sb-insert-tabs" selectedTabId={tab} onChange={(id) => setTab(id as TabId)} renderActiveTabPanelOnly>
            <Tab id="data" icon="database" title={t('insert.tab_data')} panel={<DataTab onInsert={insert} />} />
            <Tab id="upload" icon="upload" title={t('insert.tab_upload')} panel={<UploadTab onInsert={insert} />} />
            <Tab id="url" icon="link" title={t('insert.tab_url')} panel={<UrlTab onInsert={insert} />} />
            <Tab id="empty" icon="square" title={t('insert.tab_empty')} panel={<EmptyTab onInsert={insert} />} />
            {fourth === 'note' ? (
              <Tab id="note" icon="annotation" title={t('insert.tab_note')} panel={<NoteTab onInsert={insert} />} />
            ) : (
              <Tab
                id="function"
                icon="function"
                title={t('insert.tab_function')}
                panel={
                  <div>
                    <p className="wb-muted">{t('insert.function_hint')}</p>
                    <FunctionBrowser autoFocus onSubmit={(func) => insert({ kind: 'function', func })} />
                  </div>
                }
              />
            )}
          </Tabs>
        </div>
      </DialogBody>
    </Dialog>
  );
}
