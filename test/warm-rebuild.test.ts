// A rebuild into the same folder keeps the pages of sessions whose files, numbers and links did
// not change, and writes the rest: the folder is the same as a build from scratch would write.

import { appendFile, cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, type BuildOptions } from '../src/build.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';
import { generatePiCorpus } from './support/pi-corpus.js';

async function folder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of await readdir(dir, { recursive: true })) {
    if (!/\.(html|json|jsonl|csv|js)$/.test(name)) continue;
    const text = await readFile(join(dir, name), 'utf8');
    // A session's archive record names what its pages were made from; --no-cache keeps no such record.
    const withoutPrints = () => text.split('\n').map((line) => (line.startsWith('{"name"') ? JSON.stringify({ ...JSON.parse(line), fingerprint: null }) : line)).join('\n');
    // build.json vouches for the records file by its hash: the same once the fingerprints are put
    // aside; and says when the files it keeps were last written, which no two builds share.
    const withoutRecordsHash = () => {
      const record = JSON.parse(text) as { trusted: Record<string, string>; kept?: object; ledgers?: object };
      return JSON.stringify({ ...record, trusted: { ...record.trusted, 'archive/sessions.jsonl': null }, kept: { ...record.kept, latest: null }, ledgers: { ...record.ledgers, latest: null } });
    };
    files.set(name, name === join('archive', 'sessions.jsonl') ? withoutPrints() : name === join('archive', 'build.json') ? withoutRecordsHash() : text);
  }
  return files;
}

describe('a warm rebuild', () => {
  it('writes the same report as a cold build, before and after a session gained a turn', async () => {
    const input = join(await tempDir(), 'in');
    await cp(join(FIXTURES, 'pi'), input, { recursive: true });
    const cacheDir = join(await tempDir(), 'cache');
    const options = (out: string, cache = true): BuildOptions => ({
      inputs: [input],
      out,
      scope: ALL_UTC,
      cache,
      environment: { env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' },
      now: new Date('2026-12-01T00:00:00Z'),
    });
    const warm = join(await tempDir(), 'warm');
    const cold0 = await build(options(warm));
    expect(cold0.sessionsKept).toBe(0);
    const first = await folder(warm);
    const again = await build(options(warm));
    expect(again.sessionsKept).toBe(again.summary.sessions.length);
    expect(await folder(warm)).toEqual(first);

    const path = join(input, 'minimal-v3.jsonl');
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    const last = JSON.parse(lines.at(-1) as string) as { id: string };
    await appendFile(path, `${JSON.stringify({ type: 'message', id: 'more1', parentId: last.id, timestamp: '2026-11-30T12:00:00.000Z', message: { role: 'user', content: 'One more turn' } })}\n`);
    const changed = await build(options(warm));
    // The session that gained a turn is written anew, and so is any whose links changed with it.
    expect(changed.sessionsKept).toBeGreaterThan(changed.summary.sessions.length - 4);
    expect(changed.sessionsKept).toBeLessThan(changed.summary.sessions.length);
    const cold = join(await tempDir(), 'cold');
    await build(options(cold, false));
    const [after, fromScratch] = [await folder(warm), await folder(cold)];
    expect([...after.keys()].sort()).toEqual([...fromScratch.keys()].sort());
    const differ = [...after].filter(([name, text]) => fromScratch.get(name) !== text).map(([name]) => name);
    expect(differ).toEqual([]);
    expect([...after.values()].some((text) => text.includes('One more turn'))).toBe(true);
    // --no-cache writes every page anew.
    expect((await build(options(warm, false))).sessionsKept).toBe(0);
  });

  // Regression: the search index is sized by the report's pages, and a rebuild counted only those
  // it wrote: one session anew left 963 replies of unchanged sessions out of search.
  it('keeps the replies in search that a cold build keeps, however few pages it writes anew', async () => {
    const input = join(await tempDir(), 'in');
    await generatePiCorpus(input, { sessions: 36, seed: 5, turns: [25, 35] });
    const cacheDir = join(await tempDir(), 'cache');
    const options = (out: string, cache = true): BuildOptions => ({ inputs: [input], out, scope: ALL_UTC, cache, environment: { env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z') });
    const warm = join(await tempDir(), 'warm');
    await build(options(warm));
    const leftOut = async (out: string) => (await readFile(join(out, 'search', 'index.js'), 'utf8')).match(/"repliesLeftOut":(\d+)/)?.[1];
    // Sized so that every reply fits the index of the whole report, and not the floor of 200 kB.
    expect(await leftOut(warm)).toBe('0');
    expect((await readdir(join(warm, 'search'))).length).toBeGreaterThan(2);
    const files = (await readdir(input, { recursive: true })).filter((name) => name.endsWith('.jsonl')).sort();
    const v3 = [];
    for (const name of files) if ((await readFile(join(input, name), 'utf8')).startsWith('{"type":"session","version":3')) v3.push(name);
    const path = join(input, v3[0] as string);
    const last = JSON.parse((await readFile(path, 'utf8')).trimEnd().split('\n').at(-1) as string) as { id: string };
    await appendFile(path, `${JSON.stringify({ type: 'message', id: 'more1', parentId: last.id, timestamp: '2026-11-30T12:00:00.000Z', message: { role: 'user', content: 'One more turn' } })}\n`);
    const changed = await build(options(warm));
    expect(changed.sessionsKept).toBeGreaterThan(changed.summary.sessions.length / 2);
    const cold = join(await tempDir(), 'cold');
    await build(options(cold, false));
    const search = async (out: string) => new Map(await Promise.all((await readdir(join(out, 'search'))).map(async (name) => [name, await readFile(join(out, 'search', name), 'utf8')] as const)));
    expect(await search(warm)).toEqual(await search(cold));
    expect(await leftOut(warm)).toBe('0');
  });

  // Regression: a fork's page kept the old bough price of the history it copied after the price table changed.
  it('writes every page showing a price again when the prices change', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    // A fork that adds a prompt and no usage of its own: its numbers do not change with the prices, its copied reply's price does.
    const parent = [
      { type: 'session', version: 3, id: 'p1', timestamp: '2026-10-01T10:00:00.000Z', cwd: '/work/demo' },
      { type: 'message', id: 'u1', parentId: null, timestamp: '2026-10-01T10:00:01.000Z', message: { role: 'user', content: 'Explain main.py' } },
      {
        type: 'message',
        id: 'a1',
        parentId: 'u1',
        timestamp: '2026-10-01T10:00:02.000Z',
        message: { role: 'assistant', content: [{ type: 'text', text: 'It prints hi.' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1000, output: 1000, cacheRead: 0, cacheWrite: 0, totalTokens: 2000 }, stopReason: 'stop' },
      },
    ];
    const fork = [
      { type: 'session', version: 3, id: 'f1', timestamp: '2026-10-01T11:00:00.000Z', cwd: '/work/demo', parentSession: join(input, 'parent.jsonl') },
      ...parent.slice(1),
      { type: 'message', id: 'u2', parentId: 'a1', timestamp: '2026-10-01T11:00:01.000Z', message: { role: 'user', content: 'Now add argparse' } },
    ];
    await writeFile(join(input, 'parent.jsonl'), `${parent.map((l) => JSON.stringify(l)).join('\n')}\n`);
    await writeFile(join(input, 'fork.jsonl'), `${fork.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const table = JSON.parse(await readFile(join(import.meta.dirname, '..', 'data', 'litellm-model-prices.json'), 'utf8')) as Record<string, Record<string, number>>;
    for (const entry of Object.values(table)) if (typeof entry['output_cost_per_token'] === 'number') entry['output_cost_per_token'] *= 10;
    const prices = join(await tempDir(), 'prices.json');
    await writeFile(prices, JSON.stringify(table));
    const cacheDir = join(await tempDir(), 'cache');
    const options = (out: string, pricesFile: string | null, cache = true): BuildOptions => ({
      inputs: [input],
      out,
      scope: ALL_UTC,
      cache,
      pricesFile,
      environment: { env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' },
      now: new Date('2026-12-01T00:00:00Z'),
    });
    const warm = join(await tempDir(), 'warm');
    await build(options(warm, null));
    await build(options(warm, prices));
    const cold = join(await tempDir(), 'cold');
    await build(options(cold, prices, false));
    const [after, fromScratch] = [await folder(warm), await folder(cold)];
    const differ = [...after].filter(([name, text]) => name.startsWith('sessions') && fromScratch.get(name) !== text).map(([name]) => name);
    expect(differ).toEqual([]);
  });
});
