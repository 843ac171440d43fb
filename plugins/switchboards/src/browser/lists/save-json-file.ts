/** How long a download's object URL stays valid: long enough for the browser to start saving. */
const REVOKE_AFTER_MS = 30_000;

/** A file name from an object's name: letters, digits, '.', '_' and '-' kept, the rest '_'. */
export function fileNameOf(name: string, suffix: string): string {
  const base = name.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 80) || 'switchboard';
  return `${base}${suffix}`;
}

/**
 * Offers `data` as a JSON file download named `fileName` (the browser's save dialog or downloads
 * folder). Called from a click handler.
 */
export function saveJsonFile(fileName: string, data: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
