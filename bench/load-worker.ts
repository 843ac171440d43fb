import { parentPort } from 'node:worker_threads';
import autocannon from 'autocannon';
import type { LoadOptions, LoadReply } from './load-runner';

/**
 * The worker side of LoadRunner: one autocannon job per message. The job runs for the warm-up
 * and the measured seconds in one go, so the measured window starts with every connection busy
 * (no ramp-up); only responses completing inside that window count. Every response time is
 * kept, so percentiles such as p95 (which autocannon's summary lacks) are exact. In count mode
 * (`amount`) every response counts and the window is the job's wall time.
 */
parentPort!.on('message', async ({ id, options }: { id: number; options: LoadOptions }) => {
  let reply: LoadReply;
  try {
    const latencies: number[] = [];
    const counted = options.amount !== undefined;
    let last = 0;
    const started = performance.now();
    const from = counted ? started : started + options.warmupSeconds * 1000;
    const to = counted ? Infinity : from + options.seconds * 1000;
    const job = autocannon({
      url: options.url,
      headers: options.headers,
      connections: options.connections,
      ...(counted ? { amount: options.amount } : { duration: options.warmupSeconds + options.seconds }),
      ...(options.timeoutSeconds ? { timeout: options.timeoutSeconds } : {}),
      // The run ends at the first sample after `duration`: sample often, so it ends on time.
      sampleInt: 100,
    });
    job.on('response', (_client, _status, _bytes, ms) => {
      const now = performance.now();
      if (now >= from && now <= to) latencies.push(ms);
      last = now;
    });
    const result = await job;
    reply = {
      id,
      result: {
        requests: latencies.length,
        seconds: counted ? (last - started) / 1000 : options.seconds,
        latencies,
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
      },
    };
  } catch (err) {
    reply = { id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  parentPort!.postMessage(reply);
});
