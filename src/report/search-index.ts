// The archive's search index: what a person looks for (prompts, titles, projects, files touched,
// and reply text while it fits the budget), sharded into .js files that the search box loads
// with <script> on first use: file:// pages cannot fetch. Built from the text the pages show,
// so a --redact report's index is redacted too. Pure: items in, files out.

/** A session as search results show it. */
export interface SearchSession {
  title: string;
  project: string;
  /** "2026-10-03" in the report's zone. */
  day: string;
  /** The session's first page, from the report root. */
  page: string;
}

export type SearchKind = 'prompt' | 'reply' | 'file';

export interface SearchItem {
  session: number;
  kind: SearchKind;
  /** From the report root, with the entry's anchor. */
  href: string;
  text: string;
}

/** A prompt's text in the index; the rest of a long paste is rarely what someone searches for. */
export const PROMPT_CHARS = 2_000;
/** A reply's opening, indexed while the budget lasts. */
export const REPLY_CHARS = 400;
/** One shard: small enough to load while typing. */
const SHARD_BYTES = 256_000;

const KIND_CODE: Record<SearchKind, string> = { prompt: 'p', reply: 'r', file: 'f' };

export interface SearchFile {
  path: string;
  content: string;
}

/**
 * The index files: `search/index.js` (the sessions, and how many shards) and `search/shard-N.js`.
 * Prompts and files always go in; replies go in, oldest session first, while the whole index stays
 * under `budgetBytes`. Returns what was left out, for the page to say.
 */
export function searchIndexFiles(
  sessions: readonly SearchSession[],
  items: readonly SearchItem[],
  budgetBytes: number,
): { files: SearchFile[]; repliesLeftOut: number; bytes: number } {
  const row = (item: SearchItem, limit: number) => JSON.stringify([item.session, KIND_CODE[item.kind], item.href, oneLine(item.text, limit)]);
  const manifest = sessions.map((s) => [s.title, s.project, s.day, s.page]);
  let bytes = Buffer.byteLength(JSON.stringify(manifest));
  const rows: string[] = [];
  const replies: SearchItem[] = [];
  for (const item of items) {
    if (item.kind === 'reply') {
      replies.push(item);
      continue;
    }
    const text = row(item, item.kind === 'prompt' ? PROMPT_CHARS : 500);
    rows.push(text);
    bytes += Buffer.byteLength(text) + 1;
  }
  let repliesLeftOut = 0;
  for (const item of replies) {
    const text = row(item, REPLY_CHARS);
    const size = Buffer.byteLength(text) + 1;
    if (bytes + size > budgetBytes) {
      repliesLeftOut++;
      continue;
    }
    rows.push(text);
    bytes += size;
  }

  const shards: string[][] = [[]];
  let shardBytes = 0;
  for (const text of rows) {
    if (shardBytes > 0 && shardBytes + text.length > SHARD_BYTES) {
      shards.push([]);
      shardBytes = 0;
    }
    (shards.at(-1) as string[]).push(text);
    shardBytes += text.length + 1;
  }
  const files: SearchFile[] = [
    {
      path: 'search/index.js',
      content: `window.boughSearchIndex(${JSON.stringify({ sessions: manifest, shards: shards.length, repliesLeftOut })});\n`,
    },
    ...shards.map((shard, n) => ({ path: `search/shard-${n}.js`, content: `window.boughSearchShard(${n},[\n${shard.join(',\n')}\n]);\n` })),
  ];
  return { files, repliesLeftOut, bytes: files.reduce((sum, f) => sum + Buffer.byteLength(f.content), 0) };
}

/** What of a text the index keeps, cut as it is collected: the collector holds every session's items. */
export function indexedText(kind: SearchKind, text: string): string {
  return oneLine(text, kind === 'prompt' ? PROMPT_CHARS : kind === 'reply' ? REPLY_CHARS : 500);
}

/** Whitespace folded to single spaces, cut at `limit` characters: results show a line. */
function oneLine(text: string, limit: number): string {
  const folded = text.length > limit * 4 ? text.slice(0, limit * 4) : text;
  return folded.replace(/\s+/g, ' ').trim().slice(0, limit);
}
