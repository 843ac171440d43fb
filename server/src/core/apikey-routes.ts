import type Router from '@koa/router';
import type { DataSource } from 'typeorm';
import type { ComponentGate } from '@werkbank/kernel';
import { ApiError, guard, parseRef, returnedRows, type WerkbankContext, type WerkbankState } from '@werkbank/sdk/node';
import { readJsonObject } from '../http/body';
import type { AccountService } from '../auth/account-service';
import { pageParams } from '../resources/page-params';
import { decodeCursor, encodeCursor, invalidCursor, validCursorValue } from '../resources/list-cursor';
import { countParam, nextAddress } from '../resources/list-order';

/** The key list's order, as its cursors name it: newest first. */
const APIKEY_ORDER = '-created,-id';

/**
 * API keys (spec 000 §7 "POST /api/v1/apikey/ with user, realms; DELETE by key"; spec 002 §6:
 * superusers only). The key is shown once in the reply to POST; lists show only its prefix.
 */
export function mountApiKeyRoutes(
  router: Router<WerkbankState>,
  db: DataSource,
  accounts: AccountService,
  gate: ComponentGate,
  knownRealms: () => string[],
  bodyLimit: number,
): void {
  const superuser = (ctx: WerkbankContext) => {
    guard(ctx, gate, undefined, 'apikey');
    if (!ctx.state.user!.isSuperuser) throw ApiError.forbidden('superuser_required', 'errors.superuser_required');
  };
  const shape = (r: { key_prefix: string; user_id: number; realms: string[]; created: Date; expiration: Date | null }) => ({
    key: `wbk_${r.key_prefix}_…`,
    key_prefix: r.key_prefix,
    user: `/api/v1/user/${r.user_id}/`,
    realms: r.realms,
    created: new Date(r.created).toISOString(),
    expiration: r.expiration ? new Date(r.expiration).toISOString() : null,
    resource_uri: `/api/v1/apikey/${r.key_prefix}/`,
  });

  router.get('/api/v1/apikey/', async (ctx) => {
    superuser(ctx);
    const userId = ctx.query.user ? parseRef(String(ctx.query.user), '/api/v1/user/') : undefined;
    if (ctx.query.user && userId === undefined)
      throw ApiError.badRequest('invalid_field', 'errors.field_ref', { field: 'user', path: '/api/v1/user/' }, 'user');
    const query = Object.fromEntries(Object.entries(ctx.query).map(([k, v]) => [k, String(v ?? '')]));
    const { offset, limit } = pageParams(query);
    const withCount = countParam(query);
    const params: unknown[] = [userId ?? null];
    let where = `WHERE ($1::int IS NULL OR user_id = $1)`;
    const n = withCount
      ? ((await db.query(`SELECT count(*)::int AS n FROM werkbank_apikey ${where}`, params)) as { n: number }[])[0].n
      : null;
    // Newest first; behind a cursor (`after` from meta.next) the keyset of that order.
    const after = query.after ? decodeCursor(query.after) : undefined;
    if (after) {
      if (offset) throw ApiError.badRequest('invalid_parameter', 'errors.cursor_with_offset', {}, 'offset');
      const [created, id] = after.values;
      if (after.order !== APIKEY_ORDER || created === null || id === null) throw invalidCursor();
      if (!validCursorValue('datetime', created) || !validCursorValue('id', id)) throw invalidCursor();
      params.push(created, id);
      where += ` AND created <= $2 AND (created < $2 OR id < $3)`;
    }
    params.push(offset, limit + 1);
    const rows = (await db.query(
      `SELECT key_prefix, user_id, realms, created, expiration, created::text AS ck0, id::text AS ck1 FROM werkbank_apikey
       ${where} ORDER BY created DESC, id DESC OFFSET $${params.length - 1} LIMIT $${params.length}`,
      params,
    )) as (Parameters<typeof shape>[0] & { ck0: string; ck1: string })[];
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const next =
      rows.length > limit
        ? nextAddress('/api/v1/apikey/', query, encodeCursor({ order: APIKEY_ORDER, values: [last.ck0, last.ck1] }))
        : null;
    ctx.body = { objects: page.map(shape), meta: { offset: after ? null : offset, limit, total_count: n, next } };
  });

  // The realms a key may be limited to, '*' (every realm) first: the choices of the API key tab.
  router.get('/api/v2/backend/realms', (ctx) => {
    guard(ctx, gate, undefined, 'apikey');
    const names = ['*', ...knownRealms()];
    ctx.body = { objects: names.map((name) => ({ name })), meta: { offset: 0, limit: names.length, total_count: names.length } };
  });

  router.post('/api/v1/apikey/', async (ctx) => {
    superuser(ctx);
    const body = await readJsonObject(ctx, bodyLimit);
    for (const k of Object.keys(body)) {
      if (!['user', 'realms', 'expiration'].includes(k))
        throw ApiError.badRequest('unknown_field', 'errors.unknown_field', { field: k }, k);
    }
    const userId = parseRef(body.user, '/api/v1/user/');
    const [exists] = userId ? ((await db.query(`SELECT 1 FROM werkbank_user WHERE id = $1`, [userId])) as unknown[]) : [];
    if (!exists) throw ApiError.badRequest('invalid_user', 'errors.invalid_user', {}, 'user');
    const known = ['*', ...knownRealms()];
    const realms = body.realms ?? ['*'];
    if (!Array.isArray(realms) || !realms.length || !realms.every((r) => typeof r === 'string' && known.includes(r))) {
      throw ApiError.badRequest('invalid_realms', 'errors.invalid_realms', { realms: known.join(', ') }, 'realms');
    }
    let expiration: Date | null = null;
    // spec 002 §5: an empty date means none (the key does not expire).
    if (body.expiration !== undefined && body.expiration !== null && String(body.expiration).trim() !== '') {
      expiration = new Date(String(body.expiration));
      if (Number.isNaN(expiration.getTime()) || expiration.getTime() <= Date.now()) {
        throw ApiError.badRequest('invalid_expiration', 'errors.invalid_expiration', {}, 'expiration');
      }
    }
    const created = await accounts.createApiKey(userId!, realms as string[], expiration);
    const [row] = (await db.query(`SELECT key_prefix, user_id, realms, created, expiration FROM werkbank_apikey WHERE id = $1`, [
      created.id,
    ])) as Parameters<typeof shape>[0][];
    ctx.status = 201;
    ctx.body = { ...shape(row), key: created.key };
  });

  router.get('/api/v1/apikey/:key/', async (ctx) => {
    superuser(ctx);
    const prefix = /^wbk_([A-Za-z0-9]{12})_/.exec(ctx.params.key)?.[1] ?? ctx.params.key;
    const [row] = (await db.query(
      `SELECT key_prefix, user_id, realms, created, expiration FROM werkbank_apikey WHERE key_prefix = $1`,
      [prefix],
    )) as Parameters<typeof shape>[0][];
    if (!row) throw new ApiError(404, 'apikey_not_found', 'errors.apikey_not_found');
    ctx.body = shape(row);
  });

  router.delete('/api/v1/apikey/:key/', async (ctx) => {
    superuser(ctx);
    const raw = ctx.params.key;
    const prefix = /^wbk_([A-Za-z0-9]{12})_/.exec(raw)?.[1] ?? raw;
    const count = returnedRows(await db.query(`DELETE FROM werkbank_apikey WHERE key_prefix = $1 RETURNING id`, [prefix])).length;
    if (!count) throw new ApiError(404, 'apikey_not_found', 'errors.apikey_not_found');
    ctx.status = 204;
  });
}
