// Markdown from sessions → HTML that cannot carry live markup: raw HTML is shown as text, links
// keep only safe schemes, and images become links (a report never loads anything).

import { Marked, type Tokens } from 'marked';
import { escapeHtml } from './escape.js';

/** Beyond this, a text is shown verbatim: Markdown parsing of megabytes of log is slow and useless. */
const MAX_MARKDOWN_CHARS = 200_000;

/** Links that leave the report for the web or mail. In-page anchors from a message would point at
 * headings that carry no ids here, so they are shown as text rather than as dead links. */
const SAFE_URL = /^(?:https?:|mailto:)/i;

/** Browsers ignore whitespace and control characters inside a URL's scheme (`java\nscript:`). */
export function safeUrl(href: string): string | null {
  const compact = href.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  return SAFE_URL.test(compact) ? compact : null;
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link): string {
      const inner = this.parser.parseInline(tokens);
      const url = safeUrl(href);
      if (url === null) return inner;
      const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(url)}"${titleAttr} rel="noopener noreferrer">${inner}</a>`;
    },
    // GFM strikes through `~one~` too; paths (`PATH=~/bin:~/go/bin`, a redacted home) are far more
    // common in sessions than that spelling, so only `~~two~~` strikes through.
    del({ raw, tokens }: Tokens.Del): string {
      return raw.startsWith('~~') ? `<del>${this.parser.parseInline(tokens)}</del>` : escapeHtml(raw);
    },
    // A task list's box as a character: pages carry no form controls.
    checkbox({ checked }: Tokens.Checkbox): string {
      return checked ? '☑ ' : '☐ ';
    },
    image({ href, text }: Tokens.Image): string {
      const label = `[image: ${escapeHtml(text || 'untitled')}]`;
      const url = safeUrl(href);
      return url === null ? label : `<a href="${escapeHtml(url)}" rel="noopener noreferrer">${label}</a>`;
    },
  },
});

/** Block markers (`>`, `-`, `*`, `+`, `1.`) stacked deeper than this on one line read as text: marked nests them by recursion. */
const MAX_BLOCK_NESTING = 40;
const DEEP_BLOCKS = new RegExp(`^[ \\t]*(?:(?:[>*+-]|\\d{1,9}[.)])[ \\t]*){${MAX_BLOCK_NESTING},}`, 'm');

/** Markdown → safe HTML; text Markdown cannot sensibly hold (megabytes, absurd nesting) is shown verbatim. */
export function renderMarkdown(text: string): string {
  if (text.length > MAX_MARKDOWN_CHARS || DEEP_BLOCKS.test(text)) return verbatim(text);
  try {
    return marked.parse(text) as string;
  } catch {
    // A shape the check above did not foresee that still drives marked's recursion too deep.
    return verbatim(text);
  }
}

function verbatim(text: string): string {
  return `<pre class="verbatim">${escapeHtml(text)}</pre>`;
}
