import sanitizeHtml from 'sanitize-html';
import { marked } from 'marked';
import type { ResourceDefinition } from '@werkbank/sdk/node';
import { canvasKind, switchboardField, uiFields } from './canvas-kind';
import { SwitchboardsServices } from './switchboards-services';

const NOTE_HTML: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    'b',
    'i',
    'u',
    's',
    'code',
    'pre',
    'ul',
    'ol',
    'li',
    'a',
    'h1',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'hr',
  ],
  allowedAttributes: { a: ['href', 'title'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
};

/** A note's text (Markdown) as sanitised HTML: no scripts, handlers, styles or foreign schemes. */
export function noteHtml(text: string): string {
  return sanitizeHtml(marked.parse(text, { async: false }), NOTE_HTML);
}

/** Notes: text on the canvas, rendered as sanitised HTML. */
export function noteResource(services: SwitchboardsServices): ResourceDefinition {
  return canvasKind(
    'note',
    'NOTE',
    services,
    {
      table: 'switchboard_note',
      label: { de: 'die Notiz', en: 'note' },
      description: 'Notes on a switchboard canvas; `text` is Markdown, `html` the sanitised rendering.',
      fields: {
        switchboard: switchboardField,
        text: { type: 'text', default: '', maxLength: 20000 },
        ...uiFields,
      },
      hooks: {
        async serialize(rows, out) {
          out.forEach((o, i) => (o.html = noteHtml(String(rows[i].text))));
        },
      },
    },
    (row) => ({ text: row.text, ui_x: row.ui_x, ui_y: row.ui_y }),
  );
}
