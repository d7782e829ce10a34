// Markdown from sessions → HTML that cannot carry live markup: raw HTML is shown as text, links
// keep only safe schemes, and images become links (a report never loads anything).

import { Marked, type Tokens } from 'marked';
import { escapeHtml, visibleControls, visibleReferences } from './escape.js';
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

/** `--redact`'s marker where a link's text or a link definition's name would begin. */
const MARKER_AT_LINK = /^!?\[REDACTED:[a-z0-9-]+\]/;
const MARKER_AT_DEFINITION = /^ {0,3}\[REDACTED:[a-z0-9-]+\]/;

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  // A redaction marker is text, whatever follows it: a secret written before ": https://…" made
  // a link definition of its line (the line gone, the same secret elsewhere a link to that
  // address), one before "(https://…)" a link. Nothing here means: no such token (false would
  // hand the text to marked's own tokenizer).
  tokenizer: {
    def(src: string) {
      return MARKER_AT_DEFINITION.test(src) ? undefined : false;
    },
    link(src: string) {
      return MARKER_AT_LINK.test(src) ? undefined : false;
    },
    // "[REDACTED:kind][1]" or "[REDACTED:kind]" under a definition the writer named so ("[redacted:kind]: …").
    reflink(src: string) {
      return MARKER_AT_LINK.test(src) ? undefined : false;
    },
  },
  renderer: {
    // A block of raw HTML or XML (`<config>` … `</config>`) is a paragraph of its lines as
    // written: escaped alone, its line breaks ran together.
    html(token: Tokens.HTML | Tokens.Tag): string {
      if (!('block' in token) || !token.block) return escapeHtml(token.text);
      return `<p>${escapeHtml(token.text.replace(/\s+$/, '')).replace(/\n/g, '<br>\n')}</p>\n`;
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
    // A task list's box as a character: pages carry no form controls. Marked so the stylesheet
    // drops its item's bullet (two markers on one line read as a list inside a list).
    checkbox({ checked }: Tokens.Checkbox): string {
      return `<span class="task-box">${checked ? '☑' : '☐'}</span> `;
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
 * Shapes marked takes time for out of proportion to their length (with line breaks kept, as here):
 * a run of spaces (150,000 took 25 s), and a paragraph thick with emphasis marks that pair with
 * none (`_a` 90,000 times took a minute). No writer's prose is either; a model stuck repeating
 * itself writes them. A long paragraph of bold terms, a quarter marks at most, parses in time.
 */
const LONG_SPACE_RUN = / {1000}/;
const MANY_EMPHASIS_MARKS = 1000;

/** Emphasis marks (`_`, `*`, `~`) in a text, counted without making a list of them: every message is asked. */
function emphasisMarks(text: string): number {
  let marks = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5f || c === 0x2a || c === 0x7e) marks++;
  }
  return marks;
}

function slowToParse(text: string): boolean {
  if (LONG_SPACE_RUN.test(text)) return true;
  if (emphasisMarks(text) <= MANY_EMPHASIS_MARKS) return false;
  // Code's marks (snake_case, __init__) are none.
  return text
    .replace(FENCED_CODE, '')
    .split(/\n[ \t]*\n/)
    .some((paragraph) => {
      const marks = emphasisMarks(paragraph);
      return marks > MANY_EMPHASIS_MARKS && marks * 4 > paragraph.length;
    });
}

/**
 * Markdown → safe HTML; text Markdown cannot sensibly hold (megabytes, absurd nesting, shapes
 * slow to parse) is shown verbatim. Fenced code is highlighted within the page's budget (a fresh
 * one when none is given).
 */
export function renderMarkdown(written: string, budget: HighlightBudget = highlightBudget()): string {
  // marked and highlight.js copy control characters through: shown as escapeHtml shows them.
  const text = visibleControls(written);
  if (text.length > MAX_MARKDOWN_CHARS || DEEP_BLOCKS.test(text) || slowToParse(text)) return verbatim(text);
  currentBudget = budget;
  try {
    currentHeadings = [];
    // marked writes a numeric reference out as its character (`&#x202E;` as U+202E itself) and
    // keeps a named one for the browser to read: either is shown as the character written is.
    return withOwnDirection(visibleReferences(visibleControls(marked.parse(text) as string)));
  } catch {
    // A shape the check above did not foresee that still drives marked's recursion too deep.
    return verbatim(text);
  } finally {
    currentBudget = highlightBudget();
    currentHeadings = [];
  }
}

/**
 * marked's block tags (the text in them is escaped: no `<p` of the writer's is a tag). Lists and
 * tables, not their items: an element's "auto" looks past children that say their own, and the
 * bullets and columns go by the list's or the table's direction.
 */
const BLOCK_TAG = /<(p|ul|ol|table|h[3-6])(?=[ >])/g;

/**
 * Each block in the direction of its own text, as the writer wrote it: a paragraph or a list in
 * Hebrew or Arabic reads right to left, its punctuation and bullets where they belong.
 */
function withOwnDirection(html: string): string {
  return html.replace(BLOCK_TAG, '<$1 dir="auto"');
}

/** A text too long to render is shown as written up to here, so that one message cannot make a page of tens of MB. */
const MAX_VERBATIM_CHARS = 400_000;

function verbatim(text: string): string {
  if (text.length <= MAX_VERBATIM_CHARS) return `<pre class="verbatim">${escapeHtml(text)}</pre>`;
  const left = (text.length - MAX_VERBATIM_CHARS).toLocaleString('en-US');
  return `<pre class="verbatim">${escapeHtml(text.slice(0, MAX_VERBATIM_CHARS))}</pre><p class="note">… ${left} more characters not shown here.</p>`;
}

/**
 * The text a message's Markdown shows, as plain text, for about its first `limit` characters:
 * what the search index holds, so that a phrase is found as the page reads it ("<tag>", not
 * "&lt;tag&gt;"; "bold", not "**bold**"). The marks are taken off by pattern, not by parsing:
 * marked's lexer costs ~150 µs a reply, seconds over a history, for the few words a mark hides.
 * Text the page shows verbatim (see renderMarkdown) is returned as written.
 */
export function markdownText(written: string, limit: number): string {
  // Room for the marks the opening loses: a link's address, a fence's line.
  const opening = written.length > limit + 300 ? written.slice(0, limit + 300) : written;
  if (written.length > MAX_MARKDOWN_CHARS || DEEP_BLOCKS.test(opening)) return opening;
  // Code, fenced or in backticks, is shown as written: only the text around it loses its marks.
  return splitBy(opening, FENCED_CODE, (block) => ` ${block[2] ?? ''} `, (prose) => {
    // Code spans stand aside while the marks around them go (`**bold \`x\` bold**`), then come back.
    const spans: string[] = [];
    const marked = withoutLineMarks(prose).replace(CODE_SPAN, (_, __: string, code: string) => `\uE000${spans.push(code.trim()) - 1}\uE001`);
    return withoutInlineMarks(marked).replace(/\uE000(\d+)\uE001/g, (_, n: string) => spans[Number(n)] ?? '');
  });
}

const FENCED_CODE = /^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n?([\s\S]*?)(?:^[ \t]{0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm;
const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;

/** `text` with each match of `pattern` as `match` gives it, and the text between as `between` does. */
function splitBy(text: string, pattern: RegExp, match: (found: RegExpExecArray) => string, between: (text: string) => string): string {
  let out = '';
  let at = 0;
  for (const found of text.matchAll(pattern)) {
    out += between(text.slice(at, found.index)) + match(found as RegExpExecArray);
    at = found.index + found[0].length;
  }
  return out + between(text.slice(at));
}

/** Headings, quotes, rules, table rules, list bullets and task boxes (shown as ☐ and ☑). */
function withoutLineMarks(text: string): string {
  return text
    .replace(/^[ \t]{0,3}#{1,6}(?:[ \t]+|$)/gm, '')
    .replace(/^[ \t]{0,3}(?:>[ \t]?)+/gm, '')
    .replace(/^[ \t]{0,3}(?:[-*_][ \t]*){3,}$/gm, '')
    .replace(/^[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*(?::?-+:?)?[ \t]*$/gm, '')
    .replace(/^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[([ xX])\][ \t]+)?/gm, (_, indent: string, box: string | undefined) => `${indent}${box === undefined ? '' : box === ' ' ? '☐ ' : '☑ '}`);
}

/** Images (shown as "[image: …]"), links, emphasis, strike-through, escapes and character references. */
function withoutInlineMarks(text: string): string {
  return decodeEntities(
    text
      // A link's destination may hold parentheses of its own, balanced: `(https://…/Foo_(bar))`.
      // A redaction marker is no link's or image's text, as the page shows it.
      // An escaped bracket opens none (`\[x](y)` is shown as written).
      .replace(/(?<!\\)!\[(?!REDACTED:[a-z0-9-]+\])([^\]]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, (_, alt: string) => `[image: ${alt || 'untitled'}]`)
      .replace(/(?<!\\)\[(?!REDACTED:[a-z0-9-]+\])([^\]]+)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, '$1')
      // Emphasis as marked reads it, near enough: a `*` run opens before a letter, digit or code
      // and closes after anything but a space, within words too (`un*frig*ing`, `2*3*4`); an `_`
      // run only at a word's edges (`snake_case` stays); a glob (`*.ts`, `**/*.js`) is none.
      .replace(/(?<!\\)\*\*(?=[\p{L}\p{N}\uE000])([^\n]*?[^\s*\\])\*\*/gu, '$1')
      .replace(/(?<![\p{L}\p{N}])__(?=[\p{L}\p{N}\uE000])([^\n]*?[^\s_\\])__(?![\p{L}\p{N}])/gu, '$1')
      .replace(/(?<!\\)\*(?=[\p{L}\p{N}\uE000])([^*\n]*?[^\s*\\])\*/gu, '$1')
      .replace(/(?<![\p{L}\p{N}])_(?=[\p{L}\p{N}\uE000])([^_\n]*?[^\s_\\])_(?![\p{L}\p{N}])/gu, '$1')
      .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
      .replace(/\\([!-/:-@[-`{-~])/g, '$1'),
  );
}

/** A map, not an object: `&toString;` in a message must not find an object's own method. */
const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map(Object.entries({
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', laquo: '«', raquo: '»', euro: '€', times: '×', middot: '·',
}));

/** Character references as the browser shows them; a name not known here stays as written. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED_ENTITIES.get(name.toLowerCase()) ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}
