/**
 * Markdown of selection fields (spec 001 §3.1 types markdown and markdown_only) as safe HTML:
 * marked with a renderer that writes raw HTML as text, keeps only web and relative addresses in
 * links and images (others become plain text), and opens links in a new tab without an opener.
 */
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '@werkbank/sdk';
import { safeUrl } from './feature-info';

const safe = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
    link(token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      const href = safeUrl(token.href);
      return href ? `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${text}</a>` : text;
    },
    image(token: Tokens.Image) {
      const src = safeUrl(token.href);
      return src ? `<img src="${escapeHtml(src)}" alt="${escapeHtml(token.text)}">` : escapeHtml(token.text);
    },
  },
});

/** The HTML of a Markdown text, safe to show. */
export function markdownHtml(text: string): string {
  return safe.parse(text, { async: false });
}
