// A rebuild whose inputs are all as the last build found them keeps that build's files as they
// are and writes only when it was built; any change to the files, the options or the folder
// itself means a full build, whose report is the same as one written from scratch.

import { appendFile, cp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, type BuildOptions } from '../src/build.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';

async function inodes(dir: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const name of await readdir(dir, { recursive: true })) {
    const info = await stat(join(dir, name));
    if (info.isFile()) found.set(name, info.ino);
  }
  return found;
}

async function setUp() {
  const input = join(await tempDir(), 'in');
  await cp(join(FIXTURES, 'pi'), input, { recursive: true });
  const out = join(await tempDir(), 'report');
  const cacheDir = join(await tempDir(), 'cache');
  const options = (day: number, more: Partial<BuildOptions> = {}): BuildOptions => ({
    inputs: [input],
    out,
    scope: ALL_UTC,
    environment: { env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' },
    now: new Date(Date.UTC(2026, 11, day, 9, 30)),
    ...more,
  });
  return { input, out, options };
}

describe('a rebuild with nothing changed', () => {
  it('keeps every file of the last build and says when it was built', async () => {
    const { out, options } = await setUp();
    const first = await build(options(1));
    const before = await inodes(out);
    const index = await readFile(join(out, 'index.html'), 'utf8');
    const again = await build(options(2));
    expect(again.sessionsKept).toBe(first.summary.sessions.length);
    expect(again.summary).toEqual(first.summary);
    const after = await inodes(out);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    const rewritten = ['index.html', join('archive', 'seen.json'), join('archive', 'build.json'), '.bough-manifest.json'];
    for (const [name, inode] of before) if (!rewritten.includes(name)) expect(after.get(name), name).toBe(inode);
    const newIndex = await readFile(join(out, 'index.html'), 'utf8');
    expect(newIndex).toContain('Generated 2026-12-02 09:30');
    expect(newIndex.replace('2026-12-02', '2026-12-01')).toBe(index);
  });

  // Regression (an outside review): a rebuild that kept the report as it was said nothing of a file
  // cut short or no longer read, which the build before it warned of, while both still held.
  it('warns again of session files cut short or no longer read, as the build it keeps did', async () => {
    const { input, options } = await setUp();
    await build(options(1));
    const lines = (await readFile(join(input, 'tools.jsonl'), 'utf8')).split('\n');
    await writeFile(join(input, 'tools.jsonl'), `${lines.slice(0, 3).join('\n')}\n`);
    await writeFile(join(input, 'errors.jsonl'), '');
    const warned = await build(options(2));
    const said = warned.warnings.filter((w) => w.includes('holds less than when') || w.includes('no longer reads as the session'));
    expect(said).toHaveLength(2);
    const again = await build(options(3));
    expect(again.sessionsKept).toBe(again.summary.sessions.length);
    expect(again.warnings).toEqual(expect.arrayContaining(said));
    // Regression (a hostile look at that fix): moved, the folder was named where it had been.
    const { out } = options(4);
    const moved = `${out}-moved`;
    await rename(out, moved);
    const there = await build(options(4, { out: moved }));
    expect(there.sessionsKept).toBe(there.summary.sessions.length);
    expect(there.warnings).toEqual(expect.arrayContaining(said.map((w) => w.replace(out, moved))));
  });

  // Regression (a hostile look): usage.csv saved by a spreadsheet (a row lost, numbers written
  // otherwise), or the index's totals edited, was kept as the report by every rebuild that found
  // nothing else changed, against summary.json; --no-cache wrote it again.
  it('writes usage.csv and the overview pages again when they were changed since, the index after a rebuild too', async () => {
    const { out, options } = await setUp();
    await build(options(1));
    const csv = await readFile(join(out, 'usage.csv'), 'utf8');
    const rows = csv.trimEnd().split('\n');
    await writeFile(join(out, 'usage.csv'), `${rows.slice(0, -1).join('\n')}\n`);
    await build(options(2));
    expect(await readFile(join(out, 'usage.csv'), 'utf8')).toBe(csv);
    // Kept whole after, twice (the index the first of them wrote vouched for), and an edit after found.
    await build(options(3));
    const summaryFile = (await stat(join(out, 'summary.json'))).ino;
    await build(options(4));
    expect((await stat(join(out, 'summary.json'))).ino).toBe(summaryFile);
    const index = await readFile(join(out, 'index.html'), 'utf8');
    await writeFile(join(out, 'index.html'), index.replace('<h1', '<h1 data-edited'));
    await build(options(5));
    expect(await readFile(join(out, 'index.html'), 'utf8')).not.toContain('data-edited');
  });

  // Regression (a hostile look): a session page, an asset or a search file cut short was kept by
  // every rebuild that found nothing else changed ("every page kept"), and a page so became the
  // archive's only copy of the conversation once its file went.
  it('writes again a page, an asset or a search file of another size than it wrote', async () => {
    const { out, options } = await setUp();
    const first = await build(options(1));
    const page = join(out, first.summary.sessions[0]?.page as string);
    const asset = join(out, 'assets', (await readdir(join(out, 'assets')))[0] as string);
    const shard = join(out, 'search', (await readdir(join(out, 'search')))[0] as string);
    const whole = await Promise.all([page, asset, shard].map((file) => readFile(file)));
    for (const [i, file] of [page, asset, shard].entries()) await writeFile(file, (whole[i] as Buffer).subarray(0, 100));
    await build(options(2));
    for (const [i, file] of [page, asset, shard].entries()) expect(await readFile(file), file).toEqual(whole[i]);
  });

  // Regression (a hostile look at the cache): a session page with a digit edited in place, its size
  // the same ($0.6982 → $7.6982), was kept by every later build, a full one too, without a word.
  it('writes again a page changed in place at the same size, with nothing changed and in a full build', async () => {
    const { input, out, options } = await setUp();
    const first = await build(options(1));
    const [one, other] = first.summary.sessions;
    const page = join(out, one?.page as string);
    const whole = await readFile(page, 'utf8');
    const firstAmount = (html: string) => /\$\d[\d,.]*/.exec(html)?.[0];
    const amount = firstAmount(whole) as string;
    const edit = async () => {
      const at = whole.indexOf(amount);
      await writeFile(page, `${whole.slice(0, at + 1)}${amount[1] === '7' ? '8' : '7'}${whole.slice(at + 2)}`);
      expect((await stat(page)).size).toBe(Buffer.byteLength(whole));
      expect(firstAmount(await readFile(page, 'utf8'))).not.toBe(amount);
    };
    await edit();
    await build(options(2));
    expect(firstAmount(await readFile(page, 'utf8'))).toBe(amount);
    // In a full build too: another session's file gained a line.
    await edit();
    const file = join(input, (other?.file as string).split('/').at(-1) as string);
    await appendFile(file, `${JSON.stringify({ type: 'label', id: 'zz-label', parentId: null, timestamp: '2026-11-02T10:00:00.000Z', targetId: 'x', label: 'later' })}\n`);
    const full = await build(options(3));
    expect(full.sessionsKept).toBeGreaterThan(0);
    expect(firstAmount(await readFile(page, 'utf8'))).toBe(amount);
  });

  // Regression: a page the last build could not write (a file of the user's in its place) stayed
  // unwritten once the user moved theirs away: "every page kept", and the index linked to nothing.
  it('writes a page a file of the user’s kept it from writing, once that file is gone', async () => {
    const { out, options } = await setUp();
    const probe = await build(options(1, { out: join(await tempDir(), 'probe') }));
    const session = probe.summary.sessions[0];
    const page = session?.page ?? '';
    const aside = join(await tempDir(), 'aside.jsonl');
    await rename(session?.file ?? '', aside);
    await build(options(1));
    await rename(aside, session?.file ?? '');
    await writeFile(join(out, page), 'mine');
    await build(options(2));
    expect(await readFile(join(out, page), 'utf8')).toBe('mine');
    await rm(join(out, page));
    await build(options(3));
    expect(await readFile(join(out, page), 'utf8')).toContain('<!doctype html>');
  });

  it('is a full build when a file, an option or the report folder changed', async () => {
    const { input, out, options } = await setUp();
    await build(options(1));
    const kept = async (more: Partial<BuildOptions> = {}) => {
      const before = await inodes(out);
      await build(options(3, more));
      const after = await inodes(out);
      return [...before].filter(([name, inode]) => name.endsWith('.html') && name !== 'index.html' && after.get(name) === inode).length;
    };
    expect(await kept()).toBeGreaterThan(0);
    // Touched: its identity changes, its session's pages are written anew (the others kept one by one).
    const file = join(input, 'minimal-v3.jsonl');
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    const untouched = await kept();
    expect(untouched).toBeGreaterThan(0);
    // Another time zone changes every page.
    expect(await kept({ scope: { ...ALL_UTC, timeZone: 'Asia/Tokyo' } })).toBe(0);
    await build(options(3));
    // An index edited since (its line about when it was built gone): written anew, pages kept page by page.
    await writeFile(join(out, 'index.html'), '<p>edited</p>');
    await build(options(4));
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('Generated 2026-12-04');
  });

  it('regression: trusted an edited summary.json and a damaged or restored archive; now any of them means a full build', async () => {
    const { input, out, options } = await setUp();
    const first = await build(options(1));
    await rm(join(input, 'tools.jsonl'));
    await build(options(2));
    expect((await build(options(3))).summary.totals).toEqual(first.summary.totals);
    // summary.json edited: its numbers are not the run's.
    const edited = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { totals: { sessions: number } };
    edited.totals.sessions = 77;
    await writeFile(join(out, 'summary.json'), JSON.stringify(edited));
    expect((await build(options(4))).summary.totals).toEqual(first.summary.totals);
    // The gone session's archived ledger damaged, nothing else changed: said at once.
    const archive = join(out, 'archive');
    const ledgers = (await readdir(archive)).filter((n) => n.endsWith('.ledger.json.gz'));
    const backup = new Map(await Promise.all(ledgers.map(async (n) => [n, await readFile(join(archive, n))] as const)));
    for (const name of ledgers) await writeFile(join(archive, name), 'damaged');
    const damaged = await build(options(5));
    expect(damaged.summary.diagnostics.byReason['archive-unreadable']).toBe(1);
    expect(damaged.summary.totals.sessions).toBe(first.summary.totals.sessions - 1);
    // Put back from the backup, as the warning says: counted again, though no input changed.
    for (const [name, content] of backup) await writeFile(join(archive, name), content);
    const restored = await build(options(6));
    expect(restored.summary.totals).toEqual(first.summary.totals);
    expect(restored.summary.diagnostics.byReason['archive-unreadable']).toBeUndefined();
  });

  it('regression: rewrote every project page, asset and the data-quality page after one session changed; now only what changed', async () => {
    const { input, out, options } = await setUp();
    await build(options(1));
    const before = await inodes(out);
    await appendFile(join(input, 'minimal-v3.jsonl'), `${JSON.stringify({ type: 'message', id: 'more1', parentId: null, timestamp: '2026-11-30T12:00:00.000Z', message: { role: 'user', content: 'One more turn' } })}\n`);
    await build(options(2));
    const after = await inodes(out);
    const kept = (name: string) => after.get(name) === before.get(name);
    expect(['data-quality.html', join('assets', 'bough.js'), join('assets', 'bough.css')].filter((name) => !kept(name))).toEqual([]);
    const projectPages = [...before.keys()].filter((name) => name.startsWith('projects'));
    // The project the session is in changed; the others did not.
    expect(projectPages.filter(kept).length).toBe(projectPages.length - 1);
  });

  it('writes the record a later build can keep from even with --no-cache, and a --no-cache build writes everything', async () => {
    const { out, options } = await setUp();
    // The cache folder made: a report is kept only by a run with the cache it was made beside.
    await build(options(1));
    const before = await inodes(out);
    expect((await build(options(2, { cache: false }))).sessionsKept).toBe(0);
    const afterNoCache = await inodes(out);
    // Every session page written anew; a page written with the very bytes it had (a project page) stays where it was.
    expect([...before].filter(([name, inode]) => name.startsWith('sessions') && afterNoCache.get(name) === inode)).toEqual([]);
    const kept = await build(options(3));
    expect(kept.sessionsKept).toBe(kept.summary.sessions.length);
  });
});

describe('an edit in the middle of a file that kept its size and time', () => {
  it('is read once the cache folder is deleted, and the report rebuilt (regression: the last report was kept, whatever the cache)', async () => {
    const input = join(await tempDir(), 'in');
    const at = (s: number) => new Date(Date.UTC(2026, 9, 1, 9, 0, s)).toISOString();
    const records: unknown[] = [{ type: 'session', version: 3, id: 'long', timestamp: at(0), cwd: '/home/ana/long' }];
    for (let i = 0; i < 200; i++) {
      records.push({ type: 'message', id: `u${i}`, parentId: i === 0 ? null : `a${i - 1}`, timestamp: at(1), message: { role: 'user', content: `Prompt ${i}.` } });
      const usage = { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } };
      records.push({ type: 'message', id: `a${i}`, parentId: `u${i}`, timestamp: at(2), message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', content: [{ type: 'text', text: `Reply ${i}.` }], usage } });
    }
    await cp(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), join(input, 'other.jsonl'));
    const file = join(input, 'long.jsonl');
    const text = `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
    await writeFile(file, text);
    // A whole second, so that putting it back is exact.
    const written = new Date(Date.UTC(2026, 9, 2));
    await utimes(file, written, written);
    const out = join(await tempDir(), 'report');
    const cacheDir = join(await tempDir(), 'cache');
    const options = (day: number): BuildOptions => ({ inputs: [input], out, scope: ALL_UTC, environment: { env: { BOUGH_CACHE_DIR: cacheDir }, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day, 9, 30)) });
    const outputOf = async () => JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')).sessions.find((s: { id: string }) => s.id === 'long').tokens.output;
    await build(options(1));
    expect(await outputOf()).toBe(2000);
    // Reply 100's output 10 → 90: the same size, far from both ends; the time put back.
    const middle = text.indexOf('"output":10', text.indexOf('"id":"a100"'));
    await writeFile(file, `${text.slice(0, middle)}"output":90${text.slice(middle + '"output":10'.length)}`);
    await utimes(file, written, written);
    await build(options(2));
    expect(await outputOf()).toBe(2000); // as the README says: not seen
    await rm(cacheDir, { recursive: true, force: true });
    await build(options(3));
    expect(await outputOf()).toBe(2080);
    // Regression (a review of the cache): an edit of text alone (a prompt's words, a secret scrubbed
    // in place) changed no number, and the session's page kept its old text after the cache folder
    // was deleted: a page was kept by its file's head and tail, its numbers and its links.
    const now = await readFile(file, 'utf8');
    const prompt = now.indexOf('Prompt 100.');
    await writeFile(file, `${now.slice(0, prompt)}PROMPT 100.${now.slice(prompt + 'Prompt 100.'.length)}`);
    await utimes(file, written, written);
    await build(options(4));
    const pageText = async () => {
      const pages = (await readdir(join(out, 'sessions'))).filter((name) => name.endsWith('.html'));
      return (await Promise.all(pages.map((name) => readFile(join(out, 'sessions', name), 'utf8')))).join('');
    };
    expect(await pageText()).toContain('Prompt 100.'); // as the README says: not seen
    await rm(cacheDir, { recursive: true, force: true });
    await build(options(5));
    const rebuilt = await pageText();
    expect(rebuilt).toContain('PROMPT 100.');
    expect(rebuilt).not.toContain('Prompt 100.');
  });
});
