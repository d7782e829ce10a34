// Ledgers cached per session file, so a second `bough stats` reads only the files that changed.
// An entry is found by the file's real path, size, modification time and a hash of its head and
// tail, plus the code that made it (bough's version and a hash of its own files): a change to any
// of them misses. Entries are checked when read (a hash of the whole entry, then a schema and,
// row by row, the ledger's packed entries, unpacked once): a damaged, foreign or older entry is
// ignored and written anew, never trusted. Each entry is written as a file of its own; after a
// run, enough of them are gathered into one pack, which later runs read through a small index
// instead of opening a file per session. The entries of files that are gone are removed, at most
// once a day. Only the cache folder is ever written.

import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { lstat, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { makeFolderSync } from '../make-folder.js';
import { join } from 'node:path';
import { constants as bufferConstants } from 'node:buffer';
import { z } from 'zod';
import { DIAGNOSTIC_REASONS, type Diagnostic, type DiagnosticReason } from '../diagnostics.js';
import type { SessionLedger } from '../ledger/ledger.js';
import { EARLIEST_TIME, MAX_TIME, TIME_LIMIT } from '../sources/record-fields.js';
import { MAX_COST_PER_RECORD, MAX_TOKENS_PER_RECORD } from '../sources/usage-check.js';
import { checkedPackedEntries, type EntriesHold, type PackedEntries } from '../ledger/packed-entries.js';
import { SOURCES } from '../types.js';
import { whyUnwritable } from '../file-problems.js';
import { sha256Hex } from '../sha256.js';
import { openOwnFile, readOwnFile } from '../own-file.js';
import { besideFile } from '../sources/registry.js';
import { inputOverlapping, overlapping, type OutInput } from '../output/out-path.js';

/** What reading one file gave: its ledger and problems, or why it is not a session. */
export type CachedOutcome = { kind: 'session'; ledger: SessionLedger; diagnostics: Diagnostic[] } | { kind: 'skipped'; diagnostics: Diagnostic[] };

export interface LedgerCache {
  /** The file's identity now, or null when it cannot be taken (the file is then read, not cached). `real`: its real path, when known. */
  identify(path: string, real?: string): Promise<string | null>;
  /** `hold`: where the entries, unpacked to be checked, are kept for the passes after (see EntriesHold). */
  get(identity: string, hold?: EntriesHold): Promise<CachedOutcome | null>;
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
   * An id made once per cache folder, or null (no cache, or one that cannot be written): a
   * report made with another cache (the folder deleted, to read every file anew) is not kept.
   */
  generation(): Promise<string | null>;
  /**
   * Removes the entries of files that are gone (Claude Code deletes transcripts after 30 days),
   * else the cache would grow with every file there ever was; at most once a day (by a marker's
   * time), since it looks at every entry this run did not use. `used`: the identities of the
   * files this run looked up.
   */
  prune(used: Iterable<string | null>): Promise<void>;
  /**
   * Gathers the entries of their own files this run used or wrote into the pack, when there are
   * enough of them to be worth rewriting it, so that the next run reads them through its index;
   * called once reading is done (after `prune`), on the main thread. `used`: as for `prune`.
   */
  compact(used: Iterable<string | null>): Promise<void>;
}

/** Bytes hashed at each end of a file: an append or an edit in place changes one of them, or the size. */
const EDGE_BYTES = 8 * 1024;
const FORMAT = 7;
/** How often the entries of files that are gone are looked for. */
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;
/**
 * When the pack is rewritten: once this run used or wrote entries of their own files for at
 * least this many files, and for at least PACK_GROWTH of the pack's entries. Measured over 30,000
 * entries: an entry of its own costs each run ~15–30 µs more than one in the pack; a rewrite
 * costs ~10 µs for each entry in the pack (copied, its index line sorted and written), besides
 * ~0.1 ms for each entry of its own it takes (read, written, removed: paid once, whenever). At an
 * eighth, the entries of their own cost each run about a quarter of what the copying costs a
 * rewrite, which so pays for itself in a few runs; and each rewrite takes at least an eighth of
 * the pack in new or changed entries, ~80 µs of copying for each, not a copy at every run. Fewer
 * than 64 cost a run under 2 ms. (A pack entry made stale by a change to its file is counted here
 * too: the file's new entry is one of its own until the next rewrite drops the old one.)
 */
const PACK_MIN_ENTRIES = 64;
const PACK_GROWTH = 1 / 8;

/**
 * `codeStamp` names the code that makes ledgers (bough's version and a hash of its files): a
 * cache written by other code is never read. Each file's entry is written to a file named by its
 * path's hash, which holds only the latest (its head names the identity it is for): a session
 * appended to at every run (the one bough runs in) leaves one entry, not one per run. `compact`
 * moves them into the pack, which holds at most one entry per file too. Not a folder per file:
 * making and removing a folder cost 165 and 210 µs here, a file's rename and removal a tenth of
 * that (30,000 sessions: ~5 s of a cold build, ~7 s of the rewrite after it).
 */
export function openLedgerCache(dir: string, codeStamp: string): LedgerCache {
  const folder = join(dir, 'ledgers', `v${FORMAT}`);
  const fileOf = (identity: string) => {
    if (!IDENTITY.test(identity)) throw new Error('not an identity bough made');
    return join(folder, `${placeOf(identity)}.json`);
  };
  /** Made once, by the first entry written: the entries written meanwhile wait for it (they were lost). */
  let folderMade: Promise<void> | null = null;
  // The pack as this run found it, opened at the first lookup and closed once reading is done.
  let pack: Pack | null | undefined;
  const closePack = () => {
    if (pack) closeQuietly(pack.fd);
    pack = undefined;
  };
  // What the pack gave this run (the other identities used are those of entries of their own),
  // and what files of their own gave it (those are there: no need to look).
  const fromPack = new Set<string>();
  const fromFiles = new Set<string>();
  let rewritten = false;

  /** This run's file identities by path hash, in the order it looked them up. */
  const usedByPlace = (used: Iterable<string | null>) => {
    const usedBy = new Map<string, string>();
    for (const identity of used) if (identity !== null && IDENTITY.test(identity)) usedBy.set(placeOf(identity), identity);
    return usedBy;
  };

  /**
   * Writes a new pack from the one there now (opened again: another run may have rewritten it
   * since this one began): this run's files' entries (their own when the pack did not give
   * them), then the pack's entries of other files, less those `gone` names; then removes the
   * entries of their own it took. One run at a time; a run that finds another at it leaves the
   * rewrite to it.
   */
  const rewritePack = (usedBy: ReadonlyMap<string, string>, gone: ReadonlySet<string>): void => {
    withPackLock(folder, () => {
      const current = openPack(folder);
      const run = [...usedBy.values()].map((identity) => ({ identity, file: fromPack.has(identity) ? null : fileOf(identity) }));
      // An entry of a file this run found otherwise is of no more use: the file changed.
      const keep = (identity: string) => !gone.has(identity) && !usedBy.has(placeOf(identity));
      let written: ReturnType<typeof writePack>;
      try {
        written = writePack(folder, current, run, keep);
      } finally {
        if (current) closeQuietly(current.fd);
      }
      rewritten = true;
      for (const { file, ino, mtimeMs } of written.packed) {
        try {
          // Only the entry packed: one another run wrote over it since (a newer one, or for other code) stays.
          const now = statSync(file);
          if (now.ino === ino && now.mtimeMs === mtimeMs) rmSync(file, { force: true });
        } catch {
          // Gone already.
        }
      }
      // A run that read the old index and opens its pack now finds none, and reads the index again.
      if (current && current.name !== written.name) rmSync(join(folder, current.name), { force: true });
      removeLeftovers(folder, written.name);
    });
  };

  return {
    where: { dir, codeStamp },
    identify: (path, real) => fileIdentity(path, codeStamp, real),
    writeProblem: () => cacheFolderProblem(dir),
    generation: () => cacheGeneration(folder),
    async get(identity, hold) {
      if (pack === undefined) pack = openPack(folder);
      const packed = pack === null ? null : packedEntry(pack, identity);
      const found = packed === null ? null : outcomeOf(packed, identity, hold);
      if (found) {
        fromPack.add(identity);
        return found;
      }
      try {
        // Synchronous: small files, one per session, read on every run. As text: Node reads a
        // file into a string in one call, where bytes take four (30,000 entries: 1.3 s as text,
        // 2.1 s as bytes).
        const text = readRegularSync(fileOf(identity));
        const own = text === null ? null : outcomeOf(text.toString('utf8'), identity, hold);
        if (own) fromFiles.add(identity);
        return own;
      } catch {
        return null;
      }
    },
    async put(path, identity, outcome, real) {
      try {
        // A file that changed while it was read is not cached under the identity it had before.
        if ((await this.identify(path, real)) !== identity) return;
        const target = fileOf(identity);
        // Synchronous, as reading an entry is: a few small calls per session file, each far
        // quicker so than through the file-system threads (this runs on the reading threads).
        await (folderMade ??= removeOlderFormats(join(dir, 'ledgers')).then(() => makeFolderSync(folder)));
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
        // Over the file's earlier entry (before it was appended to, or made by other code): of no
        // more use. A write cut short (a full disk) leaves no temporary file behind it.
        try {
          writeFileSync(temporary, `${JSON.stringify({ format: FORMAT, source: real ?? realpathSync.native(path), identity, sum: sumOf(body) })}\n${body}`);
          renameSync(temporary, target);
        } catch (error) {
          rmSync(temporary, { force: true });
          throw error;
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
        makeFolderSync(folder);
        await writeFile(marker, '');
      } catch {
        return;
      }
      const usedBy = usedByPlace(used);
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const place = ENTRY_FILE.exec(name)?.[1];
        if (place === undefined || usedBy.has(place)) continue;
        if (sourceState(fileHead(join(folder, name))) === 'gone') await rm(join(folder, name), { force: true }).catch(() => {});
      }
      try {
        const current = openPack(folder);
        if (current === null) return;
        const gone = new Set<string>();
        try {
          for (const record of packRecords(current)) {
            if (!usedBy.has(placeOf(record.identity)) && sourceState(packedHead(current, record)) === 'gone') gone.add(record.identity);
          }
        } finally {
          closeQuietly(current.fd);
        }
        // The rewrite takes this run's entries of their own too: `compact` then has none to take.
        if (gone.size > 0) rewritePack(usedBy, gone);
      } catch {
        // Left for the next day's look.
      }
    },
    async compact(used) {
      try {
        if (rewritten) return;
        if (pack === undefined) pack = openPack(folder);
        const enough = Math.max(PACK_MIN_ENTRIES, Math.ceil((pack?.count ?? 0) * PACK_GROWTH));
        const identities = [...used];
        // Most runs end here, the pack having given nearly every ledger: told without a lookup per file.
        if (identities.filter((identity) => identity !== null).length - fromPack.size < enough) return;
        // The entries of their own this run used or wrote, counted by the files there until there
        // are enough: files that could not be cached (unreadable ones) are no reason to rewrite
        // the pack at every run.
        let there = 0;
        for (const identity of identities) {
          if (identity === null || fromPack.has(identity)) continue;
          if ((fromFiles.has(identity) || existsSync(fileOf(identity))) && ++there >= enough) break;
        }
        if (there >= enough) rewritePack(usedByPlace(identities), new Set());
      } catch {
        // The entries stay files of their own: the next run reads them as such.
      } finally {
        closePack();
      }
    },
  };
}

/** Checks an entry's text, from its own file or the pack alike: the outcome it holds, or null when it is not one this code wrote for this identity. */
function outcomeOf(text: string, identity: string, hold?: EntriesHold): CachedOutcome | null {
  try {
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
    const checked = checkedPackedEntries(ledger.entries, new Uint8Array(Buffer.from(packed, 'base64')));
    if (checked === null) return null;
    hold?.keep(checked.packed, checked.entries);
    return { ...outcome.data, ledger: { ...ledger, entries: checked.packed } };
  } catch {
    return null;
  }
}

/** A file of the cache opened for reading, or null when it is not there or not a regular file (see openOwnFile). */
function openRegularSync(file: string): number | null {
  try {
    return openOwnFile(file);
  } catch {
    return null;
  }
}

/** A file of the cache, whole, or null (see openOwnFile). */
function readRegularSync(file: string): Buffer | null {
  try {
    return readOwnFile(file);
  } catch {
    return null;
  }
}

/** A file's entry of its own (named by its path's hash). */
const ENTRY_FILE = /^([0-9a-f]{32})\.json$/;
/** The head of an entry, which names its file. */
const ENTRY_HEAD = new RegExp(`^\\{"format":${FORMAT},"source":("(?:[^"\\\\]|\\\\.)*")`);
/** Bytes of an entry's beginning read to find the file it names. */
const HEAD_BYTES = 8192;

/**
 * The beginning of an entry of its own, where its file is named; null when it cannot be read
 * (removed by another run meanwhile). Synchronous, as `get` is: thousands of small files.
 */
function fileHead(file: string): string | null {
  try {
    const handle = openRegularSync(file);
    if (handle === null) return null;
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      return buffer.subarray(0, readSync(handle, buffer, 0, buffer.length, 0)).toString('utf8');
    } finally {
      closeSync(handle);
    }
  } catch {
    return null;
  }
}

/** Whether the file an entry's beginning names is gone (or names none: such an entry is never used again), still there, or cannot be told now. */
function sourceState(head: string | null): 'gone' | 'present' | 'unknown' {
  if (head === null) return 'unknown';
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

const GENERATION = /^[0-9a-f]{32}$/;

/** The id of the cache in `dir` as it is, without making one (a run with --no-cache): null when it has none. */
export function cacheGenerationIn(dir: string): Promise<string | null> {
  return cacheGeneration(join(dir, 'ledgers', `v${FORMAT}`), false);
}

/** The cache folder's id, made by the first run that finds none (a run that races it takes the one written). */
async function cacheGeneration(folder: string, make = true): Promise<string | null> {
  const path = join(folder, 'generation');
  const read = async () => {
    const text = (readRegularSync(path)?.toString('utf8') ?? '').trim();
    return GENERATION.test(text) ? text : null;
  };
  const found = await read();
  if (found !== null || !make) return found;
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    makeFolderSync(folder);
    await writeFile(temporary, randomBytes(16).toString('hex'));
    await rename(temporary, path);
  } catch {
    // A full disk leaves no temporary file behind, run after run.
    await rm(temporary, { force: true }).catch(() => {});
    return null;
  }
  return read();
}

/** What a probe writes: as much as a few entries, so that a full disk shows (an empty file needs no room). */
const PROBE_BYTES = 64 * 1024;

/** Why the cache folder cannot be written, found by writing a file in it; null when it can. */
async function cacheFolderProblem(dir: string): Promise<string | null> {
  const folder = join(dir, 'ledgers', `v${FORMAT}`);
  const probe = join(folder, `.probe-${randomBytes(4).toString('hex')}`);
  try {
    // Each missing folder made alone, so a read-only file system says so (not ENOENT).
    makeFolderSync(folder);
    await writeFile(probe, Buffer.alloc(PROBE_BYTES));
    return null;
  } catch (error) {
    return `the cache folder ${dir} cannot be written (${whyUnwritable(error)}), so every run reads again every file it does not hold. Set BOUGH_CACHE_DIR to a folder bough may write, or pass --no-cache.`;
  } finally {
    // Nothing to remove where a file stands in the way of its folder.
    await rm(probe, { force: true }).catch(() => {});
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
    // What is hashed: the code, the path (real, and as given: a file's ledger and project are
    // named by the path it is read under), size and time, what its reading takes in from beside
    // it, then both ends of the file, in one buffer used again from file to file (this runs for
    // every file, one at a time).
    const about = `${FORMAT}\0${codeStamp}\0${real}\0${path}\0${info.size}\0${info.mtimeMs}\0${await besideFile(path)}\0`;
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
    // Placed by both paths: a file read by its real path and through a link has an entry for each.
    return `${sha256Hex(`${real}\0${path}`).slice(0, 32)}.${sha256Hex(buffer)}`;
  } catch {
    return null;
  }
}

/** Where fileIdentity puts what it hashes; grown when a longer path needs it. */
let identityBuffer = Buffer.allocUnsafe(4096 + 2 * EDGE_BYTES);

/** What fileIdentity makes: the hash of the file's paths (real, and as given), then of what it is now. */
const IDENTITY = /^[0-9a-f]{32}\.[0-9a-f]{64}$/;

/**
 * The cache of a run reading `inputs` (and writing the report folder `report`): none when its
 * folder, or the folder its entries go in (a link may lead elsewhere), is one of them or inside
 * one (a BOUGH_CACHE_DIR set there), or holds one: bough never writes into what it reads, and a
 * cache tidies its folder, removing what an older bough left. None either when it is inside the
 * report folder, which is handed to others as it is, or holds it, whose files a cache's tidying
 * is not to touch. Said as a cache that cannot be written is.
 */
export async function openLedgerCacheBeside(inputs: readonly OutInput[], dir: string, codeStamp: string, report: string | null = null): Promise<LedgerCache> {
  // The folders bough makes in its cache are folders: one that is a link (made by hand) leads to
  // what bough never made, whose files pruning would remove (regression, a hostile look: a link at
  // ledgers/v7 to an input had its files written over and its own removed, unsaid).
  const linked = await linkedOwnFolder(dir);
  if (linked !== null) return { ...NO_CACHE, writeProblem: async () => `${linked} in the cache folder is a link, where bough makes a folder of its own: bough writes and removes files only in folders it made, so this run reads every file without a cache. Remove the link, or set BOUGH_CACHE_DIR to another folder.` };
  // A folder whose path cannot be followed is no input's: the cache then says why it cannot be written.
  const overlapsInput = async (folder: string) => inputOverlapping(folder, inputs).catch(() => null);
  // The cache writes and removes only in its entries' folder: an input beside that is no matter.
  const around = await overlapsInput(dir);
  const input = (around?.holds === false ? around : null) ?? (await overlapsInput(join(dir, 'ledgers')));
  const overlap = input === null && report !== null ? await overlapping(dir, report).catch(() => null) : null;
  if (input === null && overlap === null) return openLedgerCache(dir, codeStamp);
  const problem =
    input !== null
      ? input.holds
        ? `the cache folder ${dir} holds the input ${input.input}, and bough never writes into what it reads, nor removes anything of it, so this run reads every file without a cache. Set BOUGH_CACHE_DIR to a folder apart from your inputs.`
        : `the cache folder ${dir} is inside the input ${input.input}, and bough never writes into what it reads, so this run reads every file without a cache. Set BOUGH_CACHE_DIR to a folder outside your inputs.`
      : overlap === 'inside'
        ? `the cache folder ${dir} is inside the report folder ${report}, which would hand what the cache holds of every session to whoever gets the report, so this run reads every file without a cache. Set BOUGH_CACHE_DIR to a folder outside the report.`
        : `the report folder ${report} is inside the cache folder ${dir}, so this run reads every file without a cache, which keeps its files away from the report's. Set BOUGH_CACHE_DIR, or --out, so that neither holds the other.`;
  return { ...NO_CACHE, writeProblem: async () => problem };
}

/** The first of the folders bough makes in a cache folder (`ledgers`, its entries' `v7`) that is a link, by its path; null when none is. */
async function linkedOwnFolder(dir: string): Promise<string | null> {
  for (const folder of [join(dir, 'ledgers'), join(dir, 'ledgers', `v${FORMAT}`)]) {
    const info = await lstat(folder).catch(() => null);
    if (info?.isSymbolicLink()) return folder;
  }
  return null;
}

/** A cache that holds nothing (`--no-cache`, or content that is redacted or kept for pages). */
export const NO_CACHE: LedgerCache = {
  where: null,
  identify: async () => null,
  get: async () => null,
  put: async () => {},
  writeProblem: async () => null,
  generation: async () => null,
  prune: async () => {},
  compact: async () => {},
};

// ─────────────── the pack: many files' entries in one ───────────────
//
// `pack-<random>.entries` holds entries one after another, each the very text its own file had,
// followed by a newline, in the order the run that wrote it looked them up. `pack.index` names
// that pack on its first line, then has one line per entry in identity order, each of the same
// width: the identity, the entry's offset and its length in bytes. A run reads the index once and
// binary-searches its bytes, then reads each entry it needs with one positioned read; neither file
// is trusted (an entry is checked as one of its own file is, its head naming the identity asked
// for), so a damaged or foreign one only misses.
// A pack is never written again under its name: a new index is put in place only after its
// pack, so an index never names a pack other than the one written with it.

const INDEX = 'pack.index';
const PACK_NAME = /^pack-[0-9a-f]{16}\.entries$/;
const INDEX_HEAD = new RegExp(`^bough ledger pack ${FORMAT} (pack-[0-9a-f]{16}\\.entries)$`);
const IDENTITY_CHARS = 32 + 1 + 64;
const OFFSET_DIGITS = 12;
const LENGTH_DIGITS = 10;
/** An index line: identity, space, offset, space, length, newline. */
const RECORD_BYTES = IDENTITY_CHARS + 1 + OFFSET_DIGITS + 1 + LENGTH_DIGITS + 1;
const MAX_PACK_BYTES = 10 ** OFFSET_DIGITS;
/** What a rewrite holds besides the new index's lines (~120 bytes an entry): this much of the new pack before it is written, and one entry of its own. */
const WRITE_BUFFER_BYTES = 1024 * 1024;
/** Index lines written at a time. */
const INDEX_CHUNK_LINES = 512;
/** Entries up to this size are read into one buffer used again: a big one is not kept for the rest of the run. */
const READ_BUFFER_BYTES = 256 * 1024;
/** A lookup this far past the end of the pack's last read still counts as going forward through it (a few entries of files not looked up lie between). */
const READ_AHEAD_GAP = 64 * 1024;
/** A rewrite's lock older than this was left by a run that stopped: it is taken over. */
const LOCK_STALE_MS = 10 * 60 * 1000;
/** A pack or temporary file no index names, this old, was left by a run that stopped midway. */
const LEFTOVER_MS = 60 * 60 * 1000;
const NEWLINE = Buffer.from('\n');

interface Pack {
  name: string;
  fd: number;
  bytes: number;
  index: Buffer;
  /** Where the index's records begin, after its head line. */
  start: number;
  count: number;
  /** What was last read of the pack: the bytes from `from` to `to`, held in `bytes`. */
  ahead: { bytes: Buffer; from: number; to: number } | null;
}

interface PackRecord {
  identity: string;
  offset: number;
  length: number;
}

/** The pack the index names, opened, with the index read; null when there is none or either is not one this code wrote. */
function openPack(folder: string): Pack | null {
  // Twice: a rewrite by another run may remove the pack an index just read names.
  for (let attempt = 0; attempt < 2; attempt++) {
    const index = readRegularSync(join(folder, INDEX));
    if (index === null) return null;
    const cut = index.indexOf(0x0a);
    const name = cut === -1 ? undefined : INDEX_HEAD.exec(index.toString('latin1', 0, cut))?.[1];
    if (name === undefined || (index.length - cut - 1) % RECORD_BYTES !== 0) return null;
    const fd = openRegularSync(join(folder, name));
    if (fd === null) continue;
    try {
      return { name, fd, bytes: fstatSync(fd).size, index, start: cut + 1, count: (index.length - cut - 1) / RECORD_BYTES, ahead: null };
    } catch {
      closeQuietly(fd);
      return null;
    }
  }
  return null;
}

/** The index's i-th record, or null when it is not one a rewrite could have written for this pack. */
function recordAt(pack: Pack, i: number): PackRecord | null {
  const at = pack.start + i * RECORD_BYTES;
  const line = pack.index.toString('latin1', at, at + RECORD_BYTES);
  const parts = RECORD.exec(line);
  if (!parts) return null;
  const [, identity, offset, length] = parts as unknown as [string, string, string, string];
  const record = { identity, offset: Number(offset), length: Number(length) };
  // Past the pack's end, or longer than a string can be: damage, not an entry.
  if (record.offset + record.length + 1 > pack.bytes || record.length > bufferConstants.MAX_STRING_LENGTH) return null;
  return record;
}
const RECORD = new RegExp(`^([0-9a-f]{32}\\.[0-9a-f]{64}) (\\d{${OFFSET_DIGITS}}) (\\d{${LENGTH_DIGITS}})\\n$`);

/** The text the pack holds under an identity; not yet checked. */
function packedEntry(pack: Pack, identity: string): string | null {
  const record = recordOf(pack, identity);
  return record === null ? null : readPacked(pack, record.offset, record.length);
}

/** The index's record of an identity, found by a binary search of its bytes. */
function recordOf(pack: Pack, identity: string): PackRecord | null {
  if (identity.length !== IDENTITY_CHARS) return null;
  let low = 0;
  let high = pack.count - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareIdentity(pack.index, pack.start + middle * RECORD_BYTES, identity);
    if (order < 0) low = middle + 1;
    else if (order > 0) high = middle - 1;
    else return recordAt(pack, middle);
  }
  return null;
}

/**
 * How the identity at `at` in the index sorts against `identity` (both hex and a dot, so bytes
 * and characters sort alike). Compared here, byte by byte: the first byte or two tell, and a
 * call into Buffer.compare cost more than that (30,000 lookups: 70–110 ms against 25–50 ms).
 */
function compareIdentity(index: Buffer, at: number, identity: string): number {
  for (let i = 0; i < IDENTITY_CHARS; i++) {
    const difference = (index[at + i] as number) - identity.charCodeAt(i);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The beginning of an entry, where its file is named; null when it cannot be read. */
function packedHead(pack: Pack, record: PackRecord): string | null {
  return readPacked(pack, record.offset, Math.min(record.length, HEAD_BYTES));
}

/**
 * Bytes of the pack at `offset`, as text. Read ahead: a run looks its entries up in the order the
 * pack was written in (the last run's files' order, most often its own), so one read of
 * READ_BUFFER_BYTES serves the next hundred lookups (30,000 lookups: 17 ms against 104 ms with a
 * read each, the pack in memory; 76 ms against 262 ms from disk). A lookup that is not a little
 * forward of the last reads only its entry: a run looking up other files, in another order, does
 * not read ahead for nothing.
 */
function readPacked(pack: Pack, offset: number, length: number): string | null {
  try {
    if (length > READ_BUFFER_BYTES) {
      const buffer = Buffer.allocUnsafe(length);
      return readSync(pack.fd, buffer, 0, length, offset) === length ? buffer.toString('utf8') : null;
    }
    let ahead = pack.ahead;
    if (ahead === null || offset < ahead.from || offset + length > ahead.to) {
      const forward = ahead === null || (offset >= ahead.to && offset - ahead.to <= READ_AHEAD_GAP);
      const bytes = ahead?.bytes ?? Buffer.allocUnsafe(READ_BUFFER_BYTES);
      const read = readSync(pack.fd, bytes, 0, forward ? READ_BUFFER_BYTES : length, offset);
      ahead = pack.ahead = { bytes, from: offset, to: offset + read };
      if (read < length) return null;
    }
    return ahead.bytes.toString('utf8', offset - ahead.from, offset - ahead.from + length);
  } catch {
    pack.ahead = null;
    return null;
  }
}

/** The index's records in identity order, skipping any that are damaged or out of order. */
function* packRecords(pack: Pack): Generator<PackRecord, void> {
  let last = '';
  for (let i = 0; i < pack.count; i++) {
    const record = recordAt(pack, i);
    if (record === null || record.identity <= last) continue;
    last = record.identity;
    yield record;
  }
}

/** The hash of the file's paths (real, and as given), which names its entry of its own: one entry per file and name. */
function placeOf(identity: string): string {
  return identity.slice(0, 32);
}

/**
 * Writes a new pack and its index. First the entries of this run's files (`run`), in the order
 * it looked them up: each file's entry of its own when it has one (newer than the pack's), else
 * the pack's. The next run looks them up in that order too, so its reads go forward through the
 * pack, where the system reads ahead (30,000 lookups in a pack no longer in memory: 0.25 s, in
 * identity order 1 s). Then the old pack's entries of other files `keep` accepts, in their order.
 * Old entries are copied by byte range (those that lay together, in one range). Streams through
 * one buffer, into temporary files renamed into place; holds the new index's lines, to sort
 * them. Returns the new pack's name and the files of the entries of their own it took, as they
 * were when read.
 */
function writePack(
  folder: string,
  old: Pack | null,
  run: readonly { identity: string; file: string | null }[],
  keep: (identity: string) => boolean,
): { name: string; packed: { file: string; ino: number; mtimeMs: number }[] } {
  const name = `pack-${randomBytes(8).toString('hex')}.entries`;
  const packTemporary = join(folder, `${name}.tmp`);
  const indexTemporary = join(folder, `${INDEX}.${randomBytes(4).toString('hex')}.tmp`);
  const packed: { file: string; ino: number; mtimeMs: number }[] = [];
  const packFd = openSync(packTemporary, 'wx');
  let indexFd: number | null = null;
  let placed = false;
  try {
    indexFd = openSync(indexTemporary, 'wx');
    // What is bound for the pack, written when full: one write per entry of its own would be
    // most of a rewrite's calls.
    const buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
    let buffered = 0;
    const flush = () => {
      writeFully(packFd, buffer.subarray(0, buffered));
      buffered = 0;
    };
    const append = (bytes: Uint8Array) => {
      if (buffered + bytes.length > buffer.length) flush();
      if (bytes.length > buffer.length) writeFully(packFd, bytes);
      else {
        buffer.set(bytes, buffered);
        buffered += bytes.length;
      }
    };
    // Old bytes still to copy, read straight into the buffer.
    let range: { start: number; end: number } | null = null;
    const copyRange = () => {
      if (range === null || old === null) return;
      for (let at = range.start; at < range.end; ) {
        if (buffered === buffer.length) flush();
        const read = readSync(old.fd, buffer, buffered, Math.min(buffer.length - buffered, range.end - at), at);
        if (read === 0) throw new Error('the old pack ended early');
        buffered += read;
        at += read;
      }
      range = null;
    };
    // The index's lines in pack order, sorted once all are written.
    const lines = Buffer.allocUnsafe((run.length + (old?.count ?? 0)) * RECORD_BYTES);
    let count = 0;
    // The new pack's length so far, counting the old bytes not yet copied.
    let length = 0;
    const indexed = (identity: string, bytes: number) => {
      if (length + bytes + 1 >= MAX_PACK_BYTES) throw new Error('the pack would outgrow its index');
      lines.write(`${identity} ${String(length).padStart(OFFSET_DIGITS, '0')} ${String(bytes).padStart(LENGTH_DIGITS, '0')}\n`, count * RECORD_BYTES, 'latin1');
      count++;
      length += bytes + 1;
    };
    const takeOld = (record: PackRecord) => {
      // The entry and the newline after it, joined to the range before when it follows it.
      if (range !== null && range.end === record.offset) range.end += record.length + 1;
      else {
        copyRange();
        range = { start: record.offset, end: record.offset + record.length + 1 };
      }
      indexed(record.identity, record.length);
    };
    const entryBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
    const takeOwn = (identity: string, file: string): boolean => {
      const read = ownEntry(file, entryBuffer);
      // Gone since (taken by another run's rewrite), or now for another identity (written over by
      // another run): the pack's entry, if any, is taken instead.
      if (read === null || identityNamed(read.text) !== identity) return false;
      copyRange();
      append(read.text);
      append(NEWLINE);
      indexed(identity, read.text.length);
      packed.push({ file, ino: read.ino, mtimeMs: read.mtimeMs });
      return true;
    };
    for (const { identity, file } of run) {
      if (file !== null && takeOwn(identity, file)) continue;
      const record = old === null ? null : recordOf(old, identity);
      if (record !== null) takeOld(record);
    }
    if (old !== null) for (const i of othersInPackOrder(old, keep)) takeOld(recordAt(old, i) as PackRecord);
    copyRange();
    flush();
    writeIndex(indexFd, `bough ledger pack ${FORMAT} ${name}\n`, lines, count);
    closeSync(indexFd);
    indexFd = null;
    closeSync(packFd);
    renameSync(packTemporary, join(folder, name));
    placed = true;
    renameSync(indexTemporary, join(folder, INDEX));
    return { name, packed };
  } catch (error) {
    if (indexFd !== null) closeQuietly(indexFd);
    closeQuietly(packFd);
    for (const file of [packTemporary, indexTemporary, ...(placed ? [join(folder, name)] : [])]) rmSync(file, { force: true });
    throw error;
  }
}

/** The old pack's records `keep` accepts, in the order of their entries in it: at most one per file (the index's first), none damaged. */
function othersInPackOrder(pack: Pack, keep: (identity: string) => boolean): number[] {
  const chosen: number[] = [];
  const offsets = new Float64Array(pack.count);
  let lastPlace = '';
  let lastIdentity = '';
  for (let i = 0; i < pack.count; i++) {
    const record = recordAt(pack, i);
    // Out of order: a damaged index, whose binary search could not find it either.
    if (record === null || record.identity <= lastIdentity) continue;
    lastIdentity = record.identity;
    const place = placeOf(record.identity);
    if (place === lastPlace || !keep(record.identity)) continue;
    lastPlace = place;
    offsets[i] = record.offset;
    chosen.push(i);
  }
  return chosen.sort((a, b) => (offsets[a] as number) - (offsets[b] as number));
}

/** Writes the index: its head, then `count` fixed-width lines sorted by identity, a chunk at a time. */
function writeIndex(fd: number, head: string, lines: Buffer, count: number): void {
  const order = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => compareIdentities(lines, a * RECORD_BYTES, b * RECORD_BYTES));
  const chunk = Buffer.allocUnsafe(Math.max(Buffer.byteLength(head), INDEX_CHUNK_LINES * RECORD_BYTES));
  let filled = chunk.write(head, 0, 'latin1');
  for (const i of order) {
    if (filled + RECORD_BYTES > chunk.length) {
      writeFully(fd, chunk.subarray(0, filled));
      filled = 0;
    }
    filled += lines.copy(chunk, filled, i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
  }
  writeFully(fd, chunk.subarray(0, filled));
}

/** How two identities in one buffer sort, byte by byte (see compareIdentity). */
function compareIdentities(lines: Buffer, a: number, b: number): number {
  for (let i = 0; i < IDENTITY_CHARS; i++) {
    const difference = (lines[a + i] as number) - (lines[b + i] as number);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * An entry of its own as bytes, with what tells it from one written over it later; null when
 * there is none. Read into `into` when it fits (valid until the next call): a buffer each left
 * ~10 MB more resident after taking 30,000 entries (133 MB against 124 MB).
 */
function ownEntry(file: string, into: Buffer): { text: Buffer; ino: number; mtimeMs: number } | null {
  const fd = openRegularSync(file);
  if (fd === null) return null;
  try {
    const { size, ino, mtimeMs } = fstatSync(fd);
    const text = size <= into.length ? into.subarray(0, size) : Buffer.allocUnsafe(size);
    return readSync(fd, text, 0, size, 0) === size ? { text, ino, mtimeMs } : null;
  } catch {
    return null;
  } finally {
    closeQuietly(fd);
  }
}

/** The identity an entry's head line names, or null. */
function identityNamed(text: Buffer): string | null {
  const cut = text.indexOf(0x0a);
  if (cut === -1) return null;
  try {
    const head: unknown = JSON.parse(text.toString('utf8', 0, cut));
    return typeof head === 'object' && head !== null && 'identity' in head && typeof head.identity === 'string' ? head.identity : null;
  } catch {
    return null;
  }
}

function writeFully(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed, or never to be used again: nothing to keep.
  }
}

/**
 * Runs a rewrite of the pack unless another run is at one: two at once would each drop the
 * entries the other took from their own files (misses, not wrong ledgers, but a rewrite's worth).
 */
function withPackLock(folder: string, rewrite: () => void): void {
  const lock = join(folder, 'pack.lock');
  try {
    closeSync(openSync(lock, 'wx'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException | null)?.code !== 'EEXIST') return;
    try {
      if (Date.now() - statSync(lock).mtimeMs < LOCK_STALE_MS) return;
      rmSync(lock, { force: true });
      closeSync(openSync(lock, 'wx'));
    } catch {
      return;
    }
  }
  try {
    rewrite();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Removes packs no index names and temporary files that runs stopped midway left, once old enough that no run is still writing or reading them. */
function removeLeftovers(folder: string, current: string): void {
  const now = Date.now();
  for (const name of readdirSync(folder)) {
    if (name === current || !(PACK_NAME.test(name) || name.endsWith('.tmp'))) continue;
    try {
      if (now - statSync(join(folder, name)).mtimeMs > LEFTOVER_MS) rmSync(join(folder, name), { force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}

// ─────────────── the shape a cache entry must have to be used ───────────────

const count = z.number().int().nonnegative();
const tokenCount = count.max(MAX_TOKENS_PER_RECORD);
/** A time a Date can hold: a forged one beyond it would stop every page that formats it. */
const instant = z.number().min(-MAX_TIME).max(MAX_TIME);
/** A record's time, as a reader accepts one (a forged one beyond would stop the pages that format it). */
const time = z.number().min(EARLIEST_TIME).lt(TIME_LIMIT).nullable();
const text = z.string();
const diagnosticSchema = z.object({
  reason: z.string().refine((r): r is DiagnosticReason => r in DIAGNOSTIC_REASONS),
  file: text,
  line: count.nullable(),
  detail: text,
  skippedLine: z.boolean(),
  count: count.min(1).optional(),
  time: z.number().finite().optional(),
});
const usageSchema = z.object({
  key: text,
  time,
  origin: z.enum(['reply', 'tool', 'summary', 'subagent', 'usage-entry']),
  provider: text.nullable(),
  model: text.nullable(),
  requestedModel: text.optional(),
  modelGuessed: z.boolean(),
  recordedCostFromProvider: z.boolean(),
  // What a reader leaves out of the sums (usage-check.ts) never comes back from an archive either.
  recordedCost: z.number().min(0).max(MAX_COST_PER_RECORD).nullable(),
  outputPartial: z.boolean(),
  responseId: text.nullable(),
  // Absent in what builds before fast mode and web searches were priced archived: neither, then.
  fast: z.boolean().default(false),
  webSearches: tokenCount.default(0),
  input: tokenCount,
  output: tokenCount,
  cacheRead: tokenCount,
  cacheWrite: tokenCount,
  cacheWrite1h: tokenCount,
  reasoning: tokenCount,
  countsLeftOut: z.literal(true).optional(),
  countsUnknown: z.literal(true).optional(),
  usOnly: z.literal(true).optional(),
  flex: z.literal(true).optional(),
  largestPrompt: tokenCount.optional(),
}).refine((usage) => usage.cacheWrite1h <= usage.cacheWrite && usage.reasoning <= usage.output, 'a part larger than its whole');
const callSchema = z.object({ name: text, action: z.enum(['read', 'write', 'edit', 'shell', 'search', 'list', 'delegate', 'other']), paths: z.array(text), failed: z.literal(true).optional() });
const resultSchema = z.object({
  failed: z.boolean(),
  path: text.nullable(),
  added: count,
  removed: count,
  commits: z.array(z.object({ landed: z.boolean(), line: text.nullable(), message: text.nullable() })),
  files: z.array(z.object({ path: text, added: count, removed: count })).optional(),
});
export const entrySchema = z.object({
  key: text,
  id: text,
  aliases: z.array(text).optional(),
  time,
  turn: z.enum(['prompt', 'reply']).nullable(),
  outcome: z.enum(['ok', 'error', 'aborted', 'length']).nullable(),
  usage: z.array(usageSchema),
  calls: z.array(callSchema),
  result: resultSchema.nullable(),
  // The tool work of sub-agent runs a result shows; absent where there is none (and in older archives).
  inner: z.object({ calls: z.array(callSchema), results: z.array(resultSchema) }).optional(),
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
  // Absent from the archives of builds before 2026-12-07: nothing is said of their sub-agents' copies.
  subagentId: text.optional(),
  subagentCopies: z
    .array(
      z.object({
        subagentId: text,
        line: count,
        from: time.default(null),
        to: time.default(null),
        requests: count,
        counts: z.object({ input: count, output: count, cacheRead: count, cacheWrite: count, cacheWrite1h: count, reasoning: count }),
        models: z.array(text),
      }),
    )
    .optional(),
  entryTitles: z.array(z.object({ entryId: text, title: text })),
  // Absent from the archives of earlier builds: such a session keeps the title it had.
  promptTitles: z.array(z.object({ index: count, title: text })).default([]),
  runningTotals: z
    .array(
      z.object({
        time: instant,
        until: instant.nullable(),
        baseline: z.literal(true).optional(),
        models: z.array(z.object({ model: text, counts: z.object({ input: count, output: count, cacheRead: count, cacheWrite: count, cacheWrite1h: count, reasoning: count }), webSearches: count })),
      }),
    )
    .optional(),
  formatVersion: z.number().finite(),
  branches: count,
  lastSeen: time,
  besideEntries: count.optional(),
  damaged: count,
  recoveredEntries: count.optional(),
  // Absent from the archives of builds before 2026-12-06, and of builds that do not redact.
  redactions: z.record(z.string().max(100), count).optional(),
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
