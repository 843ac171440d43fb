/** The part of autocannon 8's programmatic API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      headers?: Record<string, string>;
      /** Milliseconds between samples; a run stops at the first sample after `duration`. */
      sampleInt?: number;
    }

    /**
     * The fields every result has. Off the main thread (as in LoadRunner's worker) autocannon
     * answers its unaggregated result, without the `requests` and `latency` summaries.
     */
    interface Result {
      /** Seconds the run took. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
    }

    interface Instance extends PromiseLike<Result> {
      /** Every completed response of the measured run; `responseTime` in milliseconds. */
      on(
        event: 'response',
        listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
      ): Instance;
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
