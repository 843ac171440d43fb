import { ApiError, type ResourceRequest } from '@werkbank/sdk/node';

/** A jsonb column's value as the resource layer hands it to hooks (JSON text) or as stored (parsed). */
export const parsed = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

/** The plugin's tables whose short names are unique, with the message for a taken one. */
const SLUG_TABLES = {
  view: { sql: `SELECT id FROM views_view WHERE slug = $1 AND id <> $2 LIMIT 1`, key: 'views:errors.slug_taken' },
  finalview: {
    sql: `SELECT id FROM views_finalview WHERE slug = $1 AND id <> $2 LIMIT 1`,
    key: 'views:errors.finalview_slug_taken',
  },
} as const;

/** 400 `slug_taken` when another view (or frozen view) than `id` has the short name `slug`; empty names pass. */
export async function refuseTakenSlug(
  req: ResourceRequest,
  kind: keyof typeof SLUG_TABLES,
  slug: unknown,
  id = 0,
): Promise<void> {
  if (typeof slug !== 'string' || slug === '') return;
  const [taken] = (await req.manager.query(SLUG_TABLES[kind].sql, [slug, id])) as unknown[];
  if (taken) throw ApiError.badRequest('slug_taken', SLUG_TABLES[kind].key, { slug }, 'slug');
}
