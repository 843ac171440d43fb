import { Disposable } from './disposable';

export type Event<T> = (listener: (e: T) => void) => Disposable;

/** A typed event source. Listeners are called synchronously in subscription order. */
export class Emitter<T> implements Disposable {
  private listeners: Array<(e: T) => void> = [];

  readonly event: Event<T> = (listener) => {
    // A wrapper per subscription, so disposing one removes only that one (not every
    // subscription of the same function).
    const subscription = (e: T) => listener(e);
    this.listeners.push(subscription);
    return Disposable.create(() => {
      this.listeners = this.listeners.filter((l) => l !== subscription);
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
