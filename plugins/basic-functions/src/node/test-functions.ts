import type { FunctionContribution, FunctionDescriptor, FunctionRunContext } from '@werkbank/sdk/node';
import { failure, itemsOf, paramOf } from './frame-items';

/** Progress reports while waiting, at most this often (ms). */
const TICK = 50;

/**
 * Resolves after `ms` milliseconds, reporting progress. Rejects with the signal's reason as soon as
 * the run is aborted (also when it already was).
 */
export function waitFor(ms: number, ctx: FunctionRunContext): Promise<void> {
  const { signal } = ctx;
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const start = Date.now();
    const tick = setInterval(() => ctx.progress(Math.min(1, (Date.now() - start) / ms)), Math.max(1, Math.min(TICK, ms / 10)));
    const cleanup = () => {
      clearTimeout(done);
      clearInterval(tick);
      signal.removeEventListener('abort', onAbort);
    };
    const done = setTimeout(() => {
      cleanup();
      ctx.progress(1);
      resolve();
    }, ms);
    const onAbort = () => {
      cleanup();
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Hidden functions the engine's tests run: a failure, a slow node, a superuser-only node. */
export const TEST_FUNCTIONS: FunctionDescriptor[] = [
  {
    id: 'test.fail',
    version: '1',
    verbose_name: { de: 'Test: fehlschlagen', en: 'Test: fail' },
    doc: {
      de: 'Schlägt immer fehl, mit message als Fehlermeldung. Für Tests der Ausführung.',
      en: 'Always fails, with message as the error. For tests of the execution.',
    },
    hidden: true,
    inputs: [{ name: 'message', content_type: 'string', is_optional: true }],
    outputs: [],
    run: async (inputs) => {
      const message = paramOf(inputs, 'message', '');
      if (typeof message === 'string' && message) throw new Error(message);
      throw failure('test_fail');
    },
  },
  {
    id: 'test.wait',
    version: '1',
    verbose_name: { de: 'Test: warten', en: 'Test: wait' },
    doc: {
      de: 'Wartet ms Millisekunden (abbrechbar) und gibt value unverändert weiter. Für Tests der Ausführung.',
      en: 'Waits ms milliseconds (can be aborted) and passes value on unchanged. For tests of the execution.',
    },
    hidden: true,
    inputs: [
      { name: 'ms', content_type: 'int', is_optional: true, default_value: { value: 0 } },
      { name: 'value', content_type: 'any', is_optional: true },
    ],
    outputs: [{ name: 'value', content_type: 'any' }],
    run: async (inputs, ctx) => {
      const ms = paramOf(inputs, 'ms', 0);
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw failure('not_a_number', { item: 'ms[0]' });
      ctx.log(`waiting ${ms} ms`);
      await waitFor(ms, ctx);
      return { value: itemsOf(inputs, 'value') };
    },
  },
  {
    id: 'test.superuser',
    version: '1',
    verbose_name: { de: 'Test: nur Administratoren', en: 'Test: administrators only' },
    doc: {
      de: 'Gibt value unverändert weiter; nur Administratoren dürfen ihn ausführen. Für Tests der Ausführung.',
      en: 'Passes value on unchanged; only administrators may run it. For tests of the execution.',
    },
    superuser_required: true,
    hidden: true,
    inputs: [{ name: 'value', content_type: 'any', is_optional: true }],
    outputs: [{ name: 'value', content_type: 'any' }],
    run: async (inputs) => ({ value: itemsOf(inputs, 'value') }),
  },
];

export const testFunctions: FunctionContribution = {
  registerFunctions: (registry) => TEST_FUNCTIONS.forEach((f) => registry.add(f)),
};
