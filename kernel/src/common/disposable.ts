/** Anything that registers or subscribes returns a Disposable; disposing twice is harmless. */
export interface Disposable {
  dispose(): void;
}

export namespace Disposable {
  export function create(fn: () => void): Disposable {
    let done = false;
    return {
      dispose() {
        if (done) return;
        done = true;
        fn();
      },
    };
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
    return Disposable.create(() => {
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
