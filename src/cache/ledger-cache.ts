// Ledgers cached per session file, so a second `bough stats` reads only the files that changed.
// An entry is found by the file's real path, size, modification time and a hash of its head and
// tail, plus the code that made it (bough's version and a hash of its own files): a change to any
// of them misses. Entries are checked when read (a hash of the whole entry, then a schema and,
// row by row, the ledger's packed entries, unpacked once): a damaged, foreign or older entry is
// ignored and written anew, never trusted. The entries of files that are gone are removed, at
// most once a day. Only the cache folder is ever written.

import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DIAGNOSTIC_REASONS, type Diagnostic, type DiagnosticReason } from '../diagnostics.js';
import type { Environment } from '../environment.js';
import type { SessionLedger } from '../ledger/ledger.js';
import { tokensSchema } from '../report/schema.js';
import { MAX_TIME } from '../sources/record-fields.js';
import { checkedPackedEntries, type PackedEntries } from '../ledger/packed-entries.js';
import { SOURCES } from '../types.js';
import { whyUnreadable } from '../file-problems.js';
import { sha256Hex } from '../sha256.js';

/** Where the cache lives: $BOUGH_CACHE_DIR, else $XDG_CACHE_HOME/bough, else ~/.cache/bough. */
export function cacheDir(environment: Environment): string {
  const { env, home } = environment;
  if (env['BOUGH_CACHE_DIR']) return env['BOUGH_CACHE_DIR'];
  return join(env['XDG_CACHE_HOME'] || join(home, '.cache'), 'bough');
}

/** What reading one file gave: its ledger and problems, or why it is not a session. */
export type CachedOutcome = { kind: 'session'; ledger: SessionLedger; diagnostics: Diagnostic[] } | { kind: 'skipped'; diagnostics: Diagnostic[] };

export interface LedgerCache {
  /** The file's identity now, or null when it cannot be taken (the file is then read, not cached). `real`: its real path, when known. */
  identify(path: string, real?: string): Promise<string | null>;
  get(identity: string): Promise<CachedOutcome | null>;
  /** Stores an outcome if the file still has the identity it had before it was read (taken by `real`, as it was then, when known). */
  put(path: string, identity: string, outcome: CachedOutcome, real?: string): Promise<void>;
  /** Where it lives and whose code it holds, for a reading thread to open the same cache; null for none. */
  readonly where: { dir: string; codeStamp: string } | null;
  /**
   * Why the cache cannot be written, as a warning to show, or null when it can (or there is no
   * cache). Asked once per run: a cache that can never be written would otherwise make every run
   * read every file again without a word.
   */
  writeProblem(): Promise<string | null>;
  /**
   * Removes the entries of files that are gone (Claude Code deletes transcripts after 30 days),
   * else the cache would grow with every file there ever was; at most once a day (by a marker's
   * time), since it looks at every entry this run did not use. `used`: the identities of the
   * files this run looked up.
   */
  prune(used: Iterable<string | null>): Promise<void>;
}

/** Bytes hashed at each end of a file: an append or an edit in place changes one of them, or the size. */
const EDGE_BYTES = 8 * 1024;
const FORMAT = 6;
/** How often the entries of files that are gone are looked for. */
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * `codeStamp` names the code that makes ledgers (bough's version and a hash of its files): a
 * cache written by other code is never read. Each file's entries live in a folder of their own
 * (named by its path's hash), which holds only the latest: a session appended to at every run
 * (the one bough runs in) leaves one entry, not one per run.
 */
export function openLedgerCache(dir: string, codeStamp: string): LedgerCache {
  const folder = join(dir, 'ledgers', `v${FORMAT}`);
  const fileOf = (identity: string) => {
    const parts = IDENTITY.exec(identity);
    if (!parts) throw new Error('not an identity bough made');
    return { dir: join(folder, parts[1] as string), file: join(folder, parts[1] as string, `${parts[2]}.json`) };
  };
  let oldFormatsRemoved = false;
  return {
    where: { dir, codeStamp },
    identify: (path, real) => fileIdentity(path, codeStamp, real),
    writeProblem: () => cacheFolderProblem(dir),
    async get(identity) {
      try {
        // Synchronous: small files, one per session, read on every run. As text: Node reads a
        // file into a string in one call, where bytes take four (30,000 entries: 1.3 s as text,
        // 2.1 s as bytes).
        const text = readFileSync(fileOf(identity).file, 'utf8');
        const cut = text.indexOf('\n');
        if (cut === -1) return null;
        const head = headSchema.safeParse(JSON.parse(text.slice(0, cut)));
        const body = text.slice(cut + 1);
        // A count changed by a bad disk or a hand is as plausible as the true one: only the hash tells.
        if (!head.success || head.data.identity !== identity || head.data.sum !== sumOf(body)) return null;
        const split = body.indexOf('\n');
        if (split === -1) return null;
        const outcome = outcomeSchema.safeParse(JSON.parse(body.slice(0, split)));
        if (!outcome.success) return null;
        const packed = body.slice(split + 1);
        if (outcome.data.kind === 'skipped') return packed.length === 0 ? outcome.data : null;
        const { ledger } = outcome.data;
        // Copied into an array of its own: a short one is decoded into a slice of a shared buffer.
        const entries = checkedPackedEntries(ledger.entries, new Uint8Array(Buffer.from(packed, 'base64')));
        return entries === null ? null : { ...outcome.data, ledger: { ...ledger, entries } };
      } catch {
        return null;
      }
    },
    async put(path, identity, outcome, real) {
      try {
        // A file that changed while it was read is not cached under the identity it had before.
        if ((await this.identify(path, real)) !== identity) return;
        const { dir: own, file: target } = fileOf(identity);
        if (!oldFormatsRemoved) {
          oldFormatsRemoved = true;
          await removeOlderFormats(join(dir, 'ledgers'));
        }
        // Synchronous, as reading an entry is: a few small calls per session file, each far
        // quicker so than through the file-system threads (this runs on the reading threads).
        mkdirSync(own, { recursive: true });
        const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
        // A line of its own first: the file's real path, where pruning reads it without parsing
        // the entry, and the hash of the rest; then the outcome, what its ledger's entries are
        // said on that line and, after it, the entries packed, in base64.
        const line =
          outcome.kind === 'session'
            ? JSON.stringify({ ...outcome, ledger: { ...outcome.ledger, entries: saidOf(outcome.ledger.entries) } })
            : JSON.stringify(outcome);
        const bytes = outcome.kind === 'session' ? outcome.ledger.entries.bytes : null;
        // A view of the packed bytes, not a copy of them, encoded.
        const packed = bytes === null ? '' : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
        const body = `${line}\n${packed}`;
        writeFileSync(temporary, `${JSON.stringify({ format: FORMAT, source: real ?? realpathSync.native(path), identity, sum: sumOf(body) })}\n${body}`);
        try {
          renameSync(temporary, target);
        } catch (error) {
          rmSync(temporary, { force: true });
          throw error;
        }
        // Earlier entries of this file (before it was appended to, or made by other code) are of no more use.
        for (const name of readdirSync(own)) {
          if (name.endsWith('.json') && join(own, name) !== target) rmSync(join(own, name), { force: true });
        }
      } catch {
        // A cache that cannot be written costs speed next time, never this run.
      }
    },
    async prune(used) {
      const marker = join(folder, '.pruned');
      const now = Date.now();
      try {
        const last = await stat(marker).then((info) => info.mtimeMs, () => 0);
        if (now - last < PRUNE_EVERY_MS && last <= now) return;
        await mkdir(folder, { recursive: true });
        await writeFile(marker, '');
      } catch {
        return;
      }
      const kept = new Set([...used].map((identity) => (identity === null ? undefined : IDENTITY.exec(identity)?.[1])));
      for (const place of await readdir(folder).catch(() => [] as string[])) {
        if (!PLACE.test(place) || kept.has(place)) continue;
        if (placeState(join(folder, place)) === 'gone') await rm(join(folder, place), { recursive: true, force: true }).catch(() => {});
      }
    },
  };
}

/** A file's folder of entries (named by its path's hash). */
const PLACE = /^[0-9a-f]{32}$/;
/** The head of an entry, which names its file. */
const ENTRY_HEAD = new RegExp(`^\\{"format":${FORMAT},"source":("(?:[^"\\\\]|\\\\.)*")`);

/**
 * Whether a folder's entry is of a file that is gone (or is damaged past use), one that is still
 * there, or cannot be told (being written by another run, or the file cannot be looked at now).
 * Synchronous, as `get` is: a handful of small calls per entry, thousands of entries.
 */
function placeState(place: string): 'gone' | 'present' | 'unknown' {
  let head: string;
  try {
    const entry = readdirSync(place).find((name) => name.endsWith('.json'));
    if (entry === undefined) return 'unknown';
    const handle = openSync(join(place, entry), 'r');
    try {
      const buffer = Buffer.alloc(8192);
      head = buffer.subarray(0, readSync(handle, buffer, 0, buffer.length, 0)).toString('utf8');
    } finally {
      closeSync(handle);
    }
  } catch {
    return 'unknown';
  }
  const quoted = ENTRY_HEAD.exec(head)?.[1];
  let source: unknown;
  try {
    source = quoted === undefined ? undefined : JSON.parse(quoted);
  } catch {
    source = undefined;
  }
  // An entry that does not name its file is never used again (get checks the whole entry).
  if (typeof source !== 'string') return 'gone';
  try {
    statSync(source);
    return 'present';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'gone' : 'unknown';
  }
}

/** Why the cache folder cannot be written, found by writing a small file in it; null when it can. */
async function cacheFolderProblem(dir: string): Promise<string | null> {
  const folder = join(dir, 'ledgers', `v${FORMAT}`);
  const probe = join(folder, `.probe-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(folder, { recursive: true });
    await writeFile(probe, '');
    await rm(probe, { force: true });
    return null;
  } catch (error) {
    return `the cache folder ${dir} cannot be written (${whyUnwritable(error)}), so every run reads again every file it does not hold. Set BOUGH_CACHE_DIR to a folder bough may write, or pass --no-cache.`;
  }
}

function whyUnwritable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'EEXIST':
    case 'ENOTDIR':
      return 'a file is in the way of it';
    case 'EROFS':
      return 'a read-only file system';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the disk is full';
    default:
      return whyUnreadable(error);
  }
}

/** Entries of an older cache format are never read again by this bough: their folders go. */
async function removeOlderFormats(ledgers: string): Promise<void> {
  for (const name of await readdir(ledgers).catch(() => [] as string[])) {
    const format = /^v(\d+)$/.exec(name);
    if (format && Number(format[1]) < FORMAT) await rm(join(ledgers, name), { recursive: true, force: true });
  }
}

/**
 * A file as it is now, for the code that reads it: its real path, size, modification time and a
 * hash of both ends (an append or an edit in place changes one of them, or the size); null when
 * it cannot be taken. The same file unchanged, read by the same code, gives the same identity.
 */
export async function fileIdentity(path: string, codeStamp: string, knownReal?: string): Promise<string | null> {
  // Synchronous calls: a handful of small ones per file, each far quicker than a trip through
  // the thread pool that asynchronous ones take (a rebuild identifies every file).
  try {
    // The system's own realpath: one call, where Node's looks at each folder on the way in turn;
    // none when discovery resolved it (the system's looks at each folder too: 0.4 s for 30,000 files).
    const real = knownReal ?? realpathSync.native(path);
    const info = statSync(real);
    if (!info.isFile()) return null;
    // What is hashed: the code, the path, size and time, then both ends of the file, in one
    // buffer used again from file to file (this runs for every file, one at a time).
    const about = `${FORMAT}\0${codeStamp}\0${real}\0${info.size}\0${info.mtimeMs}\0`;
    const aboutBytes = Buffer.byteLength(about);
    const edges = Math.min(EDGE_BYTES, info.size) + (info.size > EDGE_BYTES ? EDGE_BYTES : 0);
    if (identityBuffer.length < aboutBytes + edges) identityBuffer = Buffer.allocUnsafe(aboutBytes + edges);
    const buffer = identityBuffer.subarray(0, aboutBytes + edges);
    buffer.write(about, 0);
    // Zeroed first: a file cut short since it was looked at leaves zeros, as it always has, not an earlier file's bytes.
    buffer.fill(0, aboutBytes);
    const handle = openSync(real, 'r');
    try {
      readSync(handle, buffer, aboutBytes, Math.min(EDGE_BYTES, info.size), 0);
      if (info.size > EDGE_BYTES) readSync(handle, buffer, aboutBytes + EDGE_BYTES, EDGE_BYTES, Math.max(EDGE_BYTES, info.size - EDGE_BYTES));
    } finally {
      closeSync(handle);
    }
    return `${sha256Hex(real).slice(0, 32)}.${sha256Hex(buffer)}`;
  } catch {
    return null;
  }
}

/** Where fileIdentity puts what it hashes; grown when a longer path needs it. */
let identityBuffer = Buffer.allocUnsafe(4096 + 2 * EDGE_BYTES);

/** What fileIdentity makes: the hash of the file's real path, then of what it is now. */
const IDENTITY = /^([0-9a-f]{32})\.([0-9a-f]{64})$/;

/** A cache that holds nothing (`--no-cache`, or content that is redacted or kept for pages). */
export const NO_CACHE: LedgerCache = {
  where: null,
  identify: async () => null,
  get: async () => null,
  put: async () => {},
  writeProblem: async () => null,
  prune: async () => {},
};

// ─────────────── the shape a cache entry must have to be used ───────────────

const count = z.number().int().nonnegative();
/** A time a Date can hold: a forged one beyond it would stop every page that formats it. */
const instant = z.number().min(-MAX_TIME).max(MAX_TIME);
const time = instant.nullable();
const text = z.string();
const diagnosticSchema = z.object({
  reason: z.string().refine((r): r is DiagnosticReason => r in DIAGNOSTIC_REASONS),
  file: text,
  line: count.nullable(),
  detail: text,
  skippedLine: z.boolean(),
  count: count.min(1).optional(),
});
const usageSchema = z.object({
  key: text,
  time,
  origin: z.enum(['reply', 'tool', 'summary', 'subagent', 'usage-entry']),
  provider: text.nullable(),
  model: text.nullable(),
  modelGuessed: z.boolean(),
  recordedCostFromProvider: z.boolean(),
  recordedCost: z.number().finite().nullable(),
  outputPartial: z.boolean(),
  responseId: text.nullable(),
  // Absent in what builds before fast mode and web searches were priced archived: neither, then.
  fast: z.boolean().default(false),
  webSearches: count.default(0),
  ...tokensSchema.shape,
});
const entrySchema = z.object({
  key: text,
  id: text,
  aliases: z.array(text).optional(),
  time,
  turn: z.enum(['prompt', 'reply']).nullable(),
  outcome: z.enum(['ok', 'error', 'aborted', 'length']).nullable(),
  usage: z.array(usageSchema),
  calls: z.array(z.object({ name: text, action: z.enum(['read', 'write', 'edit', 'shell', 'search', 'list', 'delegate', 'other']), paths: z.array(text) })),
  result: z
    .object({
      failed: z.boolean(),
      path: text.nullable(),
      added: count,
      removed: count,
      commits: z.array(z.object({ landed: z.boolean(), line: text.nullable(), message: text.nullable() })),
    })
    .nullable(),
});
export const ledgerSchema = z.object({
  key: text,
  source: z.enum(SOURCES),
  path: text,
  size: count,
  mtime: instant,
  sessionId: text,
  cwd: text.nullable(),
  projectFolder: text.nullable(),
  name: text.nullable(),
  title: text,
  startedAt: time,
  parentFile: text.nullable(),
  parentSessionId: text.nullable(),
  namedByAgent: z.boolean(),
  subagentOf: text.nullable(),
  subagentLabel: text.nullable(),
  entryTitles: z.array(z.object({ entryId: text, title: text })),
  formatVersion: z.number().finite(),
  branches: count,
  lastSeen: time,
  damaged: count,
  entries: z.array(entrySchema),
});
const headSchema = z.object({ format: z.literal(FORMAT), source: text, identity: text, sum: text });
const outcomeSchema = z.discriminatedUnion('kind', [
  // The entries follow the line, packed, checked as they are unpacked (packed-entries.ts).
  z.object({ kind: z.literal('session'), ledger: ledgerSchema.extend({ entries: z.object({ count, usageCount: count, subagentResponses: z.boolean() }) }), diagnostics: z.array(diagnosticSchema) }),
  z.object({ kind: z.literal('skipped'), diagnostics: z.array(diagnosticSchema) }),
]);

/** What an entry's outcome line says of its packed entries. */
function saidOf({ bytes: _bytes, ...said }: PackedEntries): Omit<PackedEntries, 'bytes'> {
  return said;
}

/** The hash an entry's head holds of the rest of it. */
function sumOf(body: string): string {
  return sha256Hex(body);
}
