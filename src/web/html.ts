// HTML for the admin console, escaped by construction: the `html` tag escapes every value put into
// a template unless it is itself a piece of HTML made by `html` (so nesting works), and
// escapeHtml() is the one escaping function underneath. Pure, no I/O.

/** A piece of HTML that is safe to put into a page as it is. */
export class Html {
  /** Use the `html` tag rather than this constructor. */
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template may hold: escaped text, nested HTML, or lists of either; null/undefined/false add nothing. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML element body or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * Tagged template for HTML: html`<p title="${t}">${body}</p>` escapes `t` and `body` (attribute
 * values must be quoted in the template) unless they are Html themselves.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}
