/**
 * The address of a workflow image if it is safe to load in every reader's browser, else undefined:
 * an absolute http(s) address; on this server's own origin only read-only API addresses (an image
 * may not make a reader's browser call e.g. /accounts/logout/ with their session).
 */
export function safeImageUrl(url: string | null | undefined, origin = window.location.origin): string | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  if (parsed.origin === origin && !parsed.pathname.startsWith('/api/')) return undefined;
  return parsed.href;
}
