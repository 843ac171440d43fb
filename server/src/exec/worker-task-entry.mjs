// The one module piscina's threads load: it imports the task's module (a plugin's, by file URL)
// and calls the named export with the input. Plain JavaScript, so it loads before any loader.
// Loader hooks do not reach worker threads: TypeScript task modules get tsx's loader here, and
// plugins installed outside the Werkbank the same resolve hook as the main thread
// (plugin-resolve-hook.mjs, its data passed as workerData).
// An ApiError crosses the thread boundary as data (structured clone keeps only an error's message)
// and is made an ApiError again by PiscinaWorkerPool.
import { register } from 'node:module';
import { workerData } from 'node:worker_threads';

const API_ERROR = Symbol.for('werkbank.ApiError');
let loaders;

function ensureLoaders() {
  loaders ??= (async () => {
    const { register: registerTsx } = await import('tsx/esm/api');
    registerTsx();
    if (workerData?.pluginHook) register('../plugin-resolve-hook.mjs', import.meta.url, { data: workerData.pluginHook });
  })();
  return loaders;
}

export default async function runTask({ module, name, input }) {
  await ensureLoaders();
  const mod = await import(module);
  const fn = mod[name];
  if (typeof fn !== 'function') throw new Error(`The worker task module ${module} has no export '${name}'`);
  try {
    return { output: await fn(input) };
  } catch (e) {
    if (e && e[API_ERROR]) return { apiError: { status: e.status, code: e.code, key: e.key, params: e.params, field: e.field } };
    throw e;
  }
}
