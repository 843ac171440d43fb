import { ApiError, type FunctionDescriptor, type FunctionInputs, type FunctionOutputs } from '@werkbank/sdk/node';
import { NodeRunError } from './node-run-error';

/**
 * The function's result, or the abort's reason as soon as the run is stopped (even if the function
 * ignores it). Rejects with a NodeRunError when the function returns something other than lists
 * of datum objects per port.
 */
export function callFunction(
  fn: FunctionDescriptor,
  inputs: FunctionInputs,
  controller: AbortController,
  ctx: Parameters<FunctionDescriptor['run']>[1],
): Promise<FunctionOutputs> {
  return new Promise<FunctionOutputs>((resolve, reject) => {
    const onAbort = () => reject(controller.signal.reason instanceof Error ? controller.signal.reason : new Error('Aborted'));
    if (controller.signal.aborted) return onAbort();
    controller.signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(() => fn.run(inputs, ctx))
      .then(
        (out) => {
          controller.signal.removeEventListener('abort', onAbort);
          if (!out || typeof out !== 'object')
            return reject(new NodeRunError('switchboards:errors.bad_outputs', { name: fn.id }));
          for (const [port, items] of Object.entries(out)) {
            if (!Array.isArray(items) || items.some((i) => !i || typeof i !== 'object' || Array.isArray(i))) {
              return reject(new NodeRunError('switchboards:errors.bad_output_items', { name: fn.id, port }));
            }
          }
          resolve(out);
        },
        (e) => {
          controller.signal.removeEventListener('abort', onAbort);
          reject(e instanceof Error || e instanceof ApiError ? e : new Error(String(e)));
        },
      );
  });
}
