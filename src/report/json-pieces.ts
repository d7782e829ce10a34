// `JSON.stringify(value, null, 2)`, written in pieces: the summary of 30,000 sessions is tens of
// MB, and as one string it was made, then encoded into as much fresh memory again, at once.
// Every text in it well formed (unicode-text.ts): a strict reader refuses a lone surrogate.

import { wellFormed, wellFormedStrings } from '../unicode-text.js';

/** At least this many characters per piece (the last aside), and seldom twice as many: few writes, none large. */
const PIECE = 64 * 1024;
/** Objects this deep are split into their members, arrays into runs of elements; deeper values are stringified whole. */
const SPLIT_DEPTH = 2;

/** The same text as `JSON.stringify(value, wellFormedStrings, 2)`, in pieces of about PIECE characters or more. */
export function* prettyJsonPieces(value: unknown): Generator<string> {
  let held: string[] = [];
  let heldChars = 0;
  for (const text of parts(value, 0)) {
    held.push(text);
    heldChars += text.length;
    if (heldChars >= PIECE) {
      yield held.join('');
      held = [];
      heldChars = 0;
    }
  }
  if (held.length > 0) yield held.join('');
}

/** What JSON.stringify leaves out of an object. */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function* parts(value: unknown, depth: number): Generator<string> {
  const splittable = depth <= SPLIT_DEPTH && value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
  if (!splittable) {
    yield indented(JSON.stringify(value, wellFormedStrings, 2), depth);
    return;
  }
  const indent = '  '.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    yield '[\n';
    // Runs of elements, each stringified at once at the depth it has here (no re-indenting).
    let run = 16;
    for (let start = 0; start < value.length; ) {
      const text = elementsAt(value.slice(start, start + run), depth + 1);
      yield start === 0 ? text : `,\n${text}`;
      start += run;
      // As many as made about a piece so far.
      run = Math.max(1, Math.min(4096, Math.floor((PIECE * run) / Math.max(1, text.length))));
    }
    yield `\n${indent}]`;
    return;
  }
  const members = Object.entries(value as object).filter(([, item]) => !omitted(item));
  if (members.length === 0) {
    yield '{}';
    return;
  }
  yield '{';
  for (const [i, [key, item]] of members.entries()) {
    yield `${i === 0 ? '' : ','}\n${indent}  ${JSON.stringify(wellFormed(key))}: `;
    yield* parts(item, depth + 1);
  }
  yield `\n${indent}}`;
}

/**
 * Array elements as JSON.stringify writes them `depth` levels in, joined by ",\n": stringified
 * inside as many arrays, then cut out, so their lines are indented natively.
 */
function elementsAt(elements: unknown[], depth: number): string {
  let wrapped: unknown = elements;
  for (let level = 1; level < depth; level++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, wellFormedStrings, 2);
  // `[\n  [\n    …elements…\n  ]\n]`: depth opening brackets, each followed by a newline and its indent.
  let start = 0;
  for (let level = 0; level < depth; level++) start = text.indexOf('\n', start) + 1;
  const end = text.length - (depth * 2 + (depth - 1) * depth);
  return text.slice(start, end);
}

/** A text JSON.stringify wrote at the top, as it reads `depth` levels in: each line but the first indented. */
function indented(text: string, depth: number): string {
  // A JSON text holds no raw newline but its own.
  return depth === 0 ? text : text.replaceAll('\n', `\n${'  '.repeat(depth)}`);
}
