/**
 * spec 001 §5.1: a short name is valid only with letters, digits, underscore or hyphen; service
 * addresses use the id otherwise. The server refuses an invalid short name on save (decision 0060),
 * so the id stands in only for layers without one.
 */
export const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;
export const SLUG_MAX = 100;

export function isValidSlug(slug: unknown): slug is string {
  return typeof slug === 'string' && slug.length <= SLUG_MAX && SLUG_PATTERN.test(slug);
}

/** What service addresses substitute for a layer: its short name when valid, else its id. */
export function layerServiceName(layer: { id: number; slug?: string | null }): string {
  return isValidSlug(layer.slug) ? layer.slug : String(layer.id);
}
