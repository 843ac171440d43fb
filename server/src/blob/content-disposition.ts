/**
 * A Content-Disposition value with an ASCII `filename` fallback and the exact name as RFC 5987
 * `filename*` (UTF-8, percent-encoded). Only the last path segment of `filename` is used; an
 * empty name becomes `download`.
 */
export function contentDisposition(type: 'attachment' | 'inline', filename: string): string {
  const name =
    filename
      .split(/[/\\]/)
      .pop()
      ?.replace(/[\r\n\t]/g, ' ') || 'download';
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
