// `bough stats` reuses what it read from unchanged files, and never trusts a cache it did not
// write: a changed file, a damaged entry or a forged one is read again.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, realpath, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_TIME } from '../src/ledger/scope.js';
import type { LedgerEntry } from '../src/ledger/ledger.js';
import { entriesHold, HOLD_BYTES, packEntries, unpackEntries } from '../src/ledger/packed-entries.js';
import { openLedgerCacheBeside } from '../src/cache/ledger-cache.js';
import { collect } from '../src/reading/collect.js';
import { codeStamp } from '../src/package-files.js';
import { build } from '../src/build.js';
import { stats } from '../src/stats.js';
import { FIXTURES, tempDir } from './support/fixtures.js';
import { generatePiCorpus } from './support/pi-corpus.js';
import { mountedSmallDisk } from './support/small-disk.js';

const SCOPE = { timeZone: 'UTC', period: ALL_TIME, project: null, sources: null };

async function setUp() {
  const input = join(await tempDir(), 'in');
  await cp(join(FIXTURES, 'pi'), input, { recursive: true });
  const cacheDir = join(await tempDir(), 'cache');
  const run = (cache = true) => stats({ inputs: [input], by: 'session', scope: SCOPE, cache, environment: { env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' } });
  return { input, cacheDir, run };
}

async function cacheFiles(dir: string): Promise<string[]> {
  return (await readdir(join(dir, 'ledgers'), { recursive: true })).filter((f) => f.endsWith('.json')).map((f) => join(dir, 'ledgers', f));
}

/** A cache entry as stored: a line naming its file with the hash of the rest, a line of the outcome, then its ledger's entries packed, in base64 (here unpacked). */
interface CacheEntry {
  head: { source: string; sum: string };
  outcome: { kind: string; ledger?: { path: string; entries: { count: number; usageCount: number; subagentResponses: boolean } } };
  entries: LedgerEntry[];
}

async function readEntry(file: string): Promise<CacheEntry> {
  const text = await readFile(file, 'utf8');
  const cut = text.indexOf('\n');
  const split = text.indexOf('\n', cut + 1);
  const outcome = JSON.parse(text.slice(cut + 1, split)) as CacheEntry['outcome'];
  const packed = outcome.ledger ? { ...outcome.ledger.entries, bytes: new Uint8Array(Buffer.from(text.slice(split + 1), 'base64')) } : null;
  return { head: JSON.parse(text.slice(0, cut)) as CacheEntry['head'], outcome, entries: packed ? [...unpackEntries(packed)] : [] };
}

/** Writes an entry back with its entries changed: `sum` true to hash it anew, as bough would have; false to keep the old hash, as damage does. */
async function writeEntry(file: string, entry: CacheEntry, sum: boolean): Promise<void> {
  const packed = packEntries(entry.entries);
  const outcome = entry.outcome.ledger ? { ...entry.outcome, ledger: { ...entry.outcome.ledger, entries: { count: packed.count, usageCount: packed.usageCount, subagentResponses: packed.subagentResponses } } } : entry.outcome;
  const body = `${JSON.stringify(outcome)}\n${entry.outcome.ledger ? Buffer.from(packed.bytes).toString('base64') : ''}`;
  const head = sum ? { ...entry.head, sum: createHash('sha256').update(body).digest('hex') } : entry.head;
  await writeFile(file, `${JSON.stringify(head)}\n${body}`);
}

describe('the ledger cache', () => {
  it('gives the same numbers as reading afresh, and holds one entry per file read', async () => {
    const { input, cacheDir, run } = await setUp();
    const fresh = await run(false);
    const cold = await run();
    const warm = await run();
    expect(cold.json).toEqual(fresh.json);
    expect(warm.json).toEqual(fresh.json);
    const files = (await readdir(input, { recursive: true })).filter((f) => f.endsWith('.jsonl'));
    // Every file, session or not, has its entry: the next run skips the files that are not sessions without reading them.
    expect((await cacheFiles(cacheDir)).length).toBe(files.length);
  });

  it('regression: writes an entry for every file read, when the first writes, at once, make its folder (those racing the first were lost)', async () => {
    const { input, cacheDir } = await setUp();
    const paths = (await readdir(input, { recursive: true })).filter((f) => f.endsWith('.jsonl')).map((f) => join(input, f));
    // Not through `stats` or `build`, whose first look at the cache (writeProblem) makes the folder.
    const cache = await openLedgerCacheBeside([{ path: input, exists: true }], cacheDir, await codeStamp());
    await collect(paths, { keepContent: false, cache });
    expect((await cacheFiles(cacheDir)).length).toBe(paths.length);
  });

  it('hands the entries it unpacked to check them to the passes after: a warm run unpacks each ledger once', async () => {
    const { input, cacheDir, run } = await setUp();
    const paths = (await readdir(input, { recursive: true })).filter((f) => f.endsWith('.jsonl')).map((f) => join(input, f));
    const read = async () => {
      const hold = entriesHold(HOLD_BYTES);
      const cache = await openLedgerCacheBeside([{ path: input, exists: true }], cacheDir, await codeStamp());
      const { ledgers } = await collect(paths, { keepContent: false, cache, hold });
      expect(ledgers.length).toBeGreaterThan(3);
      return ledgers.map((ledger) => ({ ledger, held: hold.unpack(ledger.entries) === hold.unpack(ledger.entries) }));
    };
    // Read now (the cache empty): nothing held, each pass unpacks. From the cache: every ledger held, as read.
    expect((await read()).some(({ held }) => held)).toBe(false);
    const warm = await read();
    expect(warm.every(({ held }) => held)).toBe(true);
    for (const { ledger } of warm) expect(unpackEntries(ledger.entries)).toEqual(unpackEntries(ledger.entries));
    expect((await run()).json).toEqual((await run(false)).json);
  });

  it('reads a file again when it gained a line, and keeps only its latest entry', async () => {
    const { input, cacheDir, run } = await setUp();
    const before = await run();
    const entries = (await cacheFiles(cacheDir)).length;
    const path = join(input, 'minimal-v3.jsonl');
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    const last = JSON.parse(lines.at(-1) as string) as { id: string };
    const added = { type: 'message', id: 'added1', parentId: last.id, timestamp: '2026-11-30T12:00:00.000Z', message: { role: 'user', content: 'One more thing', timestamp: 1764504000000 } };
    await writeFile(path, `${lines.join('\n')}\n${JSON.stringify(added)}\n`);
    const after = await run();
    expect(after.json.totals.prompts).toBe(before.json.totals.prompts + 1);
    // A session appended to at every run (the one bough runs in) leaves one entry, not one per run.
    expect((await cacheFiles(cacheDir)).length).toBe(entries);
  });

  it('ignores damaged and forged entries, and writes them anew', async () => {
    const { cacheDir, run } = await setUp();
    const truth = await run(false);
    await run();
    const entries = await cacheFiles(cacheDir);
    for (const [i, file] of entries.entries()) {
      const cached = await readEntry(file);
      if (i % 3 === 0) await writeFile(file, '{"format":1,"identity":');
      else if (i % 3 === 1) await writeFile(file, JSON.stringify({ format: 99, something: 'else' }));
      else if (cached.outcome.ledger) {
        // A forged count no reader could have written, hashed anew: refused by shape, the file read again.
        for (const entry of cached.entries) for (const usage of entry.usage) usage.input = -1_000_000;
        await writeEntry(file, cached, true);
      }
    }
    expect((await run()).json).toEqual(truth.json);
    expect((await run()).json).toEqual(truth.json);
  });

  /** Adds one to every usage record's input count in the entry of minimal-v3.jsonl (one plain session, every record of it counted); returns how many. */
  async function forgeInputCounts(cacheDir: string, sum: boolean): Promise<number> {
    let forged = 0;
    for (const file of await cacheFiles(cacheDir)) {
      const cached = await readEntry(file);
      if (!cached.outcome.ledger?.path.endsWith('minimal-v3.jsonl')) continue;
      for (const entry of cached.entries) {
        for (const usage of entry.usage) {
          usage.input++;
          forged++;
        }
      }
      await writeEntry(file, cached, sum);
    }
    return forged;
  }

  it('regression: an entry whose counts changed after it was written (a bad disk, a hand) is read again, though every count is plausible', async () => {
    const { cacheDir, run } = await setUp();
    const truth = await run(false);
    await run();
    expect(await forgeInputCounts(cacheDir, false)).toBeGreaterThan(0);
    expect((await run()).json).toEqual(truth.json);
    // Written anew: the next run finds it whole.
    expect((await run()).json).toEqual(truth.json);
  });

  it('takes a changed count as written when the entry is hashed anew, so the test above can fail', async () => {
    // The same change, in an entry whose hash agrees: proves the changed field is the one counted.
    const { cacheDir, run } = await setUp();
    const truth = await run(false);
    await run();
    const forged = await forgeInputCounts(cacheDir, true);
    expect(forged).toBeGreaterThan(0);
    expect((await run()).json.totals.tokens.input).toBe(truth.json.totals.tokens.input + forged);
  });

  it('forgets the entries of files that are gone, at most once a day, and keeps those of files it was not asked about', async () => {
    const { input, cacheDir, run } = await setUp();
    const elsewhere = join(await tempDir(), 'elsewhere');
    await mkdir(elsewhere);
    await cp(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), join(elsewhere, 'other.jsonl'));
    await stats({ inputs: [elsewhere], by: 'session', scope: SCOPE, environment: { env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' } });
    const truth = await run();
    const all = (await cacheFiles(cacheDir)).length;
    await rm(join(input, 'minimal-v3.jsonl'));
    const marker = join(cacheDir, 'ledgers', 'v7', '.pruned');
    // Looked for today already: nothing goes yet.
    expect((await run()).json.totals.prompts).toBeLessThan(truth.json.totals.prompts);
    expect((await cacheFiles(cacheDir)).length).toBe(all);
    const dayAgo = (Date.now() - 25 * 60 * 60 * 1000) / 1000;
    await utimes(marker, dayAgo, dayAgo);
    await run();
    const left = await cacheFiles(cacheDir);
    expect(left.length).toBe(all - 1);
    // The file of another run's inputs, still there, keeps its entry.
    const sources = await Promise.all(left.map(async (file) => (await readEntry(file)).head.source));
    expect(sources).toContain(await realpath(join(elsewhere, 'other.jsonl')));
    expect(sources.some((source) => source.endsWith('minimal-v3.jsonl'))).toBe(false);
  });

  it('removes the folders of older cache formats when it writes, and leaves newer ones', async () => {
    const { cacheDir, run } = await setUp();
    await mkdir(join(cacheDir, 'ledgers', 'v1', 'ab'), { recursive: true });
    await writeFile(join(cacheDir, 'ledgers', 'v1', 'ab', 'old.json'), '{}');
    await mkdir(join(cacheDir, 'ledgers', 'v999'), { recursive: true });
    await run();
    expect((await readdir(join(cacheDir, 'ledgers'))).sort()).toEqual(['v7', 'v999']);
  });

  it('is used when the path, size, time and both ends of a file are unchanged (an edit in the middle that keeps them is not seen)', async () => {
    const input = join(await tempDir(), 'big');
    await generatePiCorpus(input, { sessions: 1, seed: 4, turns: [60, 60], payloadBytes: 4000, siblingCopiesOfMissingOrigins: false });
    const [name] = (await readdir(input, { recursive: true })).filter((f) => f.endsWith('.jsonl'));
    const path = join(input, name as string);
    const cacheDir = join(await tempDir(), 'cache');
    const run = () => stats({ inputs: [input], by: 'session', scope: SCOPE, environment: { env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' } });
    const first = await run();
    const info = await stat(path);
    expect(info.size).toBeGreaterThan(300_000);
    // Same length, same ends, same time: the middle's first prompt reworded in place.
    const text = await readFile(path, 'utf8');
    const middle = text.indexOf('"role":"user"', Math.floor(text.length / 2));
    await writeFile(path, `${text.slice(0, middle)}"role":"xxxx"${text.slice(middle + 13)}`);
    await utimes(path, info.atime, info.mtime);
    expect((await run()).json).toEqual(first.json);
  });
});

describe('what the cache takes a file to be (from an outside review)', () => {
  const environment = (cacheDir: string) => ({ env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' });

  // Regression: found by real path, the entry of one path named its file and project by the other.
  it('gives a file linked under two names the path and project of the name it is read under', async () => {
    const root = await tempDir();
    const real = join(root, 'real', 'x');
    await mkdir(real, { recursive: true });
    await cp(join(FIXTURES, 'claude', 'projects', '-home-ana-shop', '11111111-1111-4111-8111-111111111111.jsonl'), join(real, '11111111-1111-4111-8111-111111111111.jsonl'));
    for (const [name, folder] of [['a', '-home-ana-shop'], ['b', '-home-bob-web']] as const) {
      await mkdir(join(root, name, 'projects'), { recursive: true });
      await symlink(real, join(root, name, 'projects', folder));
    }
    const cacheDir = join(root, 'cache');
    const keys = async (name: string, cache: boolean) =>
      (await stats({ inputs: [join(root, name)], by: 'session', scope: SCOPE, cache, environment: environment(cacheDir) })).json.rows.map((row) => row.key);
    await keys('a', true);
    const fromCache = await keys('b', true);
    expect(fromCache).toEqual(await keys('b', false));
    expect(fromCache[0]).toContain(join(root, 'b', 'projects', '-home-bob-web'));
    // Each name has its entry (a hostile look: one entry for both, so reading them by turns read every file every time).
    expect(await cacheFiles(cacheDir)).toHaveLength(2);
  });

  // Regression (a hostile look): a session_index.jsonl linked to /dev/zero was read for ever, by
  // every run once the index was part of a file's identity.
  it('reads no Codex index that is not a plain file', async (context) => {
    if (process.platform === 'win32') context.skip();
    const root = await tempDir();
    await cp(join(FIXTURES, 'codex', 'home'), join(root, 'codex'), { recursive: true });
    await rm(join(root, 'codex', 'session_index.jsonl'));
    await symlink('/dev/zero', join(root, 'codex', 'session_index.jsonl'));
    const result = await stats({ inputs: [join(root, 'codex')], by: 'session', scope: SCOPE, environment: environment(join(root, 'cache')) });
    expect(result.json.totals.sessions).toBeGreaterThan(0);
  });

  // Regression: a thread renamed, or a sub-agent's sidecar written, after its file's last line was
  // never seen by a cached run: its title and label stayed what the first run read.
  it('reads a file again when what its reading takes from beside it changed: a Codex thread’s name, a sub-agent’s sidecar', async () => {
    const root = await tempDir();
    await cp(join(FIXTURES, 'codex', 'home'), join(root, 'codex'), { recursive: true });
    await cp(join(FIXTURES, 'claude', 'projects'), join(root, 'claude', 'projects'), { recursive: true });
    const cacheDir = join(root, 'cache');
    const now = new Date('2026-12-01T00:00:00Z');
    const run = async (n: number) => (await build({ inputs: [join(root, 'codex'), join(root, 'claude')], out: join(root, `out${n}`), scope: SCOPE, environment: environment(cacheDir), now })).summary;
    const first = await run(1);
    expect(first.sessions.map((s) => s.title)).toContain('Fix the failing test');
    await writeFile(join(root, 'codex', 'session_index.jsonl'), '{"id":"0195aaaa-0000-7000-8000-000000000001","thread_name":"Payments refactor","updated_at":"2026-03-02T12:00:00Z"}\n', { flag: 'a' });
    const sidecar = join(root, 'claude', 'projects', '-home-ana-shop', '11111111-1111-4111-8111-111111111111', 'subagents', 'agent-a9f8e7d6c5.meta.json');
    await writeFile(sidecar, '{"agentType": "Explore", "description": "Audit the payments webhook"}');
    const second = await run(2);
    const titles = second.sessions.map((s) => s.title);
    expect(titles).toContain('Payments refactor');
    expect(titles).not.toContain('Fix the failing test');
    expect(second.sessions.flatMap((s) => s.subagentFiles.map((f) => f.label))).toContain('Audit the payments webhook');
  });

  // Regression (an outside review of rebuilds): a rollout whose name does not end in its thread's
  // id (older names), or a sub-agent's file renamed in its subagents/ folder, kept the title and
  // label its first reading took, where a build without the cache showed the new ones.
  it('reads such a file again when it is named otherwise', async () => {
    const root = await tempDir();
    await cp(join(FIXTURES, 'codex', 'home'), join(root, 'codex'), { recursive: true });
    await cp(join(FIXTURES, 'claude', 'projects'), join(root, 'claude', 'projects'), { recursive: true });
    const day = join(root, 'codex', 'sessions', '2026', '03', '02');
    await rm(join(root, 'codex', 'archived_sessions'), { recursive: true });
    await rename(join(day, 'rollout-2026-03-02T11-00-00-0195aaaa-0000-7000-8000-000000000001.jsonl'), join(day, 'rollout-2026-03-02T11-00-00.jsonl'));
    const subagents = join(root, 'claude', 'projects', '-home-ana-shop', '11111111-1111-4111-8111-111111111111', 'subagents');
    await rename(join(subagents, 'agent-a9f8e7d6c5.jsonl'), join(subagents, 'side-task.jsonl'));
    await rm(join(subagents, 'agent-a9f8e7d6c5.meta.json'));
    const cacheDir = join(root, 'cache');
    const now = new Date('2026-12-01T00:00:00Z');
    const run = async (n: number, cache = true) => (await build({ inputs: [join(root, 'codex'), join(root, 'claude')], out: join(root, `out${n}`), scope: SCOPE, environment: environment(cacheDir), now, cache })).summary;
    await run(1);
    await writeFile(join(root, 'codex', 'session_index.jsonl'), '{"id":"0195aaaa-0000-7000-8000-000000000001","thread_name":"Payments refactor","updated_at":"2026-03-02T12:00:00Z"}\n', { flag: 'a' });
    await writeFile(join(subagents, 'side-task.meta.json'), '{"agentType": "Explore", "description": "Audit the payments webhook"}');
    const second = await run(2);
    const cold = await run(3, false);
    expect(second.sessions.map((s) => s.title)).toContain('Payments refactor');
    expect(second.sessions.flatMap((s) => s.subagentFiles.map((f) => f.label))).toContain('Audit the payments webhook');
    expect(second.sessions).toEqual(cold.sessions);
  });

  // Regression: an entry file replaced by a named pipe kept a run waiting for a writer for ever, past Ctrl-C.
  it('reads past a cache entry that is not a plain file', async (context) => {
    if (process.platform === 'win32') context.skip();
    const { cacheDir, run } = await setUp();
    const truth = await run(false);
    await run();
    const [entry] = await cacheFiles(cacheDir);
    await rm(entry as string);
    execFileSync('mkfifo', [entry as string]);
    expect((await run()).json).toEqual(truth.json);
  });
});

describe('where the cache lives', () => {
  const statsWith = async (env: Record<string, string>, home: string) => {
    const { input } = await setUp();
    return stats({ inputs: [input], by: 'session', scope: SCOPE, environment: { env, home } });
  };

  it('is $XDG_CACHE_HOME/bough when that is an absolute path', async () => {
    const home = await tempDir();
    const xdg = join(await tempDir(), 'xdg');
    await statsWith({ XDG_CACHE_HOME: xdg }, home);
    expect(await cacheFiles(join(xdg, 'bough'))).not.toHaveLength(0);
    await expect(stat(join(home, '.cache'))).rejects.toThrow();
  });

  // Regression: a cache on a disk that filled said nothing and left a temporary file per session
  // file behind; one on a read-only file system was said to have "vanished while being read".
  it('on a full disk, or a read-only one, is said so, and leaves no temporary files', async (context) => {
    const full = await tempDir();
    const small = mountedSmallDisk(full, 'size=48k');
    if (small === null) return context.skip('cannot mount a small file system here');
    try {
      const first = await statsWith({ BOUGH_CACHE_DIR: full }, '/nonexistent');
      const second = await statsWith({ BOUGH_CACHE_DIR: full }, '/nonexistent');
      for (const result of [first, second]) expect(result.warnings).toEqual([`the cache folder ${full} cannot be written (the disk is full), so every run reads again every file it does not hold. Set BOUGH_CACHE_DIR to a folder bough may write, or pass --no-cache.`]);
      expect((await readdir(full, { recursive: true })).filter((name) => name.endsWith('.tmp') || name.includes('.probe-'))).toEqual([]);
    } finally {
      small.unmount();
    }
    const readOnly = await tempDir();
    const ro = mountedSmallDisk(readOnly, 'ro,size=48k');
    if (ro === null) return context.skip('cannot mount a read-only file system here');
    try {
      const result = await statsWith({ BOUGH_CACHE_DIR: join(readOnly, 'cache') }, '/nonexistent');
      expect(result.warnings).toEqual([`the cache folder ${join(readOnly, 'cache')} cannot be written (a read-only file system), so every run reads again every file it does not hold. Set BOUGH_CACHE_DIR to a folder bough may write, or pass --no-cache.`]);
    } finally {
      ro.unmount();
    }
  });

  // Regression: a BOUGH_CACHE_DIR set inside a folder of sessions had bough write its cache there.
  it('is not used when it is inside an input, which bough never writes into, and says so', async () => {
    const { input } = await setUp();
    const before = (await readdir(input, { recursive: true })).sort();
    const cacheDir = join(input, 'nested', 'cache');
    const result = await stats({ inputs: [input], by: 'session', scope: SCOPE, environment: { env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' } });
    expect((await readdir(input, { recursive: true })).sort()).toEqual(before);
    expect(result.warnings).toEqual([`the cache folder ${cacheDir} is inside the input ${input}, and bough never writes into what it reads, so this run reads every file without a cache. Set BOUGH_CACHE_DIR to a folder outside your inputs.`]);
    const uncached = await stats({ inputs: [input], by: 'session', scope: SCOPE, cache: false, environment: { env: {}, home: '/nonexistent' } });
    expect(result.json).toEqual(uncached.json);
  });

  // Regression: sessions kept in a folder where the cache tidies away an older format's entries
  // (`<cache>/ledgers/v6`, or `<cache>/ledgers` a link to a folder of sessions) were read, then removed.
  it('is not used when an input is inside the folder of its entries, whose tidying would remove it, and says so', async () => {
    const home = { home: '/nonexistent' };
    const cacheDir = join(await tempDir(), 'cache');
    const older = join(cacheDir, 'ledgers', 'v1');
    await cp(join(FIXTURES, 'pi'), older, { recursive: true });
    const before = (await readdir(older, { recursive: true })).sort();
    const result = await stats({ inputs: [older], by: 'session', scope: SCOPE, environment: { env: { BOUGH_CACHE_DIR: cacheDir }, ...home } });
    expect((await readdir(older, { recursive: true })).sort()).toEqual(before);
    expect(await readdir(join(cacheDir, 'ledgers'))).toEqual(['v1']);
    expect(result.warnings).toEqual([`the cache folder ${cacheDir} holds the input ${older}, and bough never writes into what it reads, nor removes anything of it, so this run reads every file without a cache. Set BOUGH_CACHE_DIR to a folder apart from your inputs.`]);

    const sessions = join(await tempDir(), 'sessions');
    await cp(join(FIXTURES, 'pi'), join(sessions, 'v2'), { recursive: true });
    const linked = join(await tempDir(), 'cache');
    await mkdir(linked);
    await symlink(sessions, join(linked, 'ledgers'));
    const listed = (await readdir(sessions, { recursive: true })).sort();
    const second = await stats({ inputs: [sessions], by: 'session', scope: SCOPE, environment: { env: { BOUGH_CACHE_DIR: linked }, ...home } });
    expect((await readdir(sessions, { recursive: true })).sort()).toEqual(listed);
    expect(second.warnings).toHaveLength(1);
    expect(second.json).toEqual((await stats({ inputs: [sessions], by: 'session', scope: SCOPE, cache: false, environment: { env: {}, ...home } })).json);
    // Regression (a hostile look at the cache): its entries' folder a link to any folder of the
    // user's (an input's, or not): its files were written over, and pruning removed the user's own.
    const notes = join(await tempDir(), 'notes');
    await mkdir(notes);
    await writeFile(join(notes, '0123456789abcdef0123456789abcdef.json'), '{"mine":true}');
    const third = join(await tempDir(), 'cache');
    await mkdir(join(third, 'ledgers'), { recursive: true });
    await symlink(notes, join(third, 'ledgers', 'v7'));
    const withLink = await stats({ inputs: [sessions], by: 'session', scope: SCOPE, environment: { env: { BOUGH_CACHE_DIR: third }, ...home } });
    expect(await readdir(notes)).toEqual(['0123456789abcdef0123456789abcdef.json']);
    expect(withLink.warnings).toEqual([`${join(third, 'ledgers', 'v7')} in the cache folder is a link, where bough makes a folder of its own: bough writes and removes files only in folders it made, so this run reads every file without a cache. Remove the link, or set BOUGH_CACHE_DIR to another folder.`]);
    expect(withLink.json).toEqual(second.json);
  });

  // Regression: a BOUGH_CACHE_DIR inside the report folder put the cache, every session's ledger
  // with it, into the folder people zip and send.
  it('is not used when it is inside the report folder, or holds it, and says so', async () => {
    const { input } = await setUp();
    const environment = (cacheDir: string) => ({ env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' });
    const now = new Date('2026-12-01T00:00:00Z');
    const out = join(await tempDir(), 'report');
    const inside = join(out, 'cache');
    const first = await build({ inputs: [input], out, scope: SCOPE, environment: environment(inside), now });
    expect(first.warnings).toContain(`the cache folder ${inside} is inside the report folder ${out}, which would hand what the cache holds of every session to whoever gets the report, so this run reads every file without a cache. Set BOUGH_CACHE_DIR to a folder outside the report.`);
    await expect(stat(inside)).rejects.toThrow();
    const holding = await tempDir();
    const nested = join(holding, 'reports', 'this');
    const second = await build({ inputs: [input], out: nested, scope: SCOPE, environment: environment(holding), now });
    expect(second.warnings).toContain(`the report folder ${nested} is inside the cache folder ${holding}, so this run reads every file without a cache, which keeps its files away from the report's. Set BOUGH_CACHE_DIR, or --out, so that neither holds the other.`);
    expect((await readdir(holding)).sort()).toEqual(['reports']);
    expect(second.summary.totals).toEqual(first.summary.totals);
  });

  // Regression: a relative $XDG_CACHE_HOME put a cache folder wherever bough was run from.
  it('is ~/.cache/bough when $XDG_CACHE_HOME is relative, which the XDG spec says to ignore', async () => {
    const home = await tempDir();
    const relative = `bough-test-relative-cache-${process.pid}`;
    try {
      await statsWith({ XDG_CACHE_HOME: relative }, home);
      expect(await cacheFiles(join(home, '.cache', 'bough'))).not.toHaveLength(0);
      await expect(stat(relative)).rejects.toThrow();
    } finally {
      await rm(relative, { recursive: true, force: true });
    }
  });
});
