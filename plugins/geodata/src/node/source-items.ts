import type { FrameItems, FunctionRunContext } from '@werkbank/sdk/node';

/**
 * Adds the source's name to a failure's parameters (`source`), so a message names the file. It
 * also sets the i18next context `source`: a message written for callers that do not know the file
 * (the zip and XML checks of sources/) may have a variant `<key>_source` that names it.
 */
export async function named(items: Promise<FrameItems>, source: string): Promise<FrameItems> {
  try {
    return await items;
  } catch (e) {
    const params = (e as { params?: Record<string, unknown> }).params;
    if (params && typeof params === 'object') {
      params.source = source;
      params.context ??= 'source';
    }
    throw e;
  }
}

/** Appends `more` to `all` (a spread would overflow the stack with hundreds of thousands of items). */
export function append(all: FrameItems, more: FrameItems): void {
  for (const item of more) all.push(item);
}

/** The run context of source `i` of `n`: its progress is its share of the whole run. */
export function part(ctx: FunctionRunContext, i: number, n: number): FunctionRunContext {
  return { ...ctx, progress: (f) => ctx.progress((i + f) / n) };
}
