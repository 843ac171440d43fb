import { PassThrough } from 'node:stream';
import getRawBody from 'raw-body';
import { ApiError, type WerkbankContext } from '@werkbank/sdk/node';
import { closeAfterReply } from '../blob/close-after-reply';
import { containsNul, nulRefused } from './nul-guard';

/**
 * How long a JSON or form body may take to arrive by default (BODY_TIMEOUT_SECONDS sets it per
 * server, through `ctx.state.bodyTimeoutMs`). The HTTP server has no overall request timeout
 * (uploads of several GB need longer), so small bodies are bounded here: a client that trickles
 * its body is answered 408 and its connection closed instead of held open.
 */
export const BODY_TIMEOUT_MS = 30_000;

/**
 * Reads the request body as text, refusing bodies over `limit` bytes with 413 and slow ones with
 * 408 `body_timeout`. A refusal while the body is still arriving is replied to, then the
 * connection is closed (closeAfterReply): the client gets the documented answer, not a reset.
 */
export async function readText(ctx: WerkbankContext, limit: number, timeoutMs?: number): Promise<string> {
  const ms = timeoutMs ?? ctx.state.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) {
    closeAfterReply(ctx);
    throw new ApiError(413, 'body_too_large', 'errors.body_too_large', { limit });
  }
  // Read through a stage that can be failed on time without destroying the socket.
  const body = new PassThrough();
  const timedOut = new ApiError(408, 'body_timeout', 'errors.body_timeout', { seconds: Math.round(ms / 1000) });
  const timer = setTimeout(() => {
    ctx.req.unpipe(body);
    body.destroy(timedOut);
  }, ms);
  ctx.req.once('close', () => {
    if (!ctx.req.complete) body.destroy(new Error('request aborted'));
  });
  ctx.req.pipe(body);
  try {
    return await getRawBody(body, { limit, encoding: 'utf8' });
  } catch (e) {
    const err = e as { type?: string };
    if (e === timedOut) {
      closeAfterReply(ctx);
      throw timedOut;
    }
    if (err.type === 'entity.too.large') {
      ctx.req.unpipe(body);
      closeAfterReply(ctx);
      throw new ApiError(413, 'body_too_large', 'errors.body_too_large', { limit });
    }
    throw ApiError.badRequest('body_unreadable', 'errors.body_unreadable');
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads a JSON body of any kind (a list, an object, a value). Malformed JSON is 400, a NUL character
 * in any string or key 400 `invalid_text` (the database cannot store it). An empty body is undefined.
 */
export async function readJson(ctx: WerkbankContext, limit: number): Promise<unknown> {
  const text = await readText(ctx, limit);
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw ApiError.badRequest('malformed_json', 'errors.malformed_json', { detail: (e as Error).message });
  }
  if (containsNul(value)) throw nulRefused();
  return value;
}

/**
 * Reads a JSON object body. Malformed JSON or a non-object is 400, a NUL character in any string
 * or key 400 `invalid_text` (the database cannot store it). An empty body is `{}`.
 */
export async function readJsonObject(ctx: WerkbankContext, limit: number): Promise<Record<string, unknown>> {
  const value = await readJson(ctx, limit);
  if (value === undefined) return {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw ApiError.badRequest('not_an_object', 'errors.not_an_object');
  }
  return value as Record<string, unknown>;
}

/** Reads an application/x-www-form-urlencoded or JSON body into string fields (NUL: 400 `invalid_text`). */
export async function readForm(ctx: WerkbankContext, limit: number): Promise<Record<string, string>> {
  if (ctx.is('application/json')) {
    const obj = await readJsonObject(ctx, limit);
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, v == null ? '' : String(v)]));
  }
  const text = await readText(ctx, limit);
  const form = Object.fromEntries(new URLSearchParams(text));
  if (containsNul(form)) throw nulRefused();
  return form;
}
