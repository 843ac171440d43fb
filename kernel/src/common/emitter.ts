import { Disposable, markOwned } from './disposable';

export type Event<T> = (listener: (e: T) => void) => Disposable;

/** A typed event source. Listeners are called synchronously in subscription order. */
export class Emitter<T> implements Disposable {
  private listeners: Array<(e: T) => void> = [];
  private readonly subscriptions = new Set<Disposable>();

  readonly event: Event<T> = (listener) => {
    // A wrapper per subscription, so disposing one removes only that one (not every
    // subscription of the same function).
    const subscription = (e: T) => listener(e);
    this.listeners.push(subscription);
    const d = Disposable.create(() => {
      this.listeners = this.listeners.filter((l) => l !== subscription);
      this.subscriptions.delete(d);
    });
    this.subscriptions.add(d);
    return d;
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }

  get listenerCount(): number {
    return this.listeners.length;
  }

  /** Ends every subscription (they count as disposed with the emitter). */
  dispose(): void {
    this.listeners = [];
    this.subscriptions.forEach(markOwned);
    this.subscriptions.clear();
  }
}
