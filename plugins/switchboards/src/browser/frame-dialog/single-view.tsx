import { useEffect } from '@werkbank/sdk/react';
import { Button, NonIdealState, Spinner, Tag } from '@werkbank/sdk/ui';
import { datumEditorValue, datumFieldsFromEditor } from '@werkbank/sdk';
import { DatumEditorHost, observer, useT } from '@werkbank/sdk/browser';
import type { FrameDialogStore } from './frame-dialog-store';

/**
 * The Single view (spec 001 §2.6): one datum in the editor its content type chooses (the generic
 * editor when none), changes kept until saved; a new datum from the type's template for types that
 * can be created by hand.
 */
export const SingleView = observer(function SingleView({ store }: { store: FrameDialogStore }) {
  const t = useT('sb-frame');
  const index = store.index;
  const item = store.itemAt(index);
  const missing = !item && index < store.content.total;
  useEffect(() => {
    if (missing) void store.content.ensure(index);
  }, [missing, index, store]);
  const canAdd = store.creatable && !store.readOnly;
  const add = canAdd && (
    <Button icon="add" text={t('single.new')} onClick={() => store.addNew()} data-testid="frame-single-new" />
  );
  if (store.count === 0) return <NonIdealState icon="document" title={String(t('single.empty'))} action={add || undefined} />;
  if (!item) return store.content.error ? <NonIdealState icon="error" title={store.content.error} /> : <Spinner />;
  return (
    <div data-testid="frame-single" data-index={index}>
      <div className="wb-toolbar">
        {add}
        {store.isAdded(index) && (
          <>
            <Tag intent="primary" minimal>
              {t('single.new_unsaved')}
            </Tag>
            <Button variant="minimal" icon="trash" text={t('single.discard')} onClick={() => store.discardNew(index)} />
          </>
        )}
        {store.edits.has(index) && (
          <Tag intent="warning" minimal data-testid="frame-single-changed">
            {t('single.changed')}
          </Tag>
        )}
      </div>
      <DatumEditorHost
        key={index}
        contentType={store.typeName}
        value={datumEditorValue(store.editorTemplate, item)}
        readOnly={store.readOnly}
        onChange={(value) => store.setItem(index, datumFieldsFromEditor(store.editorTemplate, item, value))}
      />
    </div>
  );
});
