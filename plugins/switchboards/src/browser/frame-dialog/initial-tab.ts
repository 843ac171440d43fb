import { isTableKind, type FrameKind, type FrameTab } from './frame-kind';

export interface TabFacts {
  kind: FrameKind;
  /** Datums in the frame. */
  count: number;
  readOnly: boolean;
  hideFrameSettings: boolean;
  /** The type can be created by hand (isCreatable). */
  creatable: boolean;
}

/**
 * The tabs the dialog offers (spec 001 §2.6): Map for feature frames (issue 16, read-only), File
 * upload only for file frames that are not read-only, Settings unless hidden.
 */
export function availableTabs(f: TabFacts): FrameTab[] {
  const tabs: FrameTab[] = ['single', 'cards', 'table'];
  if (f.kind === 'feature') tabs.push('map');
  if (f.kind === 'file' && !f.readOnly) tabs.push('upload');
  if (!f.hideFrameSettings) tabs.push('settings');
  return tabs;
}

/**
 * The tab the dialog opens with (spec 001 §2.6): the requested one when the dialog offers it;
 * otherwise by the datum count — more than one: Table for table-capable types, else Cards; exactly
 * one: Single; none: Upload for a file frame that is not read-only, Single for types that can be
 * created by hand (when not read-only: a new datum is prepared there), else Table or Cards.
 */
export function initialTab(f: TabFacts, requested?: FrameTab): FrameTab {
  if (requested && availableTabs(f).includes(requested)) return requested;
  const tableOrCards: FrameTab = isTableKind(f.kind) ? 'table' : 'cards';
  if (f.count > 1) return tableOrCards;
  if (f.count === 1) return 'single';
  if (f.kind === 'file' && !f.readOnly) return 'upload';
  if (f.creatable && !f.readOnly) return 'single';
  return tableOrCards;
}
