import { Disposable } from './disposable';

export type Event<T> = (listener: (e: T) => void) => Disposable;

/** A typed event source. Listeners are called synchronously in subscription order. */
export class Emitter<T> implements Disposable {
  private listeners: Array<(e: T) => void> = [];

  readonly event: Event<T> = (listener) => {
    this.listeners.push(listener);
    return Disposable.create(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }

  get listenerCount(): number {
    return this.listeners.length;
  }

  dispose(): void {
    this.listeners = [];
  }
}
