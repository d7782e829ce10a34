// Replaces secrets with [REDACTED:kind] and home folders with ~, counting each kind.
//
// A text is searched twice: as written, and as a reader finally sees it once JSON, Markdown, HTML
// and URL escapes are decoded (`sk\-ant\-…`, `sk&#45;ant…`, `sk\u002dant…`, `\/home\/ana`,
// `%3A%2F%2F`) and the Markdown marks that vanish inside a word (`sk~~-~~ant…`) or around a
// link's text (`[sk-ant-api](https://…)03…`) are dropped.
// What the decoded view finds is mapped back to the characters it came from, so the escaped
// spelling is replaced whole and everything else stays byte for byte.

import { ISSUED_KEY_KINDS, SECRET_RULES, isSecretCode, isSecretName, isSecretValue, shape, type Found, type SecretRule, type Span } from './secrets.js';
import { TERMINAL_CODES } from '../terminal-text.js';

export interface Redactor {
  text(value: string): string;
  /** The value of a field whose name may say it is a secret (`"apiKey": "…"`). */
  field(name: string, value: string): string;
  /** The secrets (not the home folder) a value holds, as written there, each with its kind; counted nowhere. */
  secretsIn(value: string): { text: string; kind: string }[];
  /** Whether `text` would replace anything in a value, counted nowhere: a value kept as a hash, not shown. */
  finds(value: string): boolean;
  /** `text`, counted nowhere: a text made of another that is counted (a notice's line, of its text). */
  uncounted(value: string): string;
  /** How many of each kind were replaced so far (added to by readings made in other threads). */
  readonly counts: Map<string, number>;
}

export const HOME_KIND = 'home-path';

/** `homes`: the user's home folder, and any other path it goes by (null where there is none). */
export function createRedactor(homes: string | null | readonly (string | null)[]): Redactor {
  const counts = new Map<string, number>();
  const rules = [...SECRET_RULES, ...homeRules(typeof homes === 'string' || homes === null ? [homes] : homes)];
  const text = (value: string) => redactText(value, rules, counts);
  const uncounted = (value: string) => redactText(value, rules, new Map());
  return {
    counts,
    secretsIn: (value) => merge(findAll(value, rules).filter((found) => found.kind !== HOME_KIND)).map((found) => ({ text: value.slice(found.start, found.end), kind: found.kind })),
    field(name, value) {
      const secret = isSecretName(name) ? isSecretValue(value, { quoted: true, form: 'literal', name, after: '' }) : isSecretCode(name, value);
      if (!secret) return text(value);
      counts.set('secret-field', (counts.get('secret-field') ?? 0) + 1);
      return '[REDACTED:secret-field]';
    },
    finds: (value) => uncounted(value) !== value,
    uncounted,
    text,
  };
}

interface Replacement extends Span {
  /** The index of the rule that named it: the earliest rule wins when spans overlap. */
  rank: number;
  kind: string;
}

function redactText(value: string, rules: readonly SecretRule[], counts: Map<string, number>): string {
  const found = findAll(value, rules);
  const shown = shownView(value);
  const numbered = withoutLineNumbers(value);
  const views = [shown, numbered, joinedCommands(value), shown && within(shown, joinedCommands(shown.text, shown)), numbered && within(numbered, joinedCommands(numbered.text))];
  for (const view of views) {
    if (view === null) continue;
    for (const r of findAll(view.text, rules)) {
      const start = view.from[r.start] as number;
      const end = view.from[r.end] as number;
      if (end > start) found.push({ ...r, start, end });
    }
  }
  found.push(...keysJoinedByLinks(value));
  if (found.length === 0) return value;
  const markers = markersIn(value);
  let out = '';
  let at = 0;
  for (const r of merge(markers.length === 0 ? found : found.filter((f) => !cutsMarker(f, markers)))) {
    counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
    out += value.slice(at, r.start) + (r.kind === HOME_KIND ? '~' : `[REDACTED:${r.kind}]`);
    at = r.end;
  }
  return out + value.slice(at);
}

function findAll(text: string, rules: readonly SecretRule[]): Replacement[] {
  const found: Replacement[] = [];
  rules.forEach((rule, rank) => {
    for (const f of findSafely(rule, text)) found.push({ start: f.start, end: f.end, rank, kind: f.kind ?? rule.kind });
  });
  return found;
}

/** How much of a text a rule that could not read it whole reads at a time, and how far the pieces overlap. */
const PIECE = 1 << 20;
const PIECE_OVERLAP = 1 << 14;

/**
 * A rule's finds in a text, or, where the text is too much for it (a pattern's loop over a run of
 * megabytes overflows the stack), its finds in overlapping pieces of it: a secret is far shorter
 * than the overlap, so none is lost at a piece's edge, and the session is shared all the same.
 */
function findSafely(rule: SecretRule, text: string): readonly Found[] {
  try {
    return rule.find(text);
  } catch (error) {
    if (!(error instanceof RangeError) || text.length <= PIECE) throw error;
    const found: Found[] = [];
    for (let start = 0; start < text.length; start += PIECE - PIECE_OVERLAP) {
      for (const f of findSafely(rule, text.slice(start, start + PIECE))) found.push({ ...f, start: f.start + start, end: f.end + start });
      if (start + PIECE >= text.length) break;
    }
    return found;
  }
}

const MARKER = /\[REDACTED:[a-z0-9-]+\]/g;

/** The markers of an earlier redaction in a text: redacting again must not cut into them. */
export function markersIn(text: string): Span[] {
  if (!text.includes('[REDACTED:')) return [];
  return [...text.matchAll(MARKER)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** Whether a span starts or ends inside one of the markers (see markersIn). */
export function cutsMarker(span: Span, markers: readonly Span[]): boolean {
  return inside(span.start, markers) || inside(span.end, markers);
}

/** Whether `at` falls strictly inside one of the markers (in order, apart): looked up, not walked, for each of thousands of spans. */
function inside(at: number, markers: readonly Span[]): boolean {
  const before = markers[firstFrom(markers, at) - 1];
  return before !== undefined && at < before.end;
}

/** The first of spans in order of their start that starts at `at` or after (their length when none does). */
function firstFrom(spans: readonly Span[], at: number): number {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((spans[mid] as Span).start < at) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Overlapping spans become one, counted under the kind of the earliest rule among them. */
function merge(found: Replacement[]): Replacement[] {
  found.sort((a, b) => a.start - b.start || a.rank - b.rank);
  const merged: Replacement[] = [];
  for (const r of found) {
    const last = merged.at(-1);
    if (last && r.start < last.end) {
      if (r.end > last.end) last.end = r.end;
      if (r.rank < last.rank) Object.assign(last, { rank: r.rank, kind: r.kind });
    } else {
      merged.push({ ...r });
    }
  }
  return merged;
}

// ---------------------------------------------------------------------------------------------
// Markdown links, as a page shows them: their text alone, run into what stands around it.

const ISSUED_KEY_RULES = SECRET_RULES.filter((rule) => ISSUED_KEY_KINDS.has(rule.kind));

/**
 * Issued keys (found by their prefix) that a link's marks cut in two: `[sk-ant-api](…)03…`,
 * `sk-ant-api03-Q7[wz](…)9X…`, `[sk-ant-api]03…` under a definition of `[sk-ant-api]`. Each is
 * replaced with the links whose marks cut it, whole, so that no bracket or address is left
 * hanging. Only keys the marks cut, and only issued ones: a name's value read through a link
 * (`token: [docs](…)`, `secret: handlers[kind](event)`) is no secret.
 */
function keysJoinedByLinks(value: string): Replacement[] {
  if (!value.includes(']')) return [];
  // Line ends as marked reads them (`\r\n` and `\r` are `\n`), kept to the text's length.
  const read = value.includes('\r') ? value.replace(/\r\n?/g, (end) => (end.length === 2 ? ' \n' : '\n')) : value;
  // Read with code spans and without: what bough takes for one, marked may read as a link's
  // address or an autolink's, and the other way round.
  const code = codeSpans(read);
  return [...keysJoinedBy(value, linksIn(read, code)), ...(code.length > 0 ? keysJoinedBy(value, linksIn(read, [])) : [])];
}

function keysJoinedBy(value: string, links: readonly Link[]): Replacement[] {
  if (links.length === 0) return [];
  const marks = links.flatMap((link) => link.marks.map((mark) => ({ ...mark, link }))).sort((a, b) => a.start - b.start);
  const view = shownView(value, withoutMarks(value, marks)) as View;
  const found: Replacement[] = [];
  for (const r of findAll(view.text, ISSUED_KEY_RULES)) {
    const from = view.from;
    const start = from[r.start] as number;
    const last = from[r.end - 1] as number;
    // Whole as written, it is found as written (or is no key there).
    if (!ISSUED_KEY_KINDS.has(r.kind) || last - start === r.end - 1 - r.start) continue;
    const replaced = { ...r, start, end: from[r.end] as number };
    // The links of the marks inside it go whole; a link around it (a list in brackets) stays.
    for (let i = firstFrom(marks, start); i < marks.length && (marks[i] as Mark).start < last; i++) {
      const { link } = marks[i] as Mark;
      replaced.start = Math.min(replaced.start, link.start);
      replaced.end = Math.max(replaced.end, link.end);
    }
    found.push(replaced);
  }
  return found;
}

interface Link extends Span {
  /** The marks the page does not show: the `[`, and from the `]` to the end of the address or reference. */
  marks: [Span, Span];
}

interface Mark extends Span {
  link: Link;
}

/**
 * Whether a text holds a definition (`[name]: address`) at a line's start or in quotes and lists
 * at any depth (marked takes those too), its name over lines maybe: where one is, `[name]` alone
 * is a link. Read line by line, each line's marks once: no pattern of repeated runs, whose ways
 * of splitting a line of spaces grow with its length.
 */
function holdsDefinition(text: string): boolean {
  let bracket = -1;
  for (let line = 0; line < text.length; line = text.indexOf('\n', line) + 1 || text.length) {
    let at = line;
    for (;;) {
      while (text[at] === ' ' || text[at] === '\t' || text[at] === '>') at++;
      let mark = at;
      while (mark - at < 9 && text.charCodeAt(mark) >= 48 && text.charCodeAt(mark) <= 57) mark++;
      const listed = mark > at ? text[mark] === '.' || text[mark] === ')' : text[at] === '-' || text[at] === '*' || text[at] === '+';
      const after = mark > at ? mark + 1 : at + 1;
      if (!listed || (text[after] !== ' ' && text[after] !== '\t')) break;
      at = after;
    }
    if (text[at] !== '[') continue;
    // Looked for forward only: lines come in order.
    if (bracket <= at) bracket = text.indexOf(']', at + 1);
    if (bracket === -1) return false;
    if (bracket - at > 1 && bracket - at <= 1000 && text[bracket + 1] === ':') return true;
  }
  return false;
}

/**
 * The links of a text, in the order they start, read more widely than Markdown does (brackets and
 * parentheses paired at any depth, over lines, those of code spans and escaped ones skipped; an
 * address in angle brackets to its `>`): a link the page shows is not missed, and what is taken
 * for one only joins the text around it when a key is read. An image's brackets are none: the
 * page shows "[image: …]" there.
 */
function linksIn(text: string, code: readonly Span[]): Link[] {
  const shortcuts = holdsDefinition(text);
  if (!shortcuts && !text.includes('](') && !text.includes('][')) return [];
  const closes = pairs(text, '[', ']', code);
  const parens = text.includes('](') ? pairs(text, '(', ')', code) : new Map<number, number>();
  const addressed = text.includes('](') ? addressEnds(text, closes) : new Map<number, number>();
  const links: Link[] = [];
  for (const [open, close] of closes) {
    if (text[open - 1] === '!' && text[open - 2] !== '\\') continue;
    const after = text[close + 1];
    const rest = after === '(' ? (addressed.get(close) ?? parens.get(close + 1)) : after === '[' ? closes.get(close + 1) : shortcuts ? close : undefined;
    if (rest === undefined) continue;
    links.push({ start: open, end: rest + 1, marks: [{ start: open, end: open + 1 }, { start: close, end: rest + 1 }] });
  }
  return links.sort((a, b) => a.start - b.start);
}

/** Each code span's opening run of backticks and where its closing run ends: brackets there are text. */
function codeSpans(text: string): Span[] {
  if (!text.includes('`')) return [];
  const runs: Span[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '`' || text[i - 1] === '\\') continue;
    let end = i;
    while (text[end] === '`') end++;
    runs.push({ start: i, end });
    i = end - 1;
  }
  // A run closes at the next run as long as it; one that finds none is text.
  const spans: Span[] = [];
  const waiting = new Map<number, number>();
  const closedAt = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    const run = runs[k] as Span;
    const length = run.end - run.start;
    const next = waiting.get(length);
    if (next !== undefined) closedAt.set(k, next);
    waiting.set(length, k);
  }
  for (let k = 0; k < runs.length; k++) {
    const close = closedAt.get(k);
    if (close === undefined) continue;
    spans.push({ start: (runs[k] as Span).start, end: (runs[close] as Span).end });
    k = close;
  }
  return spans;
}

/** Where each opening character's pair closes, paired as they nest; a backslash's character is none, nor one in code. */
function pairs(text: string, opening: string, closing: string, code: readonly Span[]): Map<number, number> {
  const paired = new Map<number, number>();
  const open: number[] = [];
  let span = 0;
  for (let i = 0; i < text.length; i++) {
    const inCode = code[span];
    if (inCode !== undefined && i >= inCode.start) {
      i = inCode.end - 1;
      span++;
      continue;
    }
    const c = text[i];
    if (c === '\\') i++;
    else if (c === opening) open.push(i);
    else if (c === closing && open.length > 0) paired.set(open.pop() as number, i);
  }
  return paired;
}

const TITLE_CLOSE: Readonly<Record<string, string>> = { '"': '"', "'": "'", '(': ')' };

/**
 * For each `](` of a link, where its `)` is, read as marked reads an address: in angle brackets
 * to its `>`, or bare with its parentheses nested, then a title (`"…"`, `'…'`, `(…)`, on the next
 * line maybe) holding anything but its own closing mark unescaped. Undefined where that reading
 * finds none: the parentheses paired alone say then. A bare address stops at a bracket or a
 * space, so that a text of many is read once, however long each.
 */
function addressEnds(text: string, closes: ReadonlyMap<number, number>): Map<number, number> {
  const found = new Map<number, number>();
  let gt = -1;
  // -2: not looked for yet; -1: none after.
  let line = -2;
  // Each title's closing mark not escaped, from where the last search of it began to what it found:
  // a run of escaped marks is walked once, however many titles open before it.
  const searched = new Map<string, { from: number; found: number }>();
  const unescaped = (mark: string, from: number): number => {
    const last = searched.get(mark);
    if (last && from >= last.from && (last.found === -1 || from <= last.found)) return last.found;
    let found = text.indexOf(mark, from);
    while (found !== -1 && text[found - 1] === '\\') found = text.indexOf(mark, found + 1);
    searched.set(mark, { from, found });
    return found;
  };
  for (const close of [...closes.values()].sort((a, b) => a - b)) {
    if (text[close + 1] !== '(') continue;
    let at = spaceAfter(text, close + 2);
    if (text[at] === '<') {
      // Both looked for forward only: closes come in order.
      if (gt <= at) gt = text.indexOf('>', at + 1);
      if (gt === -1) break;
      if (line !== -1 && line < at) line = text.indexOf('\n', at);
      if (line !== -1 && line < gt) continue;
      at = gt + 1;
    } else {
      let depth = 0;
      for (; at < text.length; at++) {
        const c = text[at] as string;
        if (c === '\\') at++;
        else if (c === '(') depth++;
        else if (c === ')' && depth > 0) depth--;
        else if (c === ')' || c === '[' || c === ']' || /\s/.test(c)) break;
      }
    }
    const before = at;
    at = spaceAfter(text, at);
    const ends = at > before ? TITLE_CLOSE[text[at] ?? ''] : undefined;
    if (ends !== undefined) {
      const end = unescaped(ends, at + 1);
      if (end === -1) continue;
      at = spaceAfter(text, end + 1);
    }
    if (text[at] === ')') found.set(close, at);
  }
  return found;
}

/** Past spaces and tabs, and one line's end among them. */
function spaceAfter(text: string, at: number): number {
  let lines = 0;
  while (text[at] === ' ' || text[at] === '\t' || (text[at] === '\n' && lines++ === 0)) at++;
  return at;
}

/** The text without the marks (sorted by where they start; a mark inside another is dropped with it). */
function withoutMarks(text: string, marks: readonly Span[]): View {
  const from = new Int32Array(text.length + 1);
  let out = '';
  let n = 0;
  let at = 0;
  for (const mark of marks) {
    if (mark.start < at) {
      at = Math.max(at, mark.end);
      continue;
    }
    out += text.slice(at, mark.start);
    for (let k = at; k < mark.start; k++) from[n++] = k;
    at = mark.end;
  }
  out += text.slice(at);
  for (let k = at; k < text.length; k++) from[n++] = k;
  from[n] = text.length;
  return { text: out, from: from.subarray(0, n + 1) };
}

// ---------------------------------------------------------------------------------------------
// The text as shown.

export interface View {
  text: string;
  /** For each character of the view (and one past the end), where it starts in the original. */
  from: Int32Array;
}

/**
 * A line as a file read with its line numbers shows it: Claude Code's Read (`     3→`), `cat -n`
 * and `nl` (`     3<tab>`), `grep -n` and `rg -n` (`3:`, `path/to/file:3:`).
 */
const NUMBERED_LINE = /^(?:[ \t]*\d{1,9}(?:→|\t)|(?:[^\s:]{0,300}[^\s:\d][^\s:]{0,300}:)?\d{1,9}:(?!\d))/;
/** grep's context line beside its matches (`path-3-`, `3-`): taken only where a match line is. */
const CONTEXT_LINE = /^(?:[^\s:]{0,300}[^\s:\d-][^\s:]{0,300}-)?\d{1,9}-(?!\d)/;

/**
 * The text of a file read with its line numbers, without them: the rules that read a line from
 * its start (a table's row, a YAML key and its block, a .env line) see each line as the file has
 * it. The lines so numbered lose their numbers, whatever is around them (Claude Code's reminder
 * after a Read, a Codex command's header); null when none is, or one alone but for a Read's.
 */
export function withoutLineNumbers(text: string): View | null {
  if (!text.includes('→') && !text.includes('\t') && !/\d:/.test(text)) return null;
  const lines = text.split('\n');
  const marks = lines.map((line) => NUMBERED_LINE.exec(line)?.[0].length ?? 0);
  if (lines.some((line, i) => (marks[i] as number) > 0 && /:$/.test(line.slice(0, marks[i])))) {
    lines.forEach((line, i) => {
      if (marks[i] === 0) marks[i] = CONTEXT_LINE.exec(line)?.[0].length ?? 0;
    });
  }
  const numbered = marks.filter((length) => length > 0).length;
  // One line alone is a file's only when Claude Code's Read numbered it (`1→`).
  if (numbered === 0 || (numbered === 1 && !lines.some((line, i) => (marks[i] as number) > 0 && line.slice(0, marks[i]).includes('→')))) return null;
  const from = new Int32Array(text.length + 1);
  let out = '';
  let at = 0;
  lines.forEach((line, i) => {
    const mark = marks[i] as number;
    const kept = line.slice(mark);
    for (let k = 0; k < kept.length; k++) from[out.length + k] = at + mark + k;
    out += kept;
    at += line.length;
    if (i < lines.length - 1) {
      from[out.length] = at;
      out += '\n';
      at += 1;
    }
  });
  from[out.length] = at;
  return { text: out, from: from.subarray(0, out.length + 1) };
}

/**
 * A line's end a command goes on past: a backslash before it (not one escaped by another), or
 * PowerShell's backtick or cmd's caret after a blank. The indentation of the next line goes with it.
 */
const CONTINUATION = /[\\`^]\r?\n[ \t]*/g;
const CONTINUATION_ANYWHERE = new RegExp(CONTINUATION.source);

/** Whether a mark of CONTINUATION's at `at` continues its line (a class first, no lookbehind: it scans fast). */
function continues(text: string, at: number): boolean {
  const before = text[at - 1];
  return text[at] === '\\' ? before !== '\\' : before === ' ' || before === '\t';
}

/**
 * The commands continued over lines, each joined into one line (a blank for each continuation):
 * the rules read a command's flags within one line, and agents write long commands over several
 * (`mysql -h … \⏎ -pSECRET`). Only the lines so joined are in the view, so the rules read again
 * no more than them; null when there are none.
 */
export function joinedCommands(text: string, decoded: View | null = null): View | null {
  if (!CONTINUATION_ANYWHERE.test(text)) return null;
  const from: number[] = [];
  let out = '';
  const copy = (start: number, end: number) => {
    out += text.slice(start, end);
    for (let k = start; k < end; k++) from.push(k);
  };
  const lineEnd = (at: number) => {
    const end = text.indexOf('\n', at);
    return end === -1 ? text.length : end;
  };
  // Where the open command has been copied to (on the line it goes on at), -1 when none is open.
  let copied = -1;
  // Where the last command closed (its last line's end).
  let closedAt = 0;
  // The end of the lines of a continued line that is no command, whose continuations are passed over.
  let skipped = -1;
  const close = () => {
    if (copied < 0) return;
    closedAt = lineEnd(copied);
    copy(copied, closedAt);
    copied = -1;
  };
  for (const m of text.matchAll(CONTINUATION)) {
    const at = m.index;
    const next = at + m[0].length;
    if (!continues(text, at) || (decoded !== null && !continuesAsWritten(decoded.from, at, m[0]))) continue;
    if (at < skipped) {
      skipped = lineEnd(next);
      continue;
    }
    if (copied >= 0 && text.lastIndexOf('\n', at - 1) < copied) {
      copy(copied, at);
    } else {
      close();
      const lineStart = text.lastIndexOf('\n', at - 1) + 1;
      // A C preprocessor's line (`#define X \`) is no command, nor are the lines it goes on over;
      // a shell's comment goes on over none (the next line is a command of its own).
      const first = firstNonBlank(text, lineStart);
      if (text[first] === '#') {
        if (PREPROCESSOR_LINE.test(text.slice(first, first + 20))) skipped = lineEnd(next);
        continue;
      }
      if (out !== '') {
        out += '\n';
        from.push(closedAt);
      }
      copy(lineStart, at);
    }
    out += ' ';
    from.push(at);
    copied = next;
  }
  close();
  if (out === '') return null;
  from.push(closedAt);
  return { text: out, from: Int32Array.from(from) };
}

/**
 * Whether a continuation in decoded text was one as written: its backslash and its line's end both
 * escaped (`\\\n` in a JSON string) or neither. An escaped backslash before a line's end
 * (LaTeX's `\\`) continues nothing.
 */
function continuesAsWritten(from: Int32Array, at: number, continuation: string): boolean {
  if (continuation[0] !== '\\') return true;
  const lineEnd = at + continuation.indexOf('\n');
  const escaped = (k: number) => (from[k + 1] as number) - (from[k] as number) > 1;
  return escaped(at) === escaped(lineEnd);
}

const PREPROCESSOR_LINE = /^#[ \t]*(?:define|undef|if|ifdef|ifndef|elif|else|endif|include|pragma|error|warning|line)\b/;

function firstNonBlank(text: string, at: number): number {
  while (text[at] === ' ' || text[at] === '\t') at++;
  return at;
}

/** The view `inner` of a view's text, as a view of the text under both. */
function within(outer: View, inner: View): View;
function within(outer: View, inner: View | null): View | null;
function within(outer: View, inner: View | null): View | null {
  if (inner === null) return null;
  return { text: inner.text, from: inner.from.map((i) => outer.from[i] as number) };
}

/** Escapes can be nested (a JSON text printed inside a JSON string): decode this many times at most. */
const MAX_DECODE_ROUNDS = 3;
const VIEW_TRIGGER = /[\u001b\\&*~`%\u00ad\u034f\u061c\u180e\u200b-\u200f\u2010\u2011\u2060-\u2064\ufeff]/;

/** The text with escapes decoded and vanishing marks dropped, or null when that changes nothing. */
export function shownView(text: string, start: View | null = null): View | null {
  if (start === null && !VIEW_TRIGGER.test(text) && !WRAPPER_TAG_ANYWHERE.test(text)) return null;
  let view: View | null = start;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    const next = decodeOnce(view ? view.text : text);
    if (!next) break;
    view = view ? within(view, next) : next;
  }
  return view;
}

/**
 * Named character references that spell ASCII punctuation (what a key or a path is made of). A
 * map, not an object: `&valueOf;` in a session must not find an object's own method.
 */
const NAMED_REFERENCES: ReadonlyMap<string, string> = new Map(Object.entries({
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", sol: '/', bsol: '\\', lowbar: '_', UnderBar: '_', period: '.',
  colon: ':', semi: ';', equals: '=', plus: '+', num: '#', commat: '@', percnt: '%', dollar: '$', excl: '!', quest: '?',
  lpar: '(', rpar: ')', lsqb: '[', rsqb: ']', lbrack: '[', rbrack: ']', lcub: '{', rcub: '}', lbrace: '{', rbrace: '}',
  ast: '*', midast: '*', comma: ',', verbar: '|', vert: '|', grave: '`', Hat: '^', nbsp: ' ', Tab: '\t', NewLine: '\n',
  // And those a page shows as nothing, or as a hyphen (`sk-ant-&ZeroWidthSpace;api03…`).
  shy: '', ZeroWidthSpace: '', NegativeVeryThinSpace: '', NegativeThinSpace: '', NegativeMediumSpace: '',
  NegativeThickSpace: '', zwnj: '', zwj: '', lrm: '', rlm: '', NoBreak: '', af: '', ApplyFunction: '', it: '',
  InvisibleTimes: '', ic: '', InvisibleComma: '', hyphen: '-', dash: '-',
}));
const CHARACTER_REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z]{2,31}));/y;
const HEX4 = /^[0-9A-Fa-f]{4}$/;
const HEX2 = /^[0-9A-Fa-f]{2}$/;
/** Throws on bytes that are no UTF-8 (an overlong form, a surrogate): those spell nothing. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;
const ESCAPED_WHITESPACE: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' };
/**
 * Invisible characters a page or a terminal may show as nothing: zero-width spaces and joiners,
 * soft hyphens, direction marks, invisible operators.
 */
const INVISIBLE = /[\u00ad\u034f\u061c\u180e\u200b-\u200f\u2060-\u2064\ufeff]/;
/** Hyphens no reader tells from `-`. */
const HYPHEN = /[\u2010\u2011]/;
/** Where decoding may change something: escapes, references, invisible characters, Markdown marks, terminal codes. */
const SPECIAL = /[<\u001b\\&*~`%\u00ad\u034f\u061c\u180e\u200b-\u200f\u2010\u2011\u2060-\u2064\ufeff]/g;
/**
 * A tag glued to a key (`<local-command-stdout>password: …`, `<tool_use_error>`, `<Output>`, one
 * with attributes): it hid the key from the rules that read one from where its line starts. Such a
 * tag is a line's end in the view; others (generics, JSX) are left as they are, and a text is
 * looked at so only where one is.
 */
const TAG_BEFORE_KEY_SOURCE = String.raw`<\/?[A-Za-z][\w-]*(?:\s[^<>\n]*)?>(?=[\w.-]+[ \t]*[:=])`;
const WRAPPER_TAG = new RegExp(TAG_BEFORE_KEY_SOURCE, 'y');
const WRAPPER_TAG_ANYWHERE = new RegExp(TAG_BEFORE_KEY_SOURCE);
/** A terminal's code, as `withoutTerminalCodes` drops it, where it starts. */
const TERMINAL_CODE = new RegExp(TERMINAL_CODES.source, 'y');
/** Markdown's emphasis, strikethrough and code marks: inside a word they vanish from the page. */
const INLINE_MARKS = new Set(['*', '~', '`']);
const WORD_CHAR = /[A-Za-z0-9_-]/;

interface Edit {
  at: number;
  next: number;
  text: string;
}

function decodeOnce(text: string): View | null {
  const edits: Edit[] = [];
  for (const m of text.matchAll(SPECIAL)) {
    const at = m.index;
    const last = edits.at(-1);
    if (last && at < last.next) continue;
    // Inside a run of one mark (`****`), whose first said what the run shows: each of the rest
    // would read the run to its end again (a run of 100,000 took 15 s).
    if (at > 0 && text[at - 1] === text[at] && INLINE_MARKS.has(text[at] as string)) continue;
    const edit = decodeAt(text, at, last?.next === at ? last.text.at(-1) : text[at - 1]);
    if (edit) edits.push(edit);
  }
  if (edits.length === 0) return null;
  const parts: string[] = [];
  const from = new Int32Array(text.length + 1);
  let n = 0;
  let copied = 0;
  for (const edit of edits) {
    parts.push(text.slice(copied, edit.at), edit.text);
    for (let k = copied; k < edit.at; k++) from[n++] = k;
    for (let k = 0; k < edit.text.length; k++) from[n++] = edit.at;
    copied = edit.next;
  }
  parts.push(text.slice(copied));
  for (let k = copied; k < text.length; k++) from[n++] = k;
  from[n] = text.length;
  return { text: parts.join(''), from: from.slice(0, n + 1) };
}

/** What the special character at `at` shows as, or null when it shows as itself. */
function decodeAt(text: string, at: number, before: string | undefined): Edit | null {
  const c = text[at] as string;
  if (c === '<') {
    WRAPPER_TAG.lastIndex = at;
    const m = WRAPPER_TAG.exec(text);
    return m ? { at, next: at + m[0].length, text: '\n' } : null;
  }
  if (c === '\u001b') {
    // A colour or cursor code in a command's output: the page shows the text without it
    // (`DB_PASSWORD=ESC[1mZq8s…`, a coloured prompt's `ESC[01;34m/home/bob`).
    TERMINAL_CODE.lastIndex = at;
    const m = TERMINAL_CODE.exec(text);
    return m ? { at, next: at + m[0].length, text: '' } : null;
  }
  if (c === '\\') {
    const next = text[at + 1];
    if (next === undefined) return null;
    const hex4 = next === 'u' ? text.slice(at + 2, at + 6) : '';
    if (HEX4.test(hex4)) return { at, next: at + 6, text: String.fromCharCode(parseInt(hex4, 16)) };
    const hex2 = next === 'x' ? text.slice(at + 2, at + 4) : '';
    if (HEX2.test(hex2)) return { at, next: at + 4, text: String.fromCharCode(parseInt(hex2, 16)) };
    const shown = ESCAPED_WHITESPACE[next] ?? (ASCII_PUNCTUATION.test(next) ? next : null);
    return shown === null ? null : { at, next: at + 2, text: shown };
  }
  if (c === '&') {
    CHARACTER_REFERENCE.lastIndex = at;
    const m = CHARACTER_REFERENCE.exec(text);
    const shown = m ? referenceText(m) : null;
    return m && shown !== null ? { at, next: at + m[0].length, text: shown } : null;
  }
  if (c === '%') {
    // A URL's percent-encoding of punctuation (`postgres%3A%2F%2Fana%3Apw%40db`): what it spells.
    const hex2 = text.slice(at + 1, at + 3);
    if (!HEX2.test(hex2)) return null;
    const byte = parseInt(hex2, 16);
    if (byte < 0x80) {
      // And a space: `C:/Users/John%20Doe`.
      const shown = String.fromCharCode(byte);
      return shown === ' ' || ASCII_PUNCTUATION.test(shown) ? { at, next: at + 3, text: shown } : null;
    }
    // A letter beyond ASCII as its UTF-8 bytes (`file:///home/%C5%82ucja`): a name may hold one.
    const length = byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 0;
    const bytes = [byte];
    for (let k = 1; k < length; k++) {
      const next = text.slice(at + 3 * k, at + 3 * k + 3);
      const value = next[0] === '%' && HEX2.test(next.slice(1)) ? parseInt(next.slice(1), 16) : -1;
      if ((value & 0xc0) !== 0x80) return null;
      bytes.push(value);
    }
    if (length === 0) return null;
    try {
      return { at, next: at + 3 * length, text: UTF8.decode(Uint8Array.from(bytes)) };
    } catch {
      return null;
    }
  }
  if (INLINE_MARKS.has(c)) {
    let end = at;
    while (text[end] === c) end++;
    const after = text[end];
    const inWord = before !== undefined && after !== undefined && WORD_CHAR.test(before) && WORD_CHAR.test(after);
    return inWord ? { at, next: end, text: '' } : null;
  }
  if (HYPHEN.test(c)) return { at, next: at + 1, text: '-' };
  return INVISIBLE.test(c) ? { at, next: at + 1, text: '' } : null;
}

function referenceText(m: RegExpExecArray): string | null {
  const [, decimal, hex, name] = m;
  if (name !== undefined) return NAMED_REFERENCES.get(name) ?? null;
  const code = decimal !== undefined ? Number(decimal) : parseInt(hex as string, 16);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : null;
}

// ---------------------------------------------------------------------------------------------
// Home folders.

/** One path separator as a text may spell it: `/`, `\`, `//`, `\/` (JSON), `\\`, `%2F`, and `/./`. */
const SEP = String.raw`(?:(?:[\\/]|%2[Ff]|%5[Cc])+(?:\.(?:[\\/]|%2[Ff]|%5[Cc])+)*)`;
/** A path starts at the first of its separators: a match never starts again inside a run of them. */
const PATH_START = String.raw`(?<![\\/]|%2[Ff]|%5[Cc])`;
/** A path goes on after the home folder, or ends (a sentence's full stop may follow). */
const HOME_END = String.raw`(?![\p{L}\p{N}\p{M}_$-]|\.[\p{L}\p{N}_-])`;
/** Folders under /home, /Users and C:\Users that are nobody's home. */
const NOBODYS = ['Shared', 'Public', 'Default', 'Default User', 'All Users', 'linuxbrew'];
const NOT_A_USER = String.raw`(?!(?:${NOBODYS.join('|')})${HOME_END})`;
/** A word in any case, letter by letter: `[Uu][Ss]…`. */
function anyCase(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[A-Za-z]/g, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);
}
const NOT_A_USER_ANY_CASE = String.raw`(?!(?:${NOBODYS.map(anyCase).join('|')})${HOME_END})`;
/** A user name in any script (`/home/łucja`, `C:\Users\José`), not ending in a full stop (`in /home/ana.` ends a sentence). */
const USER_NAME = String.raw`[\p{L}\p{N}_$](?:[\p{L}\p{N}\p{M}_$-]|\.(?=[\p{L}\p{N}_$-])){0,63}`;
/**
 * One that holds an apostrophe or an @ (`/home/o'brien/`, `/home/jo@corp.example/`): taken only
 * where a separator ends it, as a quote ends a path (`cd '/home/ana'`) or a word goes on (`ana's`).
 */
const PUNCTUATED_NAME = String.raw`[\p{L}\p{N}_$](?:[\p{L}\p{N}\p{M}_$'@-]|\.(?=[\p{L}\p{N}_$'@-])){0,63}`;
const ANY_USER_NAME = String.raw`(?:${PUNCTUATED_NAME}(?=${SEP})|${USER_NAME})`;
/**
 * Windows user names may hold spaces: `C:\Users\Ana Lima\Documents`, `C:\Users\Sean O'Brien\`;
 * where the path ends there, before a mark or a line's end (PowerShell's `PS C:\Users\Ana Lima>`,
 * `cd C:\Users\Ana Lima && …`, `“C:\Users\Ana Lima”`), up to five words that begin in capitals
 * (or are of a script without them), particles between (`Ana de Lima`): regression, the surname
 * stayed (`~ Lima>`). Words of a sentence after a name (`C:\Users\bob Then I ran`) are no name.
 */
const NAME_PARTICLE = String.raw`(?:de|da|das|do|dos|del|della|di|du|van|von|der|den|ten|ter|la|le|el|y|e|bin|binti|bint|ben|al|ibn|abu|thi|st)`;
// A particle glued to the name (`al-Rahman`, `d'Ormesson`) is part of it.
const CAPITALISED_NAME = String.raw`(?:(?:al|el|ad|as|ash|ibn|d|l|o|mc|mac)['’-])?[\p{Lu}\p{Lo}](?:[\p{L}\p{N}\p{M}_$'@-]|\.(?=[\p{L}\p{N}_$'@-])){0,63}(?<!['@-])`;
const WINDOWS_USER_NAME = String.raw`(?:${PUNCTUATED_NAME}(?: ${PUNCTUATED_NAME}){1,3}(?=${SEP})|${PUNCTUATED_NAME}(?: (?:${NAME_PARTICLE} )*${CAPITALISED_NAME}){1,5}(?=\t|[^\S\r\n]*(?:[^\s\p{L}\p{N}\p{M}]|\r?\n|$))|${ANY_USER_NAME})`;

/** Where a path may start: not inside a word, a file name or a URL's path (a diff's `-/home/…` line may). */
const NOT_IN_WORD = String.raw`(?<![A-Za-z0-9_.%])`;

/**
 * Any user's home folder, for reports that hold sessions from other machines, replaced by ~ like
 * the user's own: /home/NAME and /Users/NAME as written (`/users/me` is a web route), also
 * /c/Users/NAME (Git Bash), /mnt/c/Users/NAME (WSL), /cygdrive/c/Users/NAME (Cygwin) and a WSL
 * home seen from Windows (\\wsl$\Ubuntu\home\NAME, \\wsl.localhost\…); C:\Users\NAME in any case.
 */
const ANY_HOME = [
  new RegExp(String.raw`${NOT_IN_WORD}${PATH_START}(?:${SEP}(?:${anyCase('wsl')}\$|${anyCase('wsl.localhost')})${SEP}[A-Za-z0-9._-]{1,64})?(?:${SEP}(?:var|usr|export))?${SEP}(?:home|Users)${SEP}${NOT_A_USER}${ANY_USER_NAME}${HOME_END}`, 'gu'),
  new RegExp(String.raw`${NOT_IN_WORD}${PATH_START}(?:${SEP}(?:mnt|cygdrive))?${SEP}[A-Za-z]${SEP}[Uu][Ss][Ee][Rr][Ss]${SEP}${NOT_A_USER}${WINDOWS_USER_NAME}${HOME_END}`, 'gu'),
  // In any case, spelt out: a flag for case would take a capital of CAPITALISED_NAME for any letter.
  new RegExp(String.raw`${NOT_IN_WORD}[A-Za-z]:${SEP}(?:${anyCase('Users')}|${anyCase('Documents and Settings')})${SEP}${NOT_A_USER_ANY_CASE}${WINDOWS_USER_NAME}${HOME_END}`, 'gu'),
  // A Windows home on a disk mounted elsewhere: Boot Camp's on a Mac (`/Volumes/BOOTCAMP/Users/…`),
  // a Linux desktop's (`/media/ana/Windows/Users/…`, `/run/media/…`), WSL's (`/mnt/wsl/C/Users/…`).
  new RegExp(String.raw`${NOT_IN_WORD}${PATH_START}${SEP}(?:Volumes|media|mnt|run${SEP}media)(?:${SEP}[\p{L}\p{N}._ -]{1,64}){1,3}${SEP}[Uu][Ss][Ee][Rr][Ss]${SEP}${NOT_A_USER}${WINDOWS_USER_NAME}${HOME_END}`, 'gu'),
  // A session folder Pi or Claude Code named after a project in any user's home, as a folder of a
  // path (`…/sessions/--home-ana-projects-shop--/…`, `…/projects/C--Users-ana-shop`, Pi's
  // `…/--C--Users-ana-shop--/…`): where the user's name ends is not written, so the whole folded name goes.
  // Where it ends a line (a folder's own path) it is told from a file's name (`src/-home-hero.tsx`)
  // by its form: Claude Code's folded names hold no dot, Pi's end in `--`.
];

/** The folded session folder of any user's home; its own rule, as one of the user's name knows where that ends. */
// Pi keeps all but separators and a drive's colon of the path it folds (`--C--Users-Sean O'Brien-shop--`):
// a name with a space, `'` or `@` is taken for a folded home only in Pi's form, ending in `--` and
// followed by a separator (a line ending in `--` is no folder's name).
// Before a folded home: a drive (`C--`, Pi's `--C--`), WSL's or Cygwin's (`-mnt-c-`,
// `-cygdrive-c-`), Git Bash's (`-c-`), the folder homes are in on Fedora Silverblue, FreeBSD and
// Solaris (`-var-`, `-usr-`, `-export-`), or none (`-`, `--`). After a drive, Windows' `Users` in any
// case (`c--users-bob-proj`, `-mnt-c-users-…`, of a folder typed in lower case: regression, the
// name stayed, as it did after WSL's and Cygwin's drives in any case). Or a WSL home seen from
// Windows, `\\wsl.localhost\Ubuntu\home\…` and `\\wsl$\…` as each folds it (`--wsl-localhost-Ubuntu-`,
// `--wsl--Ubuntu-`, Pi's `---wsl.localhost-Ubuntu-`): regression, the user's name stayed in them.
const FOLDED_HOME_BEFORE = String.raw`(?<=[\\/](?:-{1,2}(?:(?:mnt|cygdrive)-)?[A-Za-z]-{1,2}|-{1,2}(?:var|usr|export)-|[A-Za-z]?-{1,2}|-{1,4}[Ww][Ss][Ll](?:[-.][Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt]|\$|-)-{1,2}[A-Za-z0-9._-]{1,64}-))`;
const FOLDED_HOME_FOLDER = String.raw`(?:home|Users|(?<=[\\/](?:(?:--)?[A-Za-z]--|-{1,2}(?:(?:mnt|cygdrive)-)?[A-Za-z]-))[Uu][Ss][Ee][Rr][Ss])`;
const ANY_FOLDED_HOME = new RegExp(String.raw`${FOLDED_HOME_BEFORE}${FOLDED_HOME_FOLDER}-(?:[\p{L}\p{N}\p{M}_.-]+(?=[\\/])|[\p{L}\p{N}\p{M}_. '@-]*--(?=[\\/])|[\p{L}\p{N}\p{M}_.-]*--(?=\r?\n|$)|[\p{L}\p{N}\p{M}_-]+(?=\r?\n|$))`, 'gu');

function homeRules(homes: readonly (string | null)[]): SecretRule[] {
  const own = homes.map(ownHomePatterns).flatMap(({ patterns, hint }) => patterns.map((pattern) => shape(HOME_KIND, pattern, { hint })));
  // A session folder of another machine's home of the user's own name (`-Users-ana-shop` read on
  // a Linux whose home is /home/ana): the user's name is known to end there, so the project's name
  // stays (`-~-shop`), as for this machine's; it was folded away whole.
  const users = homes.flatMap((home) => {
    const user = home?.replace(/[\\/]+$/, '').split(/[\\/]/).at(-1);
    // As Claude Code folds it (every other character a dash) and as Pi does (as it is).
    return user ? [...new Set([user.replace(/[^A-Za-z0-9]/g, '-'), user])] : [];
  });
  const sameUser = users.map((user) => new RegExp(String.raw`${FOLDED_HOME_BEFORE}${FOLDED_HOME_FOLDER}-${user.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=-|[\\/]|\r?\n|$)`, 'giu'));
  const ofSameUser = (folded: string) => users.some((user) => new RegExp(String.raw`^(?:home|Users)-${user.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:-|$)`, 'i').test(folded));
  return [
    ...own,
    ...sameUser.map((pattern) => shape(HOME_KIND, pattern, { hint: ANY_HOME_HINT })),
    ...ANY_HOME.map((pattern) => shape(HOME_KIND, pattern, { hint: ANY_HOME_HINT })),
    shape(HOME_KIND, ANY_FOLDED_HOME, { hint: ANY_HOME_HINT, accept: (folded) => !ofSameUser(folded) }),
  ];
}

const ANY_HOME_HINT = /home|Users|Documents and Settings/i;

/**
 * The user's own home in every spelling: as a path (any separators, any case), as `~NAME`, and
 * folded into a folder name the way Pi and Claude Code name a project's session folder
 * (`--home-ana-projects--`, `-home-ana-projects`). A home of "/" or a drive root is never replaced.
 */
function ownHomePatterns(home: string | null): { patterns: RegExp[]; hint: RegExp } {
  const none = { patterns: [], hint: /(?!)/ };
  if (home === null) return none;
  const trimmed = home.replace(/[\\/]+$/, '');
  const drive = /^[A-Za-z]:/.exec(trimmed)?.[0] ?? '';
  const parts = trimmed.slice(drive.length).split(/[\\/]+/).filter(Boolean);
  if (parts.length === 0 || trimmed.length < 3) return none;
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const user = parts.at(-1) as string;
  const path = `${PATH_START}${escape(drive)}${SEP}${parts.map(escape).join(SEP)}${HOME_END}`;
  // Pi names a session folder `--home-ana-projects--`, Claude Code `-home-ana-projects` or
  // `C--Users-ana-projects`: Claude Code makes every other character a dash, Pi only separators
  // (`--home-Ana Lima-projects--`).
  const claudeFolded = parts.map((p) => escape(p.replace(/[^A-Za-z0-9]/g, '-'))).join('-');
  const piFolded = parts.map(escape).join('-');
  const foldedParts = piFolded === claudeFolded ? claudeFolded : `(?:${claudeFolded}|${piFolded})`;
  // A home of one folder (/root, /data) folds to a word a command's flag may hold (`--root-dir`,
  // `curl --data`): it is taken for one only as a folder of a path or a line's first word (`ls`).
  const before = parts.length === 1 ? String.raw`(?:^|[\\/\r\n])` : String.raw`(?:^|[^A-Za-z0-9])`;
  const folded = drive
    ? String.raw`(?<![A-Za-z0-9])${escape(drive[0] as string)}-{1,2}${foldedParts}(?=-|$|[^A-Za-z0-9])`
    : String.raw`(?<=${before}-{1,2})${foldedParts}(?=-|$|[^A-Za-z0-9])`;
  const tilde = String.raw`~${escape(user)}${HOME_END}`;
  // Every spelling holds the user's name, maybe with its punctuation made dashes.
  const hint = new RegExp(user.replace(/[^A-Za-z0-9]/g, '.'), 'i');
  return { patterns: [new RegExp(path, 'giu'), new RegExp(folded, 'gi'), new RegExp(tilde, 'gu')], hint };
}
