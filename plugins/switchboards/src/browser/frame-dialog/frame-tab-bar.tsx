import { Button, type IconName } from '@werkbank/sdk/ui';
import { observer, useT } from '@werkbank/sdk/browser';
import type { FrameDialogStore } from './frame-dialog-store';
import type { FrameTab } from './frame-kind';

/** The icon of a type, by its base chain (most specific first). */
export function typeIcon(chain: string[]): IconName {
  const icons: Array<[string, IconName]> = [
    ['file', 'document'],
    ['row', 'th'],
    ['feature', 'map-marker'],
    ['color', 'tint'],
    ['datetime', 'time'],
    ['bool', 'segmented-control'],
    ['number', 'numerical'],
    ['string', 'font'],
    ['bbox', 'widget'],
    ['style', 'style'],
  ];
  return icons.find(([base]) => chain.includes(base))?.[1] ?? 'cube';
}

const TAB_ICONS: Record<Exclude<FrameTab, 'single'>, IconName> = {
  cards: 'grid-view',
  table: 'th',
  map: 'map',
  upload: 'cloud-upload',
  settings: 'cog',
};

/**
 * The tab row of spec 001 §2.6: the type's icon (disabled), previous, Single view with the
 * counter 'n / total' when there is more than one datum, next, Cards, Table, File upload and
 * Settings as the dialog offers them.
 */
export const FrameTabBar = observer(function FrameTabBar({ store }: { store: FrameDialogStore }) {
  const t = useT('sb-frame');
  const tabs = store.tabs;
  const count = store.count;
  const tab = (id: FrameTab, text: string, icon?: IconName) => (
    <Button
      key={id}
      role="tab"
      aria-selected={store.tab === id}
      active={store.tab === id}
      variant="minimal"
      icon={icon}
      text={text}
      data-testid={`frame-tab-${id}`}
      onClick={() => (id === 'single' ? store.openSingle(store.index) : store.select(id))}
    />
  );
  return (
    // Two tab lists around the step buttons (a tab list holds only tabs, WCAG 1.3.1), laid out as one row.
    <div className="wb-toolbar" data-testid="frame-tabs">
      <Button
        variant="minimal"
        disabled
        icon={typeIcon(store.chain)}
        text={store.typeName}
        title={String(t('tab.type', { type: store.typeName }))}
        data-testid="frame-type"
      />
      <Button
        variant="minimal"
        icon="chevron-left"
        aria-label={String(t('tab.previous'))}
        title={String(t('tab.previous'))}
        disabled={store.index <= 0 || count === 0}
        onClick={() => store.step(-1)}
        data-testid="frame-previous"
      />
      <div role="tablist" aria-label={String(t('tab.views'))} style={{ display: 'contents' }}>
        {tab('single', count > 1 ? `${t('tab.single')} ${store.index + 1} / ${count}` : String(t('tab.single')), 'document-open')}
      </div>
      <Button
        variant="minimal"
        icon="chevron-right"
        aria-label={String(t('tab.next'))}
        title={String(t('tab.next'))}
        disabled={store.index >= count - 1}
        onClick={() => store.step(1)}
        data-testid="frame-next"
      />
      <div role="tablist" aria-label={String(t('tab.views'))} style={{ display: 'contents' }}>
        {tabs
          .filter((id): id is Exclude<FrameTab, 'single'> => id !== 'single')
          .map((id) => tab(id, String(t(`tab.${id}`)), TAB_ICONS[id]))}
      </div>
    </div>
  );
});
