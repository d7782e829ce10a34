// The archive's search index: what a person looks for (prompts, titles, projects, files touched,
// and reply text while it fits the budget), sharded into .js files that the search box loads
// with <script> on first use: file:// pages cannot fetch. Built from the text the pages show,
// so a --redact report's index is redacted too. Pure: rows and sizes in, files out (the build
// keeps the rows on disk meanwhile: output/search-spool.ts).

import { visibleControls } from './escape.js';
import { cutText, wellFormed } from '../unicode-text.js';

/** A session as search results show it. */
export interface SearchSession {
  title: string;
  project: string;
  /** "2026-10-03" in the report's zone. */
  day: string;
  /** The session's first page, from the report root. */
  page: string;
  /** False for a start of Claude Code's warmups alone, which no list shows (claude.md §8.4): nothing of it is searched. */
  listed?: boolean;
}

/** A sub-agent's task and replies are indexed as replies are, while the budget lasts, after its session's own. */
export type SearchKind = 'prompt' | 'reply' | 'file' | 'subagent';

export interface SearchItem {
  session: number;
  kind: SearchKind;
  /** From the report root, with the entry's anchor. */
  href: string;
  text: string;
}

/** A prompt's text in the index: a long paste's far end is rarely what someone searches for. */
export const PROMPT_CHARS = 10_000;
/** A reply's opening, indexed while the budget lasts. */
export const REPLY_CHARS = 400;
/** A touched file's path, whole: Linux's longest (PATH_MAX), so a name at the end of a deep one is found. */
export const PATH_CHARS = 4_096;
/** One shard: small enough to load while typing. */
const SHARD_BYTES = 256_000;

const KIND_CODE: Record<SearchKind, string> = { prompt: 'p', reply: 'r', file: 'f', subagent: 's' };

export interface SearchFile {
  path: string;
  content: string;
}

/** A search item as its shard holds it: one line of JSON, its text cut to its kind's length. */
function searchRow(item: SearchItem): string {
  return JSON.stringify([item.session, KIND_CODE[item.kind], item.href, wellFormed(indexedText(item.kind, item.text))]);
}

/** A row's share of the index: its bytes and the line break after it. */
function rowBytes(row: string): number {
  return Buffer.byteLength(row) + 1;
}

/**
 * One session's rows as the build keeps them until the index is written: its prompts' and files'
 * rows, then its replies' rows, a line each, as bytes; and the size of each reply's row, all the
 * budget needs. Made where the session's pages are (a thread), so that the main thread receives
 * bytes rather than a string per item.
 */
export interface SessionRows {
  bytes: Uint8Array;
  otherBytes: number;
  replySizes: number[];
}

const UTF8 = new TextEncoder();

export function sessionRows(session: number, items: readonly Omit<SearchItem, 'session'>[]): SessionRows {
  const others: string[] = [];
  const replies: string[] = [];
  const subagents: string[] = [];
  for (const item of items) (item.kind === 'reply' ? replies : item.kind === 'subagent' ? subagents : others).push(searchRow({ ...item, session }));
  replies.push(...subagents);
  // An array of its own (not a slice of a shared pool), so that a thread can hand it over whole.
  const bytes = UTF8.encode([...others, ...replies].map((row) => `${row}\n`).join(''));
  const replySizes = replies.map(rowBytes);
  return { bytes, otherBytes: bytes.length - replySizes.reduce((sum, size) => sum + size, 0), replySizes };
}

/**
 * Which replies (a sub-agent's texts among them) go in: prompts and files always do (`baseBytes`, with the sessions' list); replies,
 * in the report's order, each while the whole index stays under `budgetBytes`, or within a
 * quarter of it beyond the prompts and files where they fill it (long pasted prompts left no room
 * for any reply). `replySizes` are each session's replies' row bytes; the answer, for each
 * session, which of them go in, and how many replies there are.
 */
export function repliesThatFit(baseBytes: number, replySizes: readonly (readonly number[])[], budgetBytes: number): { kept: boolean[][]; repliesLeftOut: number; replies: number } {
  const limit = Math.max(budgetBytes, baseBytes + Math.floor(budgetBytes / 4));
  let bytes = baseBytes;
  let repliesLeftOut = 0;
  const kept = replySizes.map((sizes) =>
    sizes.map((size) => {
      if (bytes + size > limit) {
        repliesLeftOut++;
        return false;
      }
      bytes += size;
      return true;
    }),
  );
  return { kept, repliesLeftOut, replies: replySizes.reduce((sum, sizes) => sum + sizes.length, 0) };
}

/** The sessions' list as `search/index.js` holds it. */
export function searchManifest(sessions: readonly SearchSession[]): string {
  // An unlisted session keeps its place (rows name sessions by it) as null.
  return JSON.stringify(sessions.map((s) => (s.listed === false ? null : [wellFormed(visibleControls(s.title)), wellFormed(visibleControls(s.project)), s.day, s.page])));
}

/** `search/index.js`: the sessions, how many shards, and how many replies there are and were left out. */
export function searchIndexFile(manifest: string, shards: number, repliesLeftOut: number, replies: number): SearchFile {
  return { path: 'search/index.js', content: `window.boughSearchIndex({"sessions":${manifest},"shards":${shards},"repliesLeftOut":${repliesLeftOut},"replies":${replies}});\n` };
}

/** Rows into `search/shard-N.js` files of about SHARD_BYTES each, in the order they come. */
export class SearchShards {
  private rows: string[] = [];
  private size = 0;
  /** Shards made so far (the last one once `finish` has made it). */
  count = 0;

  /** Adds a row; returns the shard it closed, when it did not fit in the current one. */
  push(row: string): SearchFile | null {
    const closed = this.size > 0 && this.size + row.length > SHARD_BYTES ? this.finish() : null;
    this.rows.push(row);
    this.size += row.length + 1;
    return closed;
  }

  /** The current shard, closed; there is always at least one, empty or not. */
  finish(): SearchFile {
    const file = { path: `search/shard-${this.count}.js`, content: `window.boughSearchShard(${this.count},[\n${this.rows.join(',\n')}\n]);\n` };
    this.count++;
    this.rows = [];
    this.size = 0;
    return file;
  }
}

/** What of a text the index keeps, cut as it is collected: a session's items are sent from its thread and kept in its archive file. */
export function indexedText(kind: SearchKind, text: string): string {
  return oneLine(text, indexedChars(kind));
}

/** How much of a text of this kind the index keeps. */
export function indexedChars(kind: SearchKind): number {
  return kind === 'prompt' ? PROMPT_CHARS : kind === 'reply' || kind === 'subagent' ? REPLY_CHARS : PATH_CHARS;
}

/** Whitespace folded to single spaces, cut at `limit` characters: results show a line. */
function oneLine(text: string, limit: number): string {
  return visibleControls(cutText(cutText(text, limit * 4).replace(/\s+/g, ' ').trim(), limit));
}
