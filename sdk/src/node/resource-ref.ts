/**
 * The id in a reference to an object of a kind whose list address is `base` (`/api/v1/depot/`):
 * a positive integer, its digits, or the object's address (`/api/v1/depot/3/`). Undefined for
 * anything else, so callers answer with their own validation message.
 */
export function parseRef(value: unknown, base: string): number | undefined {
  // Ids are PostgreSQL integers: at most 9 digits here, so no value overflows the column.
  if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 1e9) return value;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (/^\d{1,9}$/.test(s)) return Number(s);
  if (s.startsWith(base)) {
    const rest = s.slice(base.length).replace(/\/$/, '');
    if (/^\d{1,9}$/.test(rest)) return Number(rest);
  }
  return undefined;
}
