// Parses one JSONL line, recovering what a crash or a missing newline left behind: several
// records glued on one line, or a cut-off record followed by a whole one.

export type LineParse =
  | { kind: 'blank' }
  | { kind: 'ok'; values: [unknown] }
  /** Several whole records on one line; all recovered. */
  | { kind: 'glued'; values: unknown[] }
  /** Some records recovered, the rest of the line lost. */
  | { kind: 'partial'; values: unknown[]; lostChars: number }
  | { kind: 'invalid'; truncated: boolean; message: string };

/** Whether a recovered object is a whole record of the source, not an object nested inside one. */
export type RecordTest = (value: Record<string, unknown>) => boolean;

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function parseJsonLine(text: string, isRecord: RecordTest): LineParse {
  if (text.trim() === '') return { kind: 'blank' };
  // A file gone bad can hold millions of lines that are not JSON, each a thrown error (here and in
  // the salvage): the stack each error captured, which nothing reads, was 40% of their cost.
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return { kind: 'ok', values: [JSON.parse(text)] };
  } catch (error) {
    const glued = splitGlued(text);
    if (glued) return { kind: 'glued', values: glued };
    const salvaged = salvage(text, isRecord);
    if (salvaged.values.length > 0) {
      return { kind: 'partial', values: salvaged.values, lostChars: text.length - salvaged.keptChars };
    }
    const message = (error as Error).message;
    return { kind: 'invalid', truncated: looksTruncated(text, message), message: withoutExcerpt(message) };
  } finally {
    Error.stackTraceLimit = stackLimit;
  }
}

/**
 * V8's words without the piece of the line it quotes (`Unexpected token 'g', "ghp_Q9zX7L"... is
 * not valid JSON`): ten characters cut anywhere, which --redact cannot know for a secret's, beside
 * the line's start that the report quotes redacted.
 */
function withoutExcerpt(message: string): string {
  return message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, ': not valid JSON');
}

/** Index just past the object or array that opens at `start`, or -1 when it never closes. */
function scanValue(text: string, start: number, budget: { steps: number }): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    if (--budget.steps < 0) return -1;
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Splits `{…}{…}` (whitespace between allowed) when every piece parses; otherwise null. */
function splitGlued(text: string): unknown[] | null {
  const values: unknown[] = [];
  const budget = { steps: text.length * 2 };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0d) {
      i++;
      continue;
    }
    if (c !== OPEN_BRACE) return null;
    const end = scanValue(text, i, budget);
    if (end === -1) return null;
    try {
      values.push(JSON.parse(text.slice(i, end)));
    } catch {
      return null;
    }
    i = end;
  }
  return values.length > 1 ? values : null;
}

/**
 * Recovers whole records from a damaged line: tries every `{"` (which cannot occur inside a
 * valid JSON string) as the start of a record, keeping those the source recognises.
 * Work is capped so a hostile line cannot make this quadratic.
 */
function salvage(text: string, isRecord: RecordTest): { values: unknown[]; keptChars: number } {
  const values: unknown[] = [];
  let keptChars = 0;
  const budget = { steps: text.length * 20 + 10_000 };
  let from = 0;
  while (from < text.length && budget.steps > 0) {
    const start = text.indexOf('{"', from);
    if (start === -1) break;
    const end = scanValue(text, start, budget);
    if (end !== -1) {
      budget.steps -= end - start; // parsing costs as much as scanning
      const value = tryParse(text.slice(start, end));
      if (value !== undefined && isPlainObject(value) && isRecord(value)) {
        values.push(value);
        keptChars += end - start;
        from = end;
        continue;
      }
    }
    from = start + 1;
  }
  return { values, keptChars };
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A line that opens a value it never closes, and is JSON up to its end: cut off by a crash or a
 * full disk. Every start of a record fails to parse at its end; one failing before it
 * (`{synthetic malformed json`, where V8 names the position) was written wrong, not cut.
 */
function looksTruncated(text: string, parseError: string): boolean {
  const first = text.trimStart().charCodeAt(0);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return false;
  const failedAt = /at position (\d+)/.exec(parseError)?.[1];
  if (failedAt !== undefined && Number(failedAt) < text.trimEnd().length) return false;
  return scanValue(text, text.length - text.trimStart().length, { steps: text.length + 1 }) === -1;
}

/** Deeper than any real record: Pi's deepest (a tool call's arguments inside a sub-agent's reply) is a few dozen. */
export const MAX_NESTING = 64;
export const TOO_DEEP = `[nested more than ${MAX_NESTING} levels deep: not shown]`;

/**
 * Replaces every object or array nested deeper than `max` with a short note, in place and
 * without recursion: nothing after the file boundary (copying, redaction, JSON.stringify,
 * rendering) then meets a value deep enough to overflow the stack. Returns how many were cut.
 */
export function cutDeepNesting(root: unknown, max: number): number {
  let cut = 0;
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof value !== 'object' || value === null) continue;
    // Arrays by index: a long list of numbers would otherwise cost a key string per element.
    const container = value as Record<string | number, unknown>;
    const keys = Array.isArray(value) ? null : Object.keys(container);
    const length = keys === null ? (value as unknown[]).length : keys.length;
    for (let i = 0; i < length; i++) {
      const key = keys === null ? i : (keys[i] as string);
      const child = container[key];
      if (typeof child !== 'object' || child === null) continue;
      if (depth >= max) {
        container[key] = TOO_DEEP;
        cut++;
      } else stack.push({ value: child, depth: depth + 1 });
    }
  }
  return cut;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
