import { ApiError } from '@werkbank/sdk/node';
import { NodeRunError } from './node-run-error';
import { SwitchboardsServices } from './switchboards-services';

/**
 * A run's failure as a translation key with its parameters, stored beside the text
 * (`exception_i18n` of nodes and node runs), so that each reader gets it in their own language:
 * the text alone is in the language of whoever started the run (issue 14 item 19).
 */
export interface RunMessage {
  key: string;
  params: Record<string, unknown>;
}

/**
 * The message of an error a run failed with, when it has a key (NodeRunError, ApiError: what
 * functions throw through `failure`); null for any other error, whose text is all there is.
 */
export function runMessageOf(e: unknown): RunMessage | null {
  if (e instanceof NodeRunError || e instanceof ApiError) return { key: e.key, params: e.params ?? {} };
  return null;
}

/**
 * A stored exception in the reader's language: translated from its key when it has one, else the
 * stored text; '' stays '' (no exception). Never throws.
 */
export function exceptionText(
  services: Pick<SwitchboardsServices, 'translate'>,
  lang: string,
  text: unknown,
  i18n: unknown,
): string {
  const stored = typeof text === 'string' ? text : '';
  const m = i18n as Partial<RunMessage> | null | undefined;
  if (!stored || !m || typeof m.key !== 'string') return stored;
  try {
    return services.translate(lang, m.key, m.params ?? {});
  } catch {
    return stored;
  }
}

/**
 * A stack trace as superusers see it: server paths cut to the file name (`/srv/app/plugins/x/y.ts:3:7`
 * → `y.ts:3:7`, `file:///…` too). Anyone else gets null.
 */
export function visibleStack(stack: unknown, superuser: boolean): string | null {
  if (!superuser || typeof stack !== 'string') return null;
  return stack.replace(/(?:file:\/\/)?(?:[A-Za-z]:)?[\\/](?:[^\s()\\/:]+[\\/])+/g, '');
}
