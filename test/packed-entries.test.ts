// A ledger's entries are held packed (rows of JSON, deflated, in chunks); the cache stores them so
// and reading threads send them so. Unpacked, they are the entries packed; a row out of shape in
// any field, or packed bytes damaged anywhere, make the whole entry unusable (the file is then
// read again).

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkedPackedEntries, entriesFromRows, entriesHold, entriesToRows, packEntries, unpackEntries } from '../src/ledger/packed-entries.js';
import type { CachedOutcome } from '../src/cache/ledger-cache.js';
import { ledgerOf, type LedgerEntry } from '../src/ledger/ledger.js';
import { checkedAndShared } from '../src/reading/read-ledger.js';
import { readSessionFile } from '../src/sources/read.js';
import type { SessionFile } from '../src/types.js';
import { FIXTURES, SHARED_CORPUS } from './support/fixtures.js';
import { existsSync } from 'node:fs';

async function entriesUnder(folder: string): Promise<(readonly LedgerEntry[])[]> {
  const files = (await readdir(folder, { recursive: true })).filter((f) => f.endsWith('.jsonl')).sort();
  const all: (readonly LedgerEntry[])[] = [];
  for (const file of files) {
    const read = await readSessionFile(join(folder, file));
    if (read.kind === 'session') all.push(unpackEntries(ledgerOf(checkedAndShared(read.file, null)).entries));
  }
  return all;
}

/** A file's outcome as bough makes it: its numbers checked (read-ledger.ts) before its ledger is made. */
function sessionOutcome(file: SessionFile): CachedOutcome {
  const checked = checkedAndShared(file, null);
  return { kind: 'session', ledger: ledgerOf(checked), diagnostics: checked.diagnostics };
}

const throughJson = (entries: readonly LedgerEntry[]) => entriesFromRows(JSON.parse(JSON.stringify(entriesToRows(entries))));

/** A time a record may have (2000 to 2099). */
const T0 = Date.UTC(2026, 9, 1);

/** An entry with every field of a row set, none of them a default. */
function fullEntry(n: number): LedgerEntry {
  return {
    key: `a${n}@t`,
    id: `a${n}`,
    aliases: [`a${n}-copy`],
    time: T0 + n,
    turn: 'reply',
    outcome: 'ok',
    usage: [
      {
        key: `a${n}@t#0`,
        time: T0,
        origin: 'reply',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5-relay',
        requestedModel: 'claude-sonnet-4-5',
        modelGuessed: false,
        recordedCostFromProvider: true,
        recordedCost: 0.5,
        outputPartial: true,
        fast: true,
        webSearches: 3,
        responseId: `r${n}`,
        input: 1,
        output: 6,
        cacheRead: 3,
        cacheWrite: 5,
        cacheWrite1h: 4,
        reasoning: 2,
      },
      { key: `billed-${n}`, time: null, origin: 'subagent', provider: null, model: null, modelGuessed: true, recordedCostFromProvider: false, recordedCost: null, outputPartial: false, fast: false, webSearches: 0, responseId: null, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0, largestPrompt: 7, flex: true },
    ],
    calls: [{ name: 'bash', action: 'shell', paths: ['a.txt', 'ü/b.txt'] }, { name: 'edit', action: 'edit', paths: ['c.txt'], failed: true }],
    result: { failed: false, path: 'a.txt', added: 1, removed: 2, commits: [{ landed: true, line: '[main 1234567] m', message: 'm' }] },
  };
}

describe('ledger entries, packed', () => {
  it('unpack as packed, for every fixture, every part of a row exercised', async () => {
    const ledgers = await entriesUnder(FIXTURES);
    expect(ledgers.length).toBeGreaterThan(20);
    const kinds = { usage: 0, calls: 0, results: 0, commits: 0, derivedKeys: 0, ownKeys: 0 };
    for (const entries of ledgers) {
      expect(throughJson(entries)).toEqual(entries);
      expect(unpackEntries(packEntries(entries))).toEqual(entries);
      for (const entry of entries) {
        kinds.usage += entry.usage.length;
        kinds.calls += entry.calls.length;
        kinds.results += entry.result ? 1 : 0;
        kinds.commits += entry.result?.commits.length ?? 0;
        for (const [i, usage] of entry.usage.entries()) {
          if (usage.key === `${entry.key}#${i}`) kinds.derivedKeys++;
          else kinds.ownKeys++;
        }
      }
    }
    for (const [kind, n] of Object.entries(kinds)) expect(n, kind).toBeGreaterThan(0);
  });

  it('unpack as written by hand, every field, counted without unpacking', () => {
    const entries = [fullEntry(1), { ...fullEntry(2), aliases: undefined, result: null, calls: [], turn: 'prompt' as const, outcome: null, key: 'a2' }];
    delete entries[1]?.aliases;
    const packed = packEntries(entries);
    expect(packed.count).toBe(2);
    expect(packed.usageCount).toBe(4);
    expect(unpackEntries(packed)).toEqual(entries);
    expect(unpackEntries(packEntries([]))).toEqual([]);
    // A result showing sub-agent runs carries their tool work, in a tenth field of its own.
    const inner = { calls: [{ name: 'Bash', action: 'shell' as const, paths: [] }], results: [{ failed: true, path: null, added: 0, removed: 0, commits: [] }] };
    const withRuns = [{ ...fullEntry(3), inner }, fullEntry(4)];
    expect(unpackEntries(packEntries(withRuns))).toEqual(withRuns);
    expect(throughJson(withRuns)).toEqual(withRuns);
  });

  it('a session of many thousand entries packs in several chunks and unpacks whole, in order', () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => fullEntry(i));
    const packed = packEntries(entries);
    expect(unpackEntries(packed)).toEqual(entries);
    // Several thousand entries of the same few words: a few bytes each.
    expect(packed.bytes.length).toBeLessThan(entries.length * 40);
  });

  it.skipIf(!existsSync(SHARED_CORPUS))('unpack as packed, for the real sessions of every agent', async () => {
    for (const agent of ['pi', 'claude', 'codex']) {
      for (const entries of await entriesUnder(join(SHARED_CORPUS, agent))) {
        expect(throughJson(entries)).toEqual(entries);
        expect(unpackEntries(packEntries(entries))).toEqual(entries);
      }
    }
  });

  it('carry a reading thread\'s outcome: cloned as a message, a few bytes of its own, it unpacks as the ledger read', async () => {
    const files = (await readdir(FIXTURES, { recursive: true })).filter((f) => f.endsWith('.jsonl')).sort();
    let sessions = 0;
    for (const file of files) {
      const read = await readSessionFile(join(FIXTURES, file));
      const outcome: CachedOutcome = read.kind === 'session' ? sessionOutcome(read.file) : { kind: 'skipped', diagnostics: read.diagnostics };
      const cloned = structuredClone(outcome);
      expect(cloned, file).toEqual(outcome);
      if (outcome.kind !== 'session' || cloned.kind !== 'session') continue;
      sessions++;
      // Its bytes are all of its buffer: sent to another thread, nothing else goes with them.
      expect(outcome.ledger.entries.bytes.byteLength).toBe(outcome.ledger.entries.bytes.buffer.byteLength);
      expect(unpackEntries(cloned.ledger.entries)).toEqual(unpackEntries(outcome.ledger.entries));
    }
    expect(sessions).toBeGreaterThan(20);
  });

  it('packed bytes damaged anywhere, or said of wrongly, are refused whole', () => {
    const entries = Array.from({ length: 5000 }, (_, i) => fullEntry(i));
    const { bytes, ...said } = packEntries(entries);
    expect(said).toEqual({ count: 5000, usageCount: 10_000, subagentResponses: false });
    expect(checkedPackedEntries(said, bytes)).toEqual({ packed: { ...said, bytes }, entries });
    expect(checkedPackedEntries({ ...said, count: said.count + 1 }, bytes)).toBeNull();
    expect(checkedPackedEntries({ ...said, usageCount: said.usageCount - 1 }, bytes)).toBeNull();
    expect(checkedPackedEntries({ ...said, subagentResponses: true }, bytes)).toBeNull();
    expect(checkedPackedEntries(said, bytes.subarray(0, bytes.length - 1))).toBeNull();
    expect(checkedPackedEntries(said, new Uint8Array([...bytes, 0]))).toBeNull();
    expect(checkedPackedEntries({ count: 0, usageCount: 0, subagentResponses: false }, new Uint8Array([1, 0, 0, 0, 0x4b]))).toBeNull();
    for (const at of [0, 3, 4, 10, Math.floor(bytes.length / 2), bytes.length - 2]) {
      const damaged = new Uint8Array(bytes);
      damaged[at] = (damaged[at] as number) ^ 0x5a;
      expect(checkedPackedEntries(said, damaged), `byte ${at}`).toBeNull();
    }
    // Rows that are JSON but out of shape, deflated as this code would.
    const forged = packEntries([fullEntry(1)]);
    const again = packEntries([{ ...fullEntry(1), usage: [{ ...(fullEntry(1).usage[0] as LedgerEntry['usage'][number]), input: -1 }] }]);
    expect(checkedPackedEntries(forged, again.bytes)).toBeNull();
    expect(() => unpackEntries({ ...said, bytes: bytes.subarray(0, 10) })).toThrow(/did not unpack/);
  });

  it('a hold gives the entries the cache checked back without unpacking them again, within its budget, until released', () => {
    const small = packEntries([fullEntry(1), fullEntry(2)]);
    const large = packEntries(Array.from({ length: 50 }, (_, i) => fullEntry(i)));
    const readNow = packEntries([fullEntry(3)]);
    // Room for the small ledger (2 entries, 4 usage records) and not the large one after it.
    const hold = entriesHold(2 * 400 + 4 * 250);
    const smallEntries = unpackEntries(small);
    hold.keep(small, smallEntries);
    hold.keep(large, unpackEntries(large));
    // Held: the same entries on every pass. Not held (no room, or a file read now): unpacked anew each pass, equal.
    expect(hold.unpack(small)).toBe(smallEntries);
    expect(hold.unpack(small)).toBe(smallEntries);
    expect(hold.unpack(large)).not.toBe(hold.unpack(large));
    expect(hold.unpack(large)).toEqual(unpackEntries(large));
    expect(hold.unpack(readNow)).not.toBe(hold.unpack(readNow));
    expect(hold.unpack(readNow)).toEqual([fullEntry(3)]);
    hold.release();
    expect(hold.unpack(small)).not.toBe(smallEntries);
    expect(hold.unpack(small)).toEqual(smallEntries);
    // Nothing is held after a release, whatever room was left.
    hold.keep(readNow, unpackEntries(readNow));
    expect(hold.unpack(readNow)).not.toBe(hold.unpack(readNow));
  });

  it('a short session is kept as its text (no trip through zlib), checked like any other', () => {
    const entries = [fullEntry(1)];
    const packed = packEntries(entries);
    expect(Buffer.from(packed.bytes).includes('"a1@t"')).toBe(true);
    expect(unpackEntries(packed)).toEqual(entries);
    const { bytes, ...said } = packed;
    // Its kind, then its text, damaged.
    for (const [at, value] of [[4, 7], [6, 0x7b], [bytes.length - 1, 0x2c]] as const) {
      const damaged = new Uint8Array(bytes);
      damaged[at] = value;
      expect(checkedPackedEntries(said, damaged), `byte ${at}`).toBeNull();
    }
    // A long one is deflated: its text is not in it.
    expect(Buffer.from(packEntries(Array.from({ length: 100 }, (_, i) => fullEntry(i))).bytes).includes('"a1@t"')).toBe(false);
  });

  it('say whether a sub-agent\'s record of a response is among them (claims then look for replays)', () => {
    const [plain, replay] = [fullEntry(1), fullEntry(2)];
    (replay.usage[1] as LedgerEntry['usage'][number]).responseId = 'r-main';
    expect(packEntries([plain]).subagentResponses).toBe(false);
    expect(packEntries([plain, replay]).subagentResponses).toBe(true);
  });

  it('are refused whole when any field of any row is out of shape', () => {
    const entry = fullEntry(1);
    const rows = entriesToRows([entry]);
    expect(entriesFromRows(rows)).toEqual([entry]);
    const refused = (path: number[], wrong: unknown) => {
      const copy = structuredClone(rows) as unknown[];
      let at = copy;
      for (const step of path.slice(0, -1)) at = at[step] as unknown[];
      at[path.at(-1) as number] = wrong;
      return entriesFromRows(copy) === null;
    };
    // No field of a row holds an object: every leaf replaced by one is refused.
    const leaves: number[][] = [];
    const walk = (value: unknown, path: number[]) => {
      if (Array.isArray(value) && value.length > 0) value.forEach((v, i) => walk(v, [...path, i]));
      else leaves.push(path);
    };
    walk(rows, []);
    expect(leaves.length).toBeGreaterThanOrEqual(30);
    for (const path of leaves) expect(refused(path, {}), path.join('.')).toBe(true);
    // Each kind of field, given a value of its own type but out of its range.
    const usage = (field: number) => [0, 5, 0, field];
    const wrongs: [number[], unknown[]][] = [
      [[0, 1], [7, null]], // id
      [[0, 0], [1, null]], // key: text, or 0 for "its id"
      [[0, 2], ['1', Infinity, 1e300, 1, Date.UTC(2100, 0, 1)]], // time: beyond what a Date holds, or what a record may have
      [[0, 3], ['answer']], // turn
      [[0, 4], ['fine']], // outcome
      [usage(0), [1, null]], // usage key
      [usage(1), [-1e300, 0]], // record time
      [usage(2), ['billing']], // origin
      [usage(5), [256, -1, 1.5]], // flags
      // Recorded cost; and token counts and web searches, past what a reader keeps too (a forged
      // cache entry whose hash was made again summed 10^15 tokens and a cost of -$5).
      [usage(6), ['0.5', -5, 1e300]],
      ...[8, 9, 10, 11, 12, 13, 14].map((field): [number[], unknown[]] => [usage(field), [-1, 1.5, '1', null, 2 ** 60, 1e12]]),
      [[0, 6, 0, 1], ['run']], // tool action
      [[0, 6, 0, 2, 0], [null, 1]], // tool paths
      [[0, 7, 0], [0, 'no']], // failed
      [[0, 7, 2], [-1, 0.5]], // lines added
      [[0, 7, 4, 0, 0], [1]], // landed
      [[0, 8, 0], [null]], // alias
    ];
    for (const [path, values] of wrongs) for (const wrong of values) expect(refused(path, wrong), `${path.join('.')} = ${String(wrong)}`).toBe(true);
    // A part larger than its whole: one-hour writes above the cache writes, reasoning above the output.
    const counts = ((rows[0] as unknown[])[5] as number[][])[0] as number[];
    expect(refused([0, 5, 0, 12], (counts[11] as number) + 1)).toBe(true);
    expect(refused([0, 5, 0, 13], (counts[9] as number) + 1)).toBe(true);
    expect(entriesFromRows('rows')).toBeNull();
    expect(entriesFromRows([[...(rows[0] as unknown[]), 'extra']])).toBeNull();
    expect(entriesFromRows([(rows[0] as unknown[]).slice(0, 8)])).toBeNull();
  });
});
