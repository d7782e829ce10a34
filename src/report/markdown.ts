// Markdown from sessions → HTML that cannot carry live markup: raw HTML is shown as text, links
// keep only safe schemes, and images become links (a report never loads anything).

import { Marked, type Tokens } from 'marked';
import { escapeHtml, visibleControls } from './escape.js';
import { highlightBudget, highlightCode, knownLanguage, type HighlightBudget } from './highlight.js';

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

/** The page budget of the text being rendered: marked's renderer takes no context, and parsing is synchronous. */
let currentBudget: HighlightBudget = highlightBudget();
/** The depths of the headings the text being rendered is under, outermost first. */
let currentHeadings: number[] = [];

/** Message headings start at h3, below the page section (h2) that holds the message. */
const FIRST_MESSAGE_HEADING_LEVEL = 3;

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
    // A fenced block in the language its fence names, coloured by classes; no fence name, no colours.
    code({ text, lang }: Tokens.Code): string {
      const language = knownLanguage(/^\S*/.exec(lang ?? '')?.[0]);
      const code = highlightCode(text.replace(/\n$/, ''), language, currentBudget);
      const classes = code.language === null ? '' : ` class="hl language-${escapeHtml(code.language)}"`;
      const note = code.note === null ? '' : `<p class="note code-note">${escapeHtml(code.note)}</p>\n`;
      return `<pre><code${classes}>${code.html}\n</code></pre>\n${note}`;
    },
    // A message's headings sit below the section holding it (an h2), and each goes one level
    // below the nearest shallower heading before it: "## Plan", "#### Step", "### Results" are an
    // h3, an h4 and an h4, so that the page's outline skips no level whatever depths the writer
    // chose. The class keeps how big the writer made it.
    heading({ tokens, depth }: Tokens.Heading): string {
      while ((currentHeadings.at(-1) ?? 0) >= depth) currentHeadings.pop();
      currentHeadings.push(depth);
      const level = Math.min(6, FIRST_MESSAGE_HEADING_LEVEL - 1 + currentHeadings.length);
      return `<h${level} class="md-h${depth}">${this.parser.parseInline(tokens)}</h${level}>\n`;
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

/**
 * Markdown → safe HTML; text Markdown cannot sensibly hold (megabytes, absurd nesting) is shown
 * verbatim. Fenced code is highlighted within the page's budget (a fresh one when none is given).
 */
export function renderMarkdown(written: string, budget: HighlightBudget = highlightBudget()): string {
  // marked and highlight.js copy control characters through: shown as escapeHtml shows them.
  const text = visibleControls(written);
  if (text.length > MAX_MARKDOWN_CHARS || DEEP_BLOCKS.test(text)) return verbatim(text);
  currentBudget = budget;
  try {
    currentHeadings = [];
    return marked.parse(text) as string;
  } catch {
    // A shape the check above did not foresee that still drives marked's recursion too deep.
    return verbatim(text);
  } finally {
    currentBudget = highlightBudget();
    currentHeadings = [];
  }
}

/** A text too long to render is shown as written up to here, so that one message cannot make a page of tens of MB. */
const MAX_VERBATIM_CHARS = 400_000;

function verbatim(text: string): string {
  if (text.length <= MAX_VERBATIM_CHARS) return `<pre class="verbatim">${escapeHtml(text)}</pre>`;
  const left = (text.length - MAX_VERBATIM_CHARS).toLocaleString('en-US');
  return `<pre class="verbatim">${escapeHtml(text.slice(0, MAX_VERBATIM_CHARS))}</pre><p class="note">… ${left} more characters not shown in the report.</p>`;
}
