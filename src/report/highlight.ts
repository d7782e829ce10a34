// Code from sessions → HTML coloured by CSS classes (highlight.js, run once at build time, never
// in the browser). The language comes from a Markdown fence or a file's extension, never guessed:
// detection runs every grammar over the text and is slow on the large blocks sessions are full of.

import { createRequire } from 'node:module';
import type { HLJSApi, LanguageFn } from 'highlight.js';
import { escapeHtml, visibleControls } from './escape.js';

/** A block longer than this is shown plain: highlighting runs at about 3 MB/s and makes code's HTML 3–4 times as long. */
export const MAX_HIGHLIGHT_BLOCK = 50_000;
/**
 * Characters highlighted on one session page in all, past which code is shown plain: at most about
 * 70 ms and 0.6 MB of extra markup per page. On the real corpus (32 sessions): +16% size, +0.6 s.
 */
export const MAX_HIGHLIGHT_PAGE = 100_000;
/**
 * Sessions of a report whose pages are coloured, the newest first; older sessions' code is shown
 * plain. Highlighting runs at about 3 MB/s (measured: 56 MB of generated sessions spent 5.7 s on
 * it uncapped; with 40 sessions, 1.2 s of a 10.8 s build), so this caps a report's at about
 * 2 MB, well under a second, whatever the history's size. By rank, not by what earlier pages
 * spent, so that pages written on several threads (and a page kept by a rebuild) are coloured
 * the same whichever finishes first.
 */
export const MAX_HIGHLIGHTED_SESSIONS = 20;

// The common languages (about 37) plus a few seen in sessions, not all 190: loading every grammar
// costs a quarter of a second at each start. Required through CommonJS because highlight.js
// types only its main entry. bough configures nothing on the instance (class prefix `hljs-`).
const require = createRequire(import.meta.url);
let loaded: HLJSApi | null = null;
/** Loaded on first use: `stats`, and a rebuild that keeps every page, colour nothing. */
function engine(): HLJSApi {
  if (loaded === null) {
    loaded = require('highlight.js/lib/common') as HLJSApi;
    for (const name of ['dockerfile', 'powershell', 'cmake', 'protobuf', 'scala', 'elixir', 'haskell', 'nginx']) {
      loaded.registerLanguage(name, require(`highlight.js/lib/languages/${name}`) as LanguageFn);
    }
  }
  return loaded;
}

/** A language name as a fence may give it; anything else is not even looked up. */
const LANGUAGE_NAME = /^[A-Za-z0-9_+#.-]{1,32}$/;
/** Whole file names that say their language, where the extension does not. */
/** A map, not an object: a file named `constructor` must not find an object's own method. */
const FILE_NAMES: ReadonlyMap<string, string> = new Map([
  ['dockerfile', 'dockerfile'],
  ['makefile', 'makefile'],
  ['gnumakefile', 'makefile'],
  ['cmakelists.txt', 'cmake'],
]);
/** Names highlight.js knows that mean "no language". */
const PLAIN = new Set(['plaintext', 'text', 'txt']);
/** highlight.js writes only these tags; anything else in its output means it passed text through unescaped. */
const OWN_MARKUP = /<(?!\/?span(?: class="[a-z0-9_ -]+")?>)/;

/** What one page has left to spend on highlighting; shared by every block of the page. */
export interface HighlightBudget {
  /** Characters of code the page may still highlight. */
  left: number;
  /** Why code past it is shown plain, said beside the code. */
  spent: string;
}

export function highlightBudget(chars: number = MAX_HIGHLIGHT_PAGE): HighlightBudget {
  return { left: chars, spent: `shown without colours: this page already highlights ${MAX_HIGHLIGHT_PAGE / 1000} KB of code` };
}

/** The budget of a session's page by its place among the report's sessions, newest first (0). */
export function sessionHighlightBudget(rank: number): HighlightBudget {
  if (rank < MAX_HIGHLIGHTED_SESSIONS) return highlightBudget();
  return { left: 0, spent: `shown without colours: a report colours the code of its newest ${MAX_HIGHLIGHTED_SESSIONS} sessions` };
}

export interface CodeHtml {
  /** Escaped code, with `<span class="hljs-…">` from highlight.js when it was highlighted. */
  html: string;
  /** The language it was highlighted as, or null when shown plain. */
  language: string | null;
  /** Why code in a known language is shown plain (size), for a small note beside it; null otherwise. */
  note: string | null;
}

/** The language highlight.js knows by this name or alias (`ts`, `py`, `sh`), or null. */
export function knownLanguage(name: string | null | undefined): string | null {
  const key = name?.trim().toLowerCase() ?? '';
  if (!LANGUAGE_NAME.test(key) || PLAIN.has(key)) return null;
  return engine().getLanguage(key) ? key : null;
}

/** A file's language from its name: `src/cart.ts` → `ts`, `Dockerfile` → `dockerfile`; null when unknown. */
export function languageOfPath(path: string | null | undefined): string | null {
  const name = path?.split(/[\\/]/).pop()?.toLowerCase() ?? '';
  const byName = FILE_NAMES.get(name);
  if (byName) return knownLanguage(byName);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? knownLanguage(name.slice(dot + 1)) : null;
}

/** Code → safe HTML, highlighted when its language is known and it fits the block and page caps. */
/**
 * Code is coloured a few kilobytes at a time: some grammars take time with the square of a block's
 * length on lines they do not expect (C#'s: 48 KB of words, 11 s; 4 KB, 85 ms). Cut after a blank
 * line where there is one, where a comment or a string seldom goes on; one cut inside one colours
 * the rest of it as code, which is all it costs.
 */
const HIGHLIGHT_CHUNK = 4_000;

function chunksOf(code: string): string[] {
  const chunks: string[] = [];
  let at = 0;
  while (code.length - at > HIGHLIGHT_CHUNK) {
    const window = code.slice(at, at + HIGHLIGHT_CHUNK);
    const blank = window.lastIndexOf('\n\n');
    const line = window.lastIndexOf('\n');
    const cut = blank > HIGHLIGHT_CHUNK / 2 ? blank + 2 : line > 0 ? line + 1 : HIGHLIGHT_CHUNK;
    chunks.push(code.slice(at, at + cut));
    at += cut;
  }
  chunks.push(code.slice(at));
  return chunks;
}

export function highlightCode(code: string, name: string | null, budget: HighlightBudget): CodeHtml {
  const plain = (note: string | null): CodeHtml => ({ html: escapeHtml(code), language: null, note });
  const language = knownLanguage(name);
  if (language === null || code === '') return plain(null);
  if (code.length > MAX_HIGHLIGHT_BLOCK) return plain(`shown without colours: longer than ${MAX_HIGHLIGHT_BLOCK / 1000} KB`);
  if (code.length > budget.left) return plain(budget.spent);
  let html: string;
  try {
    // It copies control characters through: shown as escapeHtml shows them.
    html = visibleControls(chunksOf(code).map((chunk) => engine().highlight(chunk, { language, ignoreIllegals: true }).value).join(''));
  } catch {
    return plain(null);
  }
  // highlight.js escapes what it copies; should a grammar ever slip, the code is shown plain instead.
  if (OWN_MARKUP.test(html)) return plain(null);
  budget.left -= code.length;
  return { html, language, note: null };
}
