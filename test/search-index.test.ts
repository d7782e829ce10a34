// The archive's search index: what it holds, that it stays small, and that a --redact report's
// index is redacted like its pages.

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { openSearchSpool } from '../src/output/search-spool.js';
import { indexedText, repliesThatFit, REPLY_CHARS, sessionRows, type SearchSession } from '../src/report/search-index.js';
import type { SessionSearchItem } from '../src/report/search-items.js';
import { runCli } from './support/cli.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';

const SECRET = 'sk-ant-api03-Zq8vN2mK5pL9rT4xW7yB1cD6fG3hJ0kM8nP2qR5sT9uV4wX7yZ1aB3cD6eF9gH2j-AbCdEf';

describe('the search index', () => {
  /** The index files a spool writes for these sessions' items (added last session first, as threads may finish). */
  async function indexOf(sessions: SearchSession[], items: SessionSearchItem[][], budget: number): Promise<{ files: Map<string, string>; spoolLeft: string[] }> {
    const folder = await tempDir();
    const spool = await openSearchSpool(folder);
    for (const [n, sessionItems] of [...items.entries()].reverse()) await spool.add(n, sessionRows(n, sessionItems));
    const files = new Map<string, string>();
    await spool.writeIndex(sessions, budget, async (file) => void files.set(file.path, file.content));
    return { files, spoolLeft: await readdir(folder) };
  }
  const loaded = (files: Map<string, string>) => {
    const index = files.get('search/index.js') ?? '';
    const manifest = JSON.parse(index.slice('window.boughSearchIndex('.length, -');\n'.length)) as { sessions: unknown[]; shards: number; repliesLeftOut: number; replies: number };
    const rows = Array.from({ length: manifest.shards }, (_, n) => {
      const shard = files.get(`search/shard-${n}.js`) ?? '';
      return JSON.parse(shard.slice(`window.boughSearchShard(${n},`.length, -');\n'.length)) as [number, string, string, string][];
    }).flat();
    return { manifest, rows };
  };

  it('keeps prompts and files, and replies only while it stays under its budget', async () => {
    const sessions: SearchSession[] = [
      { title: 'Fix the cart', project: 'shop', day: '2026-11-01', page: 'sessions/a.html' },
      { title: 'Tax rules', project: 'shop', day: '2026-11-02', page: 'sessions/b.html' },
    ];
    const reply = (page: string, n: number): SessionSearchItem => ({ kind: 'reply', href: `${page}#e-r${n}`, text: `reply ${n} ${'word '.repeat(100)}` });
    const items: SessionSearchItem[][] = [
      [{ kind: 'prompt', href: 'sessions/a.html#e-p', text: 'Why   is\nthe total wrong?' }, ...Array.from({ length: 50 }, (_, n) => reply('sessions/a.html', n))],
      [{ kind: 'file', href: 'sessions/b.html', text: 'src/tax.ts' }, { kind: 'prompt', href: 'sessions/b.html#e-p', text: 'VAT, ünïcödé €' }],
    ];
    const small = await indexOf(sessions, items, 3_000);
    expect(small.spoolLeft).toEqual([]);
    expect([...small.files.keys()].sort()).toEqual(['search/index.js', 'search/shard-0.js']);
    const { manifest, rows } = loaded(small.files);
    expect(manifest.sessions).toEqual([
      ['Fix the cart', 'shop', '2026-11-01', 'sessions/a.html'],
      ['Tax rules', 'shop', '2026-11-02', 'sessions/b.html'],
    ]);
    // Prompts and files of every session first, in the report's order, then the replies that fit, oldest first.
    expect(rows.slice(0, 3)).toEqual([
      [0, 'p', 'sessions/a.html#e-p', 'Why is the total wrong?'],
      [1, 'f', 'sessions/b.html', 'src/tax.ts'],
      [1, 'p', 'sessions/b.html#e-p', 'VAT, ünïcödé €'],
    ]);
    const replies = rows.slice(3);
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.length + manifest.repliesLeftOut).toBe(50);
    expect(manifest.repliesLeftOut).toBeGreaterThan(40);
    expect(replies.map((r) => r[2])).toEqual(Array.from({ length: replies.length }, (_, n) => `sessions/a.html#e-r${n}`));
    expect(replies[0]?.[3]).toHaveLength(REPLY_CHARS);
    const bytes = [...small.files.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    expect(bytes).toBeLessThan(3_000 + 600);

    const roomy = loaded((await indexOf(sessions, items, 1_000_000)).files);
    expect(roomy.manifest.repliesLeftOut).toBe(0);
    expect(roomy.rows).toHaveLength(53);
  });

  // Regression (a review of 954ba93): a start of Claude Code's warmups alone, listed as no session,
  // was still a search result for its project's name or "warmup", its title "Warmup only".
  it('searches nothing of a session no list shows, and keeps every other session in its place', async () => {
    const sessions: SearchSession[] = [
      { title: 'Fix the cart', project: 'shop', day: '2026-11-01', page: 'sessions/a.html' },
      { title: 'Warmup only (Claude Code started, never given a prompt)', project: 'shop', day: '2026-11-02', page: 'sessions/w.html', listed: false },
      { title: 'Tax rules', project: 'shop', day: '2026-11-03', page: 'sessions/b.html' },
    ];
    const items: SessionSearchItem[][] = [
      [{ kind: 'prompt', href: 'sessions/a.html#e-p', text: 'Why is the total wrong?' }],
      [{ kind: 'reply', href: 'sessions/w.html#e-r', text: 'Warmed up' }],
      [{ kind: 'reply', href: 'sessions/b.html#e-r', text: 'VAT is 19%' }],
    ];
    const { manifest, rows } = loaded((await indexOf(sessions, items, 1_000_000)).files);
    expect(manifest.sessions).toEqual([['Fix the cart', 'shop', '2026-11-01', 'sessions/a.html'], null, ['Tax rules', 'shop', '2026-11-03', 'sessions/b.html']]);
    expect(rows).toEqual([
      [0, 'p', 'sessions/a.html#e-p', 'Why is the total wrong?'],
      [2, 'r', 'sessions/b.html#e-r', 'VAT is 19%'],
    ]);
    expect(manifest).toMatchObject({ replies: 1 });
  });

  // Regression (a browser review, 2026-12-07): long pasted prompts filled the index's budget, and
  // not one reply was searched (nor a sub-agent's text), while the search box said replies were.
  it('keeps a quarter of its budget for replies beyond prompts that fill it, and counts the replies', () => {
    expect(repliesThatFit(10_000, [[100, 100], [100]], 4_000)).toEqual({ kept: [[true, true], [true]], repliesLeftOut: 0, replies: 3 });
    expect(repliesThatFit(10_000, [[600, 600]], 4_000)).toEqual({ kept: [[true, false]], repliesLeftOut: 1, replies: 2 });
    // Within the budget, as before.
    expect(repliesThatFit(1_000, [[1_000, 1_000, 1_000]], 4_000)).toEqual({ kept: [[true, true, true]], repliesLeftOut: 0, replies: 3 });
  });

  it('is split into shards of about 256 kB, every row in one of them once', async () => {
    const sessions = Array.from({ length: 40 }, (_, n): SearchSession => ({ title: `s${n}`, project: 'p', day: '2026-11-01', page: `sessions/s${n}.html` }));
    const items = sessions.map((s, n) => Array.from({ length: 30 }, (_, i): SessionSearchItem => ({ kind: 'prompt', href: `${s.page}#e-${i}`, text: `${n}.${i} ${'x'.repeat(1_990)}` })));
    const { files } = await indexOf(sessions, items, 100_000_000);
    const { manifest, rows } = loaded(files);
    expect(manifest.shards).toBeGreaterThan(4);
    for (let n = 0; n < manifest.shards; n++) expect((files.get(`search/shard-${n}.js`) ?? '').length).toBeLessThan(256_000 + 2_100);
    expect(rows.map((r) => r[2])).toEqual(items.flat().map((i) => i.href));
  });

  it('holds every session\'s rows, added side by side in any order, whichever batch they were written in', async () => {
    const sessions = Array.from({ length: 120 }, (_, n): SearchSession => ({ title: `s${n}`, project: 'p', day: '2026-11-01', page: `sessions/s${n}.html` }));
    // One session's rows (1.2 MB) longer than what the spool reads back at a time.
    const items = sessions.map((s, n) => Array.from({ length: n === 5 ? 800 : 10 }, (_, i): SessionSearchItem => ({ kind: 'prompt', href: `${s.page}#e-${i}`, text: `${n}.${i} ${'y'.repeat(1_500)}` })));
    const folder = await tempDir();
    const spool = await openSearchSpool(folder);
    const order = sessions.map((_, n) => (n * 37) % sessions.length);
    await Promise.all(order.map((n) => spool.add(n, sessionRows(n, items[n] ?? []))));
    const files = new Map<string, string>();
    await spool.writeIndex(sessions, 100_000_000, async (file) => void files.set(file.path, file.content));
    expect(loaded(files).rows.map((r) => r[3].slice(0, 8))).toEqual(items.flat().map((i) => i.text.slice(0, 8)));
  });

  it('is built from the redacted text in a --redact report', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 10, 0, s)).toISOString();
    const lines = [
      { type: 'session', version: 3, id: 'secret-session', timestamp: at(0), cwd: '/home/ana/shop' },
      { type: 'message', id: 'p1', parentId: null, timestamp: at(1), message: { role: 'user', content: `Use the key ${SECRET} for the deploy script in /home/ana/shop/deploy.sh` } },
    ];
    await writeFile(join(input, 's.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const out = join(await tempDir(), 'report');
    await build({ inputs: [input], out, scope: ALL_UTC, redact: true, environment: { env: {}, home: '/home/ana' }, now: new Date('2026-12-01T00:00:00Z') });
    const index = (await Promise.all((await readdir(join(out, 'search'))).map((f) => readFile(join(out, 'search', f), 'utf8')))).join('\n');
    expect(index).toContain('deploy script');
    expect(index).toContain('[REDACTED:');
    expect(index).not.toContain('Zq8vN2mK5pL9');
    expect(index).not.toContain('/home/ana');
  });

  // Regressions: a prompt was indexed to its 2,000th character; Markdown was indexed as written
  // ("&lt;tag&gt;", "**bold**"), so a phrase as the page shows it was not found and results showed
  // the marks; a sub-agent's file shown as its session (no main transcript) had its task indexed
  // as a prompt, though the session counts no prompt.
  it('holds a long prompt, and messages as their pages show them, a sub-agent’s task as its own', async () => {
    const input = join(await tempDir(), 'projects', '-home-ana-shop');
    await mkdir(join(input, 'main'), { recursive: true });
    const line = (session: string, uuid: string, parent: string | null, type: 'user' | 'assistant', content: string, extra: object = {}) =>
      JSON.stringify({ parentUuid: parent, isSidechain: false, cwd: '/home/ana/shop', sessionId: session, version: '2.1.30', type, uuid, timestamp: '2026-03-05T09:00:00.000Z', message: { role: type, content }, ...extra });
    const main = '99999999-9999-4999-8999-999999999991';
    await writeFile(
      join(input, 'main', `${main}.jsonl`),
      [line(main, 'u1', null, 'user', `startword ${'lorem ipsum dolor '.repeat(300)}endword`), line(main, 'a1', 'u1', 'assistant', 'Use the &lt;tag&gt; element, **bold phrase** and `codeword` ~here~.')].join('\n') + '\n',
    );
    await writeFile(join(input, 'agent-0c78cdae.jsonl'), `${line('99999999-9999-4999-8999-999999999992', 'w1', null, 'user', 'Survey the code', { isSidechain: true, agentId: '0c78cdae' })}\n`);
    const out = join(await tempDir(), 'report');
    const { summary } = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const files = new Map<string, string>();
    for (const name of await readdir(join(out, 'search'))) files.set(`search/${name}`, await readFile(join(out, 'search', name), 'utf8'));
    const rows = loaded(files).rows;
    expect(rows.find((row) => row[3].startsWith('startword'))?.[3]).toMatch(/ endword$/);
    expect(rows.filter((row) => row[1] === 'r').map((row) => row[3])).toEqual(['Use the <tag> element, bold phrase and codeword ~here~.']);
    expect(summary.totals.prompts).toBe(1);
    expect(rows.filter((row) => row[3] === 'Survey the code').map((row) => row[1])).toEqual(['s']);
  });

  // Regression: a sub-agent's transcript was on its session's page and nowhere in the search.
  it("finds what a session's sub-agents were asked and answered, linked to where the page shows it", async () => {
    const out = join(await tempDir(), 'report');
    const inputs = [join(FIXTURES, 'claude', 'projects'), join(FIXTURES, 'pi', 'subagent.jsonl')];
    await build({ inputs, out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const files = new Map<string, string>();
    for (const name of await readdir(join(out, 'search'))) files.set(`search/${name}`, await readFile(join(out, 'search', name), 'utf8'));
    const subagentRows = loaded(files).rows.filter((row) => row[1] === 's');
    const found = async (words: string) => {
      const row = subagentRows.find((r) => r[3].includes(words));
      if (!row) return null;
      const [page, anchor] = row[2].split('#');
      const html = await readFile(join(out, page ?? ''), 'utf8');
      return { anchored: html.includes(`id="${anchor}"`), shown: html.includes(words) };
    };
    // A Claude Code sub-agent's own file: its task, and its reply.
    expect(await found('Find every caller of total()')).toEqual({ anchored: true, shown: true });
    expect(await found('cart.ts computes totals.')).toEqual({ anchored: true, shown: true });
    // A Pi sub-agent run inside a tool result: its task and its last answer, each at its own entry
    // in the run, which the page unfolds the way to (regression, an outside review in a browser:
    // at the result, the run folded in it, what was found hidden).
    expect(await found('find the cart')).toEqual({ anchored: true, shown: true });
    expect(await found('found it')).toEqual({ anchored: true, shown: true });
    for (const words of ['find the cart', 'found it']) expect(subagentRows.find((r) => r[3].includes(words))?.[2]).toMatch(/#e-sub-/);
  });

  // Regression: a touched file's path was cut at 500 characters, so a file in a deep folder was
  // not found by its own name.
  it('keeps a touched file’s path whole, its name at the end of a deep one', () => {
    const deep = `/home/ana/${'generated/module-folder/'.repeat(40)}invoice-total.ts`;
    expect(deep.length).toBeGreaterThan(900);
    expect(indexedText('file', deep)).toBe(deep);
  });

  // Regression (an outside review): a file's result opened the top of its session's page, not
  // the table that lists it; every other kind of result leads to the place it was found.
  it('leads every result, a file touched too, to an anchor its page has', async () => {
    const out = join(await tempDir(), 'report');
    const inputs = [join(FIXTURES, 'claude', 'projects'), join(FIXTURES, 'pi'), join(FIXTURES, 'codex', 'home')];
    await build({ inputs, out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const files = new Map<string, string>();
    for (const name of await readdir(join(out, 'search'))) files.set(`search/${name}`, await readFile(join(out, 'search', name), 'utf8'));
    const rows = loaded(files).rows;
    expect(rows.some((row) => row[1] === 'f')).toBe(true);
    const pages = new Map<string, string>();
    const unanchored: string[] = [];
    for (const [, kind, href] of rows) {
      const [page = '', anchor] = href.split('#');
      if (!pages.has(page)) pages.set(page, await readFile(join(out, page), 'utf8'));
      if (anchor === undefined || !pages.get(page)?.includes(` id="${anchor}"`)) unanchored.push(`${kind} ${href}`);
    }
    expect(unanchored).toEqual([]);
  });

  // Regression: a spawned Codex thread's replay of its parent, folded on the page as "counted
  // there", was indexed again: the parent's prompt was found twice, once inside the copy.
  it('finds what a file copied from another session once, where it is counted', async () => {
    const out = join(await tempDir(), 'report');
    await build({ inputs: [join(FIXTURES, 'codex', 'usage', 'spawn-replay')], out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const files = new Map<string, string>();
    for (const name of await readdir(join(out, 'search'))) files.set(`search/${name}`, await readFile(join(out, 'search', name), 'utf8'));
    const rows = loaded(files).rows;
    expect(rows.filter((row) => row[3].includes('do it with a helper')).map((row) => row[1])).toEqual(['p']);
    expect(rows.filter((row) => row[3].includes('check the tests')).map((row) => row[1])).toEqual(['s']);
  });

  // Regression (a review of long sessions): a Pi fork's history, copied from a session this report
  // shows and folded on the fork's page as "counted there", was found twice, once in each.
  it('finds a fork’s copied history once, in its origin, when the report shows the origin', async () => {
    const out = join(await tempDir(), 'report');
    await build({ inputs: [join(FIXTURES, 'pi', 'lineage')], out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const files = new Map<string, string>();
    for (const name of await readdir(join(out, 'search'))) files.set(`search/${name}`, await readFile(join(out, 'search', name), 'utf8'));
    const rows = loaded(files).rows;
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { sessions: { id: string; page: string }[] };
    const pageOf = (id: string) => summary.sessions.find((s) => s.id.endsWith(id))?.page;
    expect(rows.filter((row) => row[3].includes('Plan the checkout.')).map((row) => row[2].split('#')[0])).toEqual([pageOf('000000000020')]);
    // A fork whose origin is gone still holds what it copied: found there.
    expect(rows.filter((row) => row[3].includes('Copied prompt whose origin is gone.')).map((row) => row[2].split('#')[0])).toEqual([pageOf('000000000023')]);
  });

  // Regression: the fix above left copied entries out wherever they were copies, so a copy whose
  // origin this report does not show (outside its period) had that history found nowhere.
  it('finds copied history in the copy when the session that counts it is not in the report', async () => {
    const dir = await tempDir();
    const copies = join(FIXTURES, 'codex', 'usage', 'copy-of-copy');
    for (const name of await readdir(copies)) if (/(b1|c1)\.jsonl$/.test(name)) await writeFile(join(dir, name), await readFile(join(copies, name)));
    const out = join(await tempDir(), 'report');
    const { code, stderr } = await runCli(['build', dir, '--out', out, '--since', '2026-05-12T11:30:00Z', '--tz', 'UTC', '--no-cache', '-q']);
    expect(code, stderr).toBe(0);
    const files = new Map<string, string>();
    for (const name of await readdir(join(out, 'search'))) files.set(`search/${name}`, await readFile(join(out, 'search', name), 'utf8'));
    const texts = loaded(files).rows.map((row) => row[3]);
    for (const words of ['question A', 'question B', 'question C']) expect(texts.filter((text) => text.includes(words))).toHaveLength(1);
  });

  // Regression: of a sub-agent run inside a tool result only its task and last answer were
  // indexed, so what it said on the way, shown on the page, could not be found.
  it('finds every reply of a sub-agent run inside a tool result', async () => {
    const dir = await tempDir();
    const session = (await readFile(join(FIXTURES, 'pi', 'subagent.jsonl'), 'utf8')).replace(
      '{"role":"assistant","content":[{"type":"text","text":"found it"}]',
      '{"role":"assistant","content":[{"type":"text","text":"still looking under src"}],"stopReason":"stop","timestamp":1791450001500},{"role":"assistant","content":[{"type":"text","text":"found it"}]',
    );
    expect(session).toContain('still looking under src');
    await writeFile(join(dir, 'subagent.jsonl'), session);
    const out = join(await tempDir(), 'report');
    await build({ inputs: [join(dir, 'subagent.jsonl')], out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const files = new Map<string, string>();
    for (const name of await readdir(join(out, 'search'))) files.set(`search/${name}`, await readFile(join(out, 'search', name), 'utf8'));
    const row = loaded(files).rows.find((r) => r[1] === 's' && r[3].includes('still looking under src'));
    expect(row).toBeDefined();
    const [page, anchor] = (row?.[2] ?? '').split('#');
    const html = await readFile(join(out, page ?? ''), 'utf8');
    expect([html.includes(`id="${anchor}"`), html.includes('still looking under src')]).toEqual([true, true]);
  });
});
