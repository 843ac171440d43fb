/** Anything that registers or subscribes returns a Disposable; disposing twice is harmless. */
export interface Disposable {
  dispose(): void;
}

/**
 * Watches disposables being made, disposed and handed to an owner (a DisposableCollection, an
 * Emitter that ends its subscriptions): what a test made and neither disposed nor handed on has
 * leaked (VS Code's ensureNoDisposablesAreLeakedInTestSuite; @werkbank/testing installs one).
 */
export interface DisposableTracker {
  onCreated(d: Disposable): void;
  onDisposed(d: Disposable): void;
  /** `d` now belongs to something that disposes it with itself. */
  onOwned(d: Disposable): void;
}
let tracker: DisposableTracker | undefined;

/** Installs (or, without an argument, removes) the tracker; tests only. */
export function setDisposableTracker(t?: DisposableTracker): void {
  tracker = t;
}

/** Marks `d` as belonging to an owner that disposes it (see DisposableTracker). */
export function markOwned(d: Disposable): void {
  tracker?.onOwned(d);
}

function handle(fn: () => void, tracked: boolean): Disposable {
  let done = false;
  const d: Disposable = {
    dispose() {
      if (done) return;
      done = true;
      if (tracked) tracker?.onDisposed(d);
      fn();
    },
  };
  if (tracked) tracker?.onCreated(d);
  return d;
}

export namespace Disposable {
  /** A disposable that runs `fn` once, on the first dispose. */
  export function create(fn: () => void): Disposable {
    return handle(fn, true);
  }
  /** The same, never reported as leaked: for handles a caller may keep or drop (e.g. DisposableCollection.push). */
  export function untracked(fn: () => void): Disposable {
    return handle(fn, false);
  }
  export const NULL: Disposable = { dispose() {} };
}

/** Owns a set of disposables and disposes them in reverse order of addition. */
export class DisposableCollection implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  push(...disposables: Disposable[]): Disposable {
    if (this.disposed) {
      disposables.forEach((d) => d.dispose());
      return Disposable.NULL;
    }
    this.items.push(...disposables);
    disposables.forEach(markOwned);
    return Disposable.untracked(() => {
      for (const d of disposables) {
        const i = this.items.indexOf(d);
        if (i >= 0) this.items.splice(i, 1);
        d.dispose();
      }
    });
  }

  get size(): number {
    return this.items.length;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    while (this.items.length) {
      try {
        this.items.pop()!.dispose();
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length) throw errors[0];
  }
}
