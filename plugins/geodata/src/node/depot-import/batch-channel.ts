/** Thrown into the producer when the consumer stops pulling (it failed or left its loop early). */
export class ConsumerStopped extends Error {
  constructor() {
    super('the consumer of the batches stopped');
  }
}

/**
 * Turns a producer that pushes batches (a reader's sink, awaited) into an AsyncIterable a consumer
 * pulls (DepotAccess.writeStream). The producer starts on the first pull, so nothing is read
 * before the consumer is ready (e.g. has checked permissions). At most `capacity` batches wait
 * between the two: the producer reads the next batch while the consumer stores the last one, and
 * memory stays at a few batches. A producer's error is thrown to the consumer on its next pull;
 * when the consumer stops early, the producer's next push throws ConsumerStopped.
 */
export class BatchChannel<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;
  private stopped = false;
  private producing: Promise<void> | undefined;
  private wakeConsumer: (() => void) | undefined;
  private wakeProducer: (() => void) | undefined;

  constructor(
    private readonly produce: (push: (batch: T) => Promise<void>) => Promise<void>,
    private readonly capacity = 1,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    this.start();
    try {
      for (;;) {
        if (this.failure) throw this.failure.error;
        if (this.queue.length) {
          const batch = this.queue.shift()!;
          this.wake('producer');
          yield batch;
        } else if (this.ended) return;
        else await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
      }
    } finally {
      if (!this.ended) this.stop();
    }
  }

  /** Resolves once the producer has finished (or at once when it never started); never rejects. */
  async settled(): Promise<void> {
    await this.producing;
  }

  private start(): void {
    this.producing ??= this.produce((batch) => this.push(batch)).then(
      () => {
        this.ended = true;
        this.wake('consumer');
      },
      (error: unknown) => {
        this.failure = { error };
        this.wake('consumer');
      },
    );
  }

  private async push(batch: T): Promise<void> {
    while (!this.stopped && this.queue.length >= this.capacity) {
      await new Promise<void>((resolve) => (this.wakeProducer = resolve));
    }
    if (this.stopped) throw new ConsumerStopped();
    this.queue.push(batch);
    this.wake('consumer');
  }

  private stop(): void {
    this.stopped = true;
    this.queue.length = 0;
    this.wake('producer');
  }

  private wake(side: 'consumer' | 'producer'): void {
    const wake = side === 'consumer' ? this.wakeConsumer : this.wakeProducer;
    if (side === 'consumer') this.wakeConsumer = undefined;
    else this.wakeProducer = undefined;
    wake?.();
  }
}
