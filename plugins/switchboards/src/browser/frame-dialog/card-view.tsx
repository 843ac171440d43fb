import { Card, NonIdealState, Spinner, Tag } from '@werkbank/sdk/ui';
import { observer, useInfiniteScroll, useT } from '@werkbank/sdk/browser';
import type { FrameDialogStore } from './frame-dialog-store';
import { DatumCardBody } from './datum-card-body';

/**
 * The Card view (spec 001 §2.7): the frame's datums as read-only cards with infinite scroll inside
 * the dialog's scrolling body (`scroller`); datums added and not saved yet come after the last one. A card opens
 * its datum in the Single view.
 */
export const CardView = observer(function CardView({
  store,
  scroller,
}: {
  store: FrameDialogStore;
  scroller: HTMLElement | null;
}) {
  const t = useT('sb-frame');
  const content = store.content;
  useInfiniteScroll(() => void content.loadMore(), content.hasMore && !content.error, content.items.length, scroller);
  if (!store.count) {
    return content.loading ? <Spinner /> : <NonIdealState icon="grid-view" title={String(t('cards.empty'))} />;
  }
  const added = content.hasMore ? [] : store.added.map((_, i) => content.total + i);
  const indexes = [...content.items.keys(), ...added];
  return (
    <div className="wb-cards" data-testid="frame-cards">
      {indexes.map((index) => {
        const item = store.itemAt(index);
        if (!item) return null;
        return (
          <Card key={index} interactive onClick={() => store.openSingle(index)} data-testid="frame-card" data-index={index}>
            {store.isAdded(index) && (
              <Tag intent="primary" minimal>
                {t('single.new_unsaved')}
              </Tag>
            )}
            <DatumCardBody item={item} kind={store.kind} chain={store.chain} typeName={store.typeName} />
          </Card>
        );
      })}
      {content.loading && <Spinner size={20} />}
      {content.error && <NonIdealState icon="error" title={content.error} />}
    </div>
  );
});
