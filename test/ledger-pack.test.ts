// The ledger cache's pack: after a run that wrote enough entries of their own, the next run takes
// every ledger from one file through its index, and a damaged or foreign pack or index only
// makes files be read again, never gives a wrong ledger.

import { appendFile, mkdir, readdir, readFile, realpath, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ALL_TIME } from '../src/ledger/scope.js';
import { stats } from '../src/stats.js';
import { runCompiledBough, requireCompiledBough } from './support/compiled-bough.js';
import { tempDir } from './support/fixtures.js';
import { generatePiCorpus } from './support/pi-corpus.js';

// Every file bough reads goes through here (on this thread: tests run the sources, not the build, so there are no reading threads).
const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/sources/read.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/sources/read.js')>();
  return {
    ...real,
    readSessionFile: (...args: Parameters<typeof real.readSessionFile>) => {
      reads.count++;
      return real.readSessionFile(...args);
    },
  };
});

const SCOPE = { timeZone: 'UTC', period: ALL_TIME, project: null, sources: null };
/** More files than the pack waits for (64) before it takes a run's entries. */
const SESSIONS = 70;

async function setUp(seed = 11) {
  const input = join(await tempDir(), 'in');
  await generatePiCorpus(input, { sessions: SESSIONS, seed, turns: [1, 2] });
  const cacheDir = join(await tempDir(), 'cache');
  return { input, cacheDir, run: (cache = true, inputs = [input]) => runStats(inputs, cacheDir, cache) };
}

/** Stats by session, and how many files it read. */
async function runStats(inputs: string[], cacheDir: string, cache = true) {
  reads.count = 0;
  const result = await stats({ inputs, by: 'session', scope: SCOPE, cache, environment: { env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' } });
  return { json: result.json, reads: reads.count };
}

const ledgers = (cacheDir: string) => join(cacheDir, 'ledgers', 'v7');

async function sessionFiles(input: string): Promise<string[]> {
  return (await readdir(input, { recursive: true })).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(input, f));
}

/** The entries written as files of their own. */
async function ownEntries(cacheDir: string): Promise<string[]> {
  return (await readdir(ledgers(cacheDir), { recursive: true })).filter((f) => f.endsWith('.json'));
}

interface IndexRecord {
  identity: string;
  offset: number;
  length: number;
}

/** The pack the index names and the index's records, as written: a head line, then `identity offset length` lines. */
async function readPack(cacheDir: string): Promise<{ head: string; pack: string; records: IndexRecord[] }> {
  const [head, ...lines] = (await readFile(join(ledgers(cacheDir), 'pack.index'), 'utf8')).trimEnd().split('\n');
  const records = lines.map((line) => {
    const [identity, offset, length] = line.split(' ');
    return { identity: identity as string, offset: Number(offset), length: Number(length) };
  });
  return { head: head as string, pack: join(ledgers(cacheDir), (head as string).split(' ').at(-1) as string), records };
}

/** The files the pack's entries name, by their heads, in the pack's order. */
async function packedSources(cacheDir: string): Promise<string[]> {
  const { pack, records } = await readPack(cacheDir);
  const bytes = await readFile(pack);
  const inPackOrder = [...records].sort((a, b) => a.offset - b.offset);
  return inPackOrder.map((r) => (JSON.parse(bytes.toString('utf8', r.offset, r.offset + r.length).split('\n')[0] as string) as { source: string }).source);
}

const realPaths = async (files: string[]) => Promise.all(files.map((f) => realpath(f)));

async function appendTurn(path: string, text: string): Promise<void> {
  const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1) as string) as { id: string };
  await appendFile(path, `${JSON.stringify({ type: 'message', id: `more${Date.now()}${Math.random()}`, parentId: last.id, timestamp: '2026-11-30T12:00:00.000Z', message: { role: 'user', content: text, timestamp: 1764504000000 } })}\n`);
}

beforeEach(() => {
  reads.count = 0;
});

describe('the ledger cache pack', () => {
  it('takes the entries a run wrote into one pack, and the next run reads no file', async () => {
    const { input, cacheDir, run } = await setUp();
    const truth = await run(false);
    expect(truth.reads).toBe(SESSIONS);
    const cold = await run();
    expect(cold.reads).toBe(SESSIONS);
    // The entries of their own went into the pack.
    expect(await ownEntries(cacheDir)).toEqual([]);
    const { records } = await readPack(cacheDir);
    expect(records).toHaveLength(SESSIONS);
    // In the order the run looked them up (its files' order), which the next run's follows.
    expect(await packedSources(cacheDir)).toEqual(await realPaths(await sessionFiles(input)));
    const warm = await run();
    expect(warm.reads).toBe(0);
    expect(warm.json).toEqual(truth.json);
    expect(cold.json).toEqual(truth.json);
  });

  it('reads a file changed since it was packed, uses its new entry over the pack’s, and packs it when enough changed', async () => {
    const { input, cacheDir, run } = await setUp();
    await run();
    const files = await sessionFiles(input);
    await appendTurn(files[0] as string, 'One more thing');
    const truth = await run(false);
    const changed = await run();
    expect(changed.reads).toBe(1);
    expect(changed.json).toEqual(truth.json);
    // Its new entry is a file of its own (too few to rewrite the pack for), and is used.
    expect(await ownEntries(cacheDir)).toHaveLength(1);
    const again = await run();
    expect(again.reads).toBe(0);
    expect(again.json).toEqual(truth.json);

    // Every file changed: the pack is written again with each file's new entry in place of its old one.
    const before = new Set((await readPack(cacheDir)).records.map((r) => r.identity));
    for (const file of files) await appendTurn(file, 'And another');
    const allTruth = await run(false);
    expect((await run()).reads).toBe(SESSIONS);
    const { records } = await readPack(cacheDir);
    expect(records).toHaveLength(SESSIONS);
    expect(records.filter((r) => before.has(r.identity))).toEqual([]);
    expect(new Set(records.map((r) => r.identity.slice(0, 32))).size).toBe(SESSIONS);
    expect(await ownEntries(cacheDir)).toEqual([]);
    const packed = await run();
    expect(packed.reads).toBe(0);
    expect(packed.json).toEqual(allTruth.json);
    expect(packed.json.totals.prompts).toBeGreaterThan(truth.json.totals.prompts);
  });

  it('reads again the file whose packed entry was damaged, and gives the true numbers', async () => {
    const { cacheDir, run } = await setUp();
    const truth = await run(false);
    await run();
    const { pack, records } = await readPack(cacheDir);
    const bytes = await readFile(pack);
    // A digit in the middle of one entry, and one at the end of another, changed as a bad disk would.
    for (const r of [records[3], records[40]] as IndexRecord[]) {
      const at = r === records[3] ? r.offset + Math.floor(r.length / 2) : r.offset + r.length - 3;
      bytes[at] = bytes[at] === 0x41 ? 0x42 : 0x41;
    }
    await writeFile(pack, bytes);
    const damaged = await run();
    expect(damaged.reads).toBe(2);
    expect(damaged.json).toEqual(truth.json);
    // Their new entries are files of their own, used from then on.
    const next = await run();
    expect(next.reads).toBe(0);
    expect(next.json).toEqual(truth.json);
  });

  it('never gives one file’s ledger for another when the index points wrong', async () => {
    const { cacheDir, run } = await setUp();
    const truth = await run(false);
    await run();
    const index = join(ledgers(cacheDir), 'pack.index');
    const { head, records } = await readPack(cacheDir);
    // Two records' places swapped: each identity now leads to the other file's entry, whole and hashed.
    const line = (r: IndexRecord) => `${r.identity} ${String(r.offset).padStart(12, '0')} ${String(r.length).padStart(10, '0')}`;
    const [a, b] = [records[5] as IndexRecord, records[6] as IndexRecord];
    const swapped = records.map((r) => (r === a ? { ...a, offset: b.offset, length: b.length } : r === b ? { ...b, offset: a.offset, length: a.length } : r));
    await writeFile(index, `${[head, ...swapped.map(line)].join('\n')}\n`);
    const pointedWrong = await run();
    expect(pointedWrong.reads).toBe(2);
    expect(pointedWrong.json).toEqual(truth.json);
  });

  it('reads every file again, and rightly, when the index is damaged, foreign, or names no pack', async () => {
    const { cacheDir, run } = await setUp();
    const truth = await run(false);
    await run();
    const index = join(ledgers(cacheDir), 'pack.index');
    const good = await readFile(index, 'utf8');
    const { head, pack } = await readPack(cacheDir);
    const cases = [
      // Cut short in the middle of a record.
      good.slice(0, good.length - 7),
      // Another format's.
      good.replace(head, head.replace('pack 7 ', 'pack 6 ')),
      // Not an index at all.
      '{"format":7}\n',
      // Naming a pack that is not there.
      good.replace(head, 'bough ledger pack 7 pack-0000000000000000.entries'),
    ];
    for (const text of cases) {
      await writeFile(index, text);
      const result = await run();
      expect(result.reads).toBe(SESSIONS);
      expect(result.json).toEqual(truth.json);
      // That run packed what it read again: put the pack back as it was for the next case.
      await writeFile(index, good);
      await writeFile(join(ledgers(cacheDir), head.split(' ').at(-1) as string), await readFile(pack)).catch(() => {});
    }
    // Another cache's index and pack, whole: their entries are of other files.
    const other = await setUp(12);
    await other.run();
    const theirs = await readPack(other.cacheDir);
    await writeFile(join(ledgers(cacheDir), theirs.pack.split('/').at(-1) as string), await readFile(theirs.pack));
    await writeFile(index, await readFile(join(ledgers(other.cacheDir), 'pack.index')));
    const foreign = await run();
    expect(foreign.reads).toBe(SESSIONS);
    expect(foreign.json).toEqual(truth.json);
  });

  it('keeps the packed entries of files another run read, and forgets those of files that are gone', async () => {
    const first = await setUp(11);
    const second = await setUp(12);
    const cacheDir = first.cacheDir;
    await runStats([first.input], cacheDir);
    await runStats([second.input], cacheDir);
    // Each run rewrote the pack with its own files first, and kept the other's after them.
    expect(await packedSources(cacheDir)).toEqual([...(await realPaths(await sessionFiles(second.input))), ...(await realPaths(await sessionFiles(first.input)))]);
    expect((await runStats([first.input], cacheDir)).reads).toBe(0);
    expect((await runStats([second.input], cacheDir)).reads).toBe(0);

    // A file of the first run's inputs is gone: looked for at most once a day.
    const gone = (await sessionFiles(first.input))[0] as string;
    const goneReal = await realpath(gone);
    await rm(gone);
    await runStats([second.input], cacheDir);
    expect(await packedSources(cacheDir)).toContain(goneReal);
    const dayAgo = (Date.now() - 25 * 60 * 60 * 1000) / 1000;
    await utimes(join(ledgers(cacheDir), '.pruned'), dayAgo, dayAgo);
    await runStats([second.input], cacheDir);
    const sources = await packedSources(cacheDir);
    expect(sources).toHaveLength(2 * SESSIONS - 1);
    expect(sources).not.toContain(goneReal);
    expect((await runStats([first.input], cacheDir)).reads).toBe(0);
    expect((await runStats([second.input], cacheDir)).reads).toBe(0);
  });

  it('gives the true numbers to two runs at once on one cache', async () => {
    const { cacheDir, run } = await setUp();
    const truth = await run(false);
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.json).toEqual(truth.json);
    expect(b.json).toEqual(truth.json);
    expect((await run()).json).toEqual(truth.json);
    expect(await readdir(ledgers(cacheDir))).not.toContain('pack.lock');
  });

  it('reads the pack ahead, and finds every entry when a run goes back and forth through it', async () => {
    // Longer sessions, in enough folders: their entries fill a pack several read-aheads long.
    const input = join(await tempDir(), 'in');
    await generatePiCorpus(input, { sessions: 200, seed: 21, turns: [12, 24] });
    const cacheDir = join(await tempDir(), 'cache');
    const folders = (await readdir(input)).sort().map((folder) => join(input, folder));
    const even = folders.filter((_, i) => i % 2 === 0);
    const odd = folders.filter((_, i) => i % 2 === 1);
    // Packed by a run over every other folder, then by one over the rest (whose entries go first):
    // the pack's order is no longer the files' order.
    await runStats(odd, cacheDir);
    await runStats(even, cacheDir);
    expect(await ownEntries(cacheDir)).toEqual([]);
    expect((await stat((await readPack(cacheDir)).pack)).size).toBeGreaterThan(3 * 256 * 1024);
    const inOrder = await realPaths(await sessionFiles(input));
    expect(await packedSources(cacheDir)).not.toEqual(inOrder);
    expect([...(await packedSources(cacheDir))].sort()).toEqual([...inOrder].sort());
    for (const inputs of [[input], even, odd]) {
      const truth = await runStats(inputs, cacheDir, false);
      const packed = await runStats(inputs, cacheDir);
      expect(packed.reads).toBe(0);
      expect(packed.json).toEqual(truth.json);
    }
  });

  it('leaves the rewrite to a run at it, and takes over a lock a stopped run left', async () => {
    const { cacheDir, run } = await setUp();
    const truth = await run(false);
    // Another run is rewriting the pack: this one leaves its entries as files of their own, and is right.
    await mkdir(ledgers(cacheDir), { recursive: true });
    const lock = join(ledgers(cacheDir), 'pack.lock');
    await writeFile(lock, '');
    const beside = await run();
    expect(beside.json).toEqual(truth.json);
    expect(await ownEntries(cacheDir)).toHaveLength(SESSIONS);
    expect(await readdir(ledgers(cacheDir))).not.toContain('pack.index');
    expect(await readdir(ledgers(cacheDir))).toContain('pack.lock');
    // The same lock, eleven minutes old: the run that took it stopped. The next run takes it over.
    const stale = (Date.now() - 11 * 60 * 1000) / 1000;
    await utimes(lock, stale, stale);
    const after = await run();
    expect(after.reads).toBe(0);
    expect(after.json).toEqual(truth.json);
    expect(await ownEntries(cacheDir)).toEqual([]);
    expect((await readPack(cacheDir)).records).toHaveLength(SESSIONS);
    expect(await readdir(ledgers(cacheDir))).not.toContain('pack.lock');
    expect((await run()).reads).toBe(0);
  });

  it('gives the true numbers to two bough processes at once on one cache, and leaves one whole pack', async () => {
    await requireCompiledBough();
    const { input, cacheDir } = await setUp(13);
    const args = ['stats', input, '--json', '--by', 'session', '--tz', 'UTC'];
    const truth = await runCompiledBough([...args, '--no-cache'], { BOUGH_CACHE_DIR: cacheDir });
    expect(truth.code, truth.stderr).toBe(0);
    // Cold, then warm: both times two at once, each writing and packing what it read.
    for (let round = 0; round < 2; round++) {
      const both = await Promise.all([runCompiledBough(args, { BOUGH_CACHE_DIR: cacheDir }), runCompiledBough(args, { BOUGH_CACHE_DIR: cacheDir })]);
      for (const one of both) {
        expect(one.code, one.stderr).toBe(0);
        expect(JSON.parse(one.stdout)).toEqual(JSON.parse(truth.stdout));
      }
    }
    const third = await runCompiledBough(args, { BOUGH_CACHE_DIR: cacheDir });
    expect(JSON.parse(third.stdout)).toEqual(JSON.parse(truth.stdout));
    const left = await readdir(ledgers(cacheDir));
    expect(left).not.toContain('pack.lock');
    expect(left.filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // Every file has its entry, in the pack or of its own: none lost to the other run's rewrite.
    const { records } = await readPack(cacheDir);
    const places = [...records.map((r) => r.identity.slice(0, 32)), ...(await ownEntries(cacheDir)).map((name) => name.slice(0, 32))];
    expect(new Set(places).size).toBe(SESSIONS);
  }, 60_000);
});
