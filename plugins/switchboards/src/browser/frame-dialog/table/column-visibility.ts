import { makeAutoObservable } from '@werkbank/sdk/browser';

/** spec 001 §9: the first 8 columns are visible, the rest hidden; a filter box above 8 columns. */
export const VISIBLE_COLUMNS = 8;
/** spec 001 §9: the hidden-column badge caps at 99. */
export const BADGE_CAP = 99;

/** The hidden-column badge's text: the count, '99+' above 99. */
export const badgeText = (hidden: number) => (hidden > BADGE_CAP ? `${BADGE_CAP}+` : String(hidden));

/**
 * Which of a table's columns are shown: the first 8 unless the user chose otherwise in the column
 * chooser; while the filter box holds text, every column whose name contains it (ignoring case).
 */
export class ColumnVisibility {
  /** Choices made in the column chooser, by column id. */
  private readonly chosen = new Map<string, boolean>();
  filter = '';

  constructor() {
    makeAutoObservable(this);
  }

  /** Whether the column at `position` is chosen to be shown (the filter aside). */
  isChosen(id: string, position: number): boolean {
    return this.chosen.get(id) ?? position < VISIBLE_COLUMNS;
  }

  setChosen(id: string, shown: boolean): void {
    this.chosen.set(id, shown);
  }

  setAll(ids: string[], shown: boolean): void {
    for (const id of ids) this.chosen.set(id, shown);
  }

  setFilter(text: string): void {
    this.filter = text;
  }

  /** True when the column's name contains the filter text (or there is none). */
  matches(name: string): boolean {
    const f = this.filter.trim().toLowerCase();
    return !f || name.toLowerCase().includes(f);
  }

  /** The columns the table shows, in their order. */
  shown<T extends { id: string }>(columns: T[], nameOf: (c: T) => string): T[] {
    if (this.filter.trim()) return columns.filter((c) => this.matches(nameOf(c)));
    return columns.filter((c, i) => this.isChosen(c.id, i));
  }
}
