// Module resolution for plugins installed outside the Werkbank folder (WERKBANK_PLUGIN_DIRS),
// registered by plugin-loading.ts with node:module's register(). Runs on the loader thread.
// A plugin's imports of the packages the Werkbank shares (the SDK and the libraries it hands on:
// React, MobX, inversify, TypeORM, ...) resolve to the Werkbank's own copies, so there is one
// copy of each (STYLE §14); other packages resolve from the plugin's own folder first, then from
// the Werkbank's.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

let hostParent;
let pluginRoots = [];
let shared = [];

export function initialize(data) {
  hostParent = data.hostParent;
  pluginRoots = data.pluginRoots;
  shared = data.shared;
}

const packageOf = (specifier) => {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  const bare = !/^(\.|\/|[a-z]+:)/i.test(specifier);
  if (!bare || !parent || !pluginRoots.some((r) => parent.startsWith(r))) return next(specifier, context);
  const pkg = packageOf(specifier);
  const isShared = shared.some((s) => (s.endsWith('*') ? pkg.startsWith(s.slice(0, -1)) : pkg === s));
  if (isShared) return next(specifier, { ...context, parentURL: hostParent });
  try {
    return await next(specifier, context);
  } catch (e) {
    if (e?.code !== 'ERR_MODULE_NOT_FOUND') throw e;
    return next(specifier, { ...context, parentURL: hostParent });
  }
}

// A plugin's TypeScript outside the Werkbank's tsconfig (tsx applies a tsconfig only to the files it
// includes) is compiled here with the Werkbank's settings: above all legacy decorators, which
// inversify's @injectable/@inject need — without them a plugin's injected services stay unset.
const TS_FILE = /\.(ts|tsx|mts)$/;
const COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'ESNext',
  jsx: 'react-jsx',
  experimentalDecorators: true,
  useDefineForClassFields: false,
  esModuleInterop: true,
  inlineSourceMap: true,
  inlineSources: true,
};
let typescript;

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !TS_FILE.test(new URL(url).pathname) || !pluginRoots.some((r) => url.startsWith(r)))
    return next(url, context);
  typescript ??= (await import('typescript')).default;
  const fileName = fileURLToPath(url);
  const { outputText } = typescript.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: typescript.convertCompilerOptionsFromJson(COMPILER_OPTIONS, '').options,
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
