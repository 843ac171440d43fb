/**
 * Puts `text` on the clipboard: the Clipboard API where the page may use it (secure contexts), else
 * a hidden text area and the copy command. Rejects when neither works, so the caller can say so.
 */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    if (!document.execCommand?.('copy')) throw new Error('copy refused');
  } finally {
    area.remove();
  }
}
