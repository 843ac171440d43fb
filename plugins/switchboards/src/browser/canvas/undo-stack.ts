import { makeAutoObservable } from '@werkbank/sdk/browser';

/** One undoable canvas edit. `refs` are the addresses it touches (as they were when it was made). */
export interface UndoEntry {
  label: string;
  refs: string[];
  undo(): Promise<void>;
  redo(): Promise<void>;
}

/** How many edits can be undone. */
export const UNDO_LIMIT = 100;

/**
 * Undo and redo of canvas edits (beyond spec 000; Ctrl+Z, Ctrl+Shift+Z). Re-creating a deleted
 * object gives it a new address: `alias` records old → new, and entries `resolve` their addresses
 * through it, so older entries keep working on the re-created object. When someone else deletes an
 * object (a live _DELETE we did not cause), `invalidate` drops every entry that touches it, so an
 * undo never resurrects or moves what a colleague removed.
 */
export class UndoStack {
  private done: UndoEntry[] = [];
  private undone: UndoEntry[] = [];
  private readonly aliases = new Map<string, string>();
  /** How many edits were recorded so far (to see which came while an undo or redo was under way). */
  private edits = 0;
  /** Edits sent to the server and not yet recorded: an undo or redo waits for them. */
  private readonly saving = new Set<Promise<unknown>>();
  busy = false;

  constructor() {
    makeAutoObservable<UndoStack, 'aliases'>(this, { aliases: false });
  }

  get canUndo(): boolean {
    return !this.busy && this.done.length > 0;
  }

  get canRedo(): boolean {
    return !this.busy && this.undone.length > 0;
  }

  push(entry: UndoEntry): void {
    this.edits++;
    this.done.push(entry);
    if (this.done.length > UNDO_LIMIT) this.done.shift();
    this.undone = [];
  }

  /**
   * Runs an edit that records itself with `push` when the server has taken it. An undo or redo
   * asked for meanwhile waits until it is recorded: Ctrl+Z right after a drag takes back the drag,
   * not the edit before it, however slowly the server answers.
   */
  track<T>(edit: () => Promise<T>): Promise<T> {
    const saved: Promise<T> = edit().finally(() => this.saving.delete(saved));
    this.saving.add(saved);
    return saved;
  }

  /** The current address of an object that may have been deleted and re-created since. */
  resolve(uri: string): string {
    let cur = uri;
    for (let i = 0; i < 1000 && this.aliases.has(cur); i++) cur = this.aliases.get(cur)!;
    return cur;
  }

  alias(from: string, to: string): void {
    if (from !== to) this.aliases.set(from, to);
  }

  /** Drops every entry touching `uri` (someone else deleted it). */
  invalidate(uri: string): void {
    const touches = (e: UndoEntry) => e.refs.some((r) => this.resolve(r) === uri);
    this.done = this.done.filter((e) => !touches(e));
    this.undone = this.undone.filter((e) => !touches(e));
  }

  /** Undoes the last edit; a failure drops it and rethrows (the canvas tells the user). */
  async undo(): Promise<UndoEntry | undefined> {
    return this.step('undo');
  }

  async redo(): Promise<UndoEntry | undefined> {
    return this.step('redo');
  }

  private async step(op: 'undo' | 'redo'): Promise<UndoEntry | undefined> {
    if (this.busy) return undefined;
    this.busy = true;
    try {
      while (this.saving.size) await Promise.allSettled([...this.saving]);
      const entry = (op === 'undo' ? this.done : this.undone).pop();
      if (!entry) return undefined;
      const edits = this.edits;
      await entry[op]();
      this.settle(op, entry, this.edits - edits);
      return entry;
    } finally {
      this.setIdle();
    }
  }

  /**
   * Files a finished step. The user may edit while it is under way (drag a node a redo just brought
   * back): a redone entry goes beneath those edits, so Ctrl+Z takes back the latest edit first; an
   * undone entry cannot be redone after them (a new edit clears what could be redone).
   */
  private settle(op: 'undo' | 'redo', entry: UndoEntry, editsSince: number): void {
    if (op === 'undo') {
      if (!editsSince) this.undone.push(entry);
      return;
    }
    this.done.splice(Math.max(0, this.done.length - editsSince), 0, entry);
    if (this.done.length > UNDO_LIMIT) this.done.shift();
  }

  private setIdle(): void {
    this.busy = false;
  }
}
