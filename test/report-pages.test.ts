import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { summarySchema, type Summary } from '../src/report/schema.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';
import { liveMarkup } from './support/html.js';

let out: string;
let summary: Summary;

async function pages(): Promise<string[]> {
  const entries = await readdir(out, { recursive: true });
  return entries.filter((name) => name.endsWith('.html'));
}

async function page(path: string): Promise<string> {
  return readFile(join(out, path), 'utf8');
}

function sessionPage(fileEnding: string): Promise<string> {
  const session = summary.sessions.find((s) => s.file.endsWith(fileEnding));
  if (!session?.page) throw new Error(`no page for ${fileEnding}`);
  return page(session.page);
}

/** The page of the one session these Pi records make, built on its own (`redact` as --redact does). */
async function pageOfRecords(records: readonly object[], options: { redact?: boolean } = {}): Promise<string> {
  const dir = await tempDir();
  await writeFile(join(dir, 'session.jsonl'), records.map((r) => JSON.stringify(r)).join('\n'));
  const report = join(await tempDir(), 'report');
  const { summary: built } = await build({ inputs: [dir], out: report, scope: ALL_UTC, redact: options.redact ?? false, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
  return readFile(join(report, built.sessions[0]?.page ?? ''), 'utf8');
}

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

beforeAll(async () => {
  out = join(await tempDir(), 'report');
  const home = await tempDir();
  const result = await build({
    inputs: [join(FIXTURES, 'pi')],
    out,
    scope: ALL_UTC,
    environment: { env: {}, home },
    now: new Date('2026-11-30T12:00:00Z'),
  });
  summary = result.summary;
});

describe('rendered report', () => {
  it('writes an index, a page per project and per session, the data-quality page and summary.json', async () => {
    const written = await pages();
    expect(written).toContain('index.html');
    expect(written).toContain('data-quality.html');
    for (const s of summary.sessions) expect(written).toContain(s.page);
    for (const p of summary.projects) expect(written).toContain(p.page);
    const json: unknown = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
    expect(json).toEqual(summary);
    // The contract users script against: every field of the schema, with its type.
    expect(summarySchema.strict().safeParse(json).success).toBe(true);
  });

  it('puts a Content-Security-Policy that forbids inline script and the network on every page', async () => {
    for (const path of await pages()) {
      const html = await page(path);
      expect(html, path).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;[^"]*script-src &#39;self&#39;/);
      expect(liveMarkup(html), path).toEqual([]);
    }
  });

  it('shows the conversation: prompts, replies, tool calls and results, thinking folded', async () => {
    const html = await sessionPage('minimal-v3.jsonl');
    expect(html).toContain('What does cart.ts export?');
    expect(html).toContain('It exports <strong>one</strong> function, <code>total(items)</code>');
    expect(html).toContain('<span class="tool-name">read</span> <code class="tool-summary">src/cart.ts</code>');
    // Its result says what its call was about (regression: results of parallel calls read alike, "Tool result bash").
    expect(html).toContain('<span class="who">Tool result</span> <span class="tool-name">read</span> <span class="about">src/cart.ts</span>');
    // The file read, as TypeScript coloured by classes.
    expect(html).toContain('<summary><span class="path">src/cart.ts · 3 lines</span></summary>');
    expect(html).toContain('<span class="hljs-keyword">export</span> <span class="hljs-keyword">function</span> <span class="hljs-title function_">total</span>');
    expect(html).toMatch(/<details class="thinking"><summary>Thinking<\/summary>/);
  });

  it('makes every branch reachable and draws the tree as inline SVG linking to entries', async () => {
    const html = await sessionPage('tree-branches.jsonl');
    expect(html).toContain('<h2>Branch 2</h2>');
    expect(html).toContain('<h2>Branch 3</h2>');
    expect(html).toContain('Rename it to basket.ts.');
    expect(html).toContain('Actually, leave the name as it is.');
    expect(html).toMatch(/<svg [^>]*class="tree"/);
    expect(html).toContain('<a href="#e-b0000010" class="node');
    expect(html).toContain('↳ The conversation branches here:');
  });

  // Regression: inside an abandoned branch, the link to that branch's own continuation at a
  // fork was called "active path", and led further into the abandoned branch.
  it('names each way on from a fork by the branch it goes on in, the active path only where it is', async () => {
    const at = (n: number) => `2026-11-01T10:00:${String(n).padStart(2, '0')}.000Z`;
    const message = (id: string, parentId: string | null, n: number, role: 'user' | 'assistant', text: string) => ({
      type: 'message',
      id,
      parentId,
      timestamp: at(n),
      message: { role, content: [{ type: 'text', text }], ...(role === 'assistant' ? { provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop' } : {}), timestamp: Date.parse(at(n)) },
    });
    const html = await pageOfRecords([
      { type: 'session', version: 3, id: 'fork-names', timestamp: at(0), cwd: '/home/ana/shop' },
      message('p1', null, 1, 'user', 'First.'),
      message('r1', 'p1', 2, 'assistant', 'One.'),
      message('p2', 'r1', 3, 'user', 'Abandoned.'),
      message('r2', 'p2', 4, 'assistant', 'Two.'),
      message('p3', 'r2', 5, 'user', 'Deeper in the abandoned branch.'),
      message('r3', 'p3', 6, 'assistant', 'Three.'),
      message('p3b', 'r2', 7, 'user', 'A branch of the abandoned branch.'),
      message('p2c', 'r1', 8, 'user', 'Kept.'),
      message('r2c', 'p2c', 9, 'assistant', 'Done.'),
    ]);
    const forks = [...html.matchAll(/The conversation branches here:([\s\S]*?)<\/p>/g)].map((m) => (m[1] ?? '').replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim());
    expect(forks).toEqual(['branch 2 active path', 'branch 2 branch 3']);
  });

  // Regression: a label on an entry the file does not hold read "label “DANGLING” set on", and stopped.
  it('says a label’s target is not in the file when it is not', async () => {
    const at = (n: number) => `2026-11-01T10:00:${String(n).padStart(2, '0')}.000Z`;
    const html = await pageOfRecords([
      { type: 'session', version: 3, id: 'dangling-label', timestamp: at(0), cwd: '/home/ana/shop' },
      { type: 'message', id: 'p1', parentId: null, timestamp: at(1), message: { role: 'user', content: [{ type: 'text', text: 'First.' }], timestamp: 0 } },
      { type: 'label', id: 'l1', parentId: 'p1', timestamp: at(2), targetId: 'nonexistent', label: 'DANGLING' },
      { type: 'label', id: 'l2', parentId: 'l1', timestamp: at(3), targetId: 'p1', label: 'kept' },
    ]);
    const said = [...html.matchAll(/<p class="event-text">([\s\S]*?)<\/p>/g)].map((m) => (m[1] ?? '').replace(/<[^>]*>/g, '').trim());
    expect(said).toContain('label “DANGLING” set on an entry not in this file');
    // Regression (an outside review): the link read "this entry", though it leads to the label's
    // target, not to the line that says it: named as what the target is.
    expect(said).toContain('label “kept” set on First.');
  });

  // Regression (an outside review of Pi's format): every entry any context edit omitted was a
  // "failed attempt", though edits are branch-relative and the latest on a path wins (pi.md §5):
  // an omission on a branch the conversation left, or one a later edit rewrote, hides nothing.
  it('marks an entry hidden from the model only by the latest context edit on its path', async () => {
    const at = (n: number) => `2026-11-01T10:00:${String(n).padStart(2, '0')}.000Z`;
    const user = (id: string, parentId: string | null, text: string, n: number) => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'user', content: [{ type: 'text', text }], timestamp: 0 } });
    const reply = (id: string, parentId: string, text: string, n: number, stopReason = 'stop') => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'assistant', content: [{ type: 'text', text }], provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason, ...(stopReason === 'error' ? { errorMessage: 'overloaded' } : {}), timestamp: 0 } });
    const edit = (id: string, parentId: string, targetId: string, replacement: object | null, n: number) => ({ type: 'context_edit', id, parentId, timestamp: at(n), targetId, replacement });
    const html = await pageOfRecords([
      { type: 'session', version: 3, id: 'edits', timestamp: at(0), cwd: '/home/ana/shop' },
      user('u1', null, 'TRUNK', 1),
      reply('a1', 'u1', 'REWRITTEN', 2),
      edit('x1', 'a1', 'a1', null, 3),
      edit('x2', 'x1', 'a1', { content: 'short' }, 4),
      user('u2', 'x2', 'MAIN', 5),
      reply('a2', 'u2', 'FAILED', 6, 'error'),
      edit('x3', 'a2', 'a2', null, 7),
      edit('y1', 'a1', 'u1', null, 8),
      user('u3', 'y1', 'SIDE', 9),
      user('u4', 'x3', 'AGAIN', 10),
    ]);
    const badged = (text: string) => {
      const at = html.indexOf(text, html.indexOf('Conversation (active path)'));
      const card = html.slice(html.lastIndexOf('<li class="entry', at), at);
      return [...card.matchAll(/class="badge[^"]*"[^>]*>([^<]*)</g)].map((m) => m[1]);
    };
    expect(badged('TRUNK')).toEqual([]);
    expect(badged('REWRITTEN')).toEqual([]);
    expect(badged('FAILED')).toEqual(['error', 'failed attempt']);
    // The edit links the entry it hid (it said only "an earlier entry hidden from the model").
    expect(html).toMatch(/hidden from the model: <a href="#[^"]+">error reply: overloaded<\/a>/);
    // A rewrite shows what the model sees in its place (regression, an outside review of session
    // pages: its text was read and shown nowhere).
    expect(html).toMatch(/rewritten for the model: <a href="#[^"]+">[^<]*<\/a><\/p>\s*<details class="event-detail"><summary>show<\/summary><div class="markdown"><p dir="auto">short<\/p>/);
  });

  // Regression (an outside review of session pages): a prompt of no words and no image was an
  // "(image prompt)" in the tree.
  it('names a prompt of no words and no image an empty prompt, one of an image alone an image prompt', async () => {
    const at = (n: number) => `2026-11-02T10:00:${String(n).padStart(2, '0')}.000Z`;
    const user = (id: string, parentId: string | null, content: object[], n: number) => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'user', content, timestamp: 0 } });
    const reply = (id: string, parentId: string, n: number) => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', timestamp: 0 } });
    const html = await pageOfRecords([
      { type: 'session', version: 3, id: 'empties', timestamp: at(0), cwd: '/home/ana/shop' },
      user('u1', null, [{ type: 'text', text: '   ' }], 1),
      reply('a1', 'u1', 2),
      user('u2', 'a1', [], 3),
      reply('a2', 'u2', 4),
      user('u3', 'a2', [{ type: 'image', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', mimeType: 'image/png' }], 5),
      reply('a3', 'u3', 6),
    ]);
    const start = html.indexOf('<svg xmlns="http://www.w3.org/2000/svg" class="tree"');
    const tree = html.slice(start, html.indexOf('</svg>', start));
    expect(tree.match(/\((?:empty|image) prompt\)/g)).toEqual(['(empty prompt)', '(empty prompt)', '(image prompt)']);
  });

  // Regression (a review of the pages): a thinking block that recorded no text opened to an empty
  // box, and the session's model table had a "Sessions" column saying 1 on every row.
  it('says a thinking block of no text with nothing to open, and counts no sessions in a session’s model table', async () => {
    const at = (n: number) => `2026-11-02T10:00:${String(n).padStart(2, '0')}.000Z`;
    const html = await pageOfRecords([
      { type: 'session', version: 3, id: 'no-thought', timestamp: at(0), cwd: '/home/ana/shop' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 0 } },
      {
        type: 'message',
        id: 'a1',
        parentId: 'u1',
        timestamp: at(2),
        message: { role: 'assistant', content: [{ type: 'thinking', thinking: '' }, { type: 'thinking', thinking: 'weighing it' }, { type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', timestamp: 0, usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } } },
      },
    ]);
    expect(html).toContain('<p class="thinking">Thinking (no text recorded)</p>');
    expect(html).not.toMatch(/<summary>Thinking \(no text recorded\)/);
    expect(html).toMatch(/<details class="thinking"><summary>Thinking<\/summary><div class="markdown"><p dir="auto">weighing it/);
    const models = html.slice(html.indexOf('<table class="numbers models'), html.indexOf('</table>', html.indexOf('<table class="numbers models')));
    expect(models).toContain('Records');
    expect(models).not.toContain('Sessions');
  });

  // Regression (a review of Pi's trees): a header-only file's page said "Tree 0 branches · 0 roots.
  // Each row is a turn; click one to jump to it." above no tree.
  it('draws no Tree section for a session of no entries', async () => {
    const html = await pageOfRecords([{ type: 'session', version: 3, id: 'header-only', timestamp: '2026-11-01T10:00:00.000Z', cwd: '/home/ana/shop' }]);
    expect(html).not.toContain('<h2>Tree</h2>');
    expect(html).not.toContain('Each row is a turn');
  });

  // Regression: a fork of a fork said all it copied was "counted there", in its origin, though
  // what its origin had copied in turn is counted in that one's origin.
  it('says where a fork of a fork’s copied entries are counted', async () => {
    const out = join(await tempDir(), 'report');
    const { summary: built } = await build({ inputs: [join(FIXTURES, 'pi', 'lineage')], out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const pageOf = (id: string) => readFile(join(out, built.sessions.find((s) => s.id === id)?.page ?? ''), 'utf8');
    const fork = await pageOf('0196a000-0000-7000-8000-000000000021');
    expect(fork).toContain('copied from “Plan the checkout.”, counted there</summary>');
    expect(fork).toContain('Entries it shares with that session are counted there, not here.');
    const forkOfFork = await pageOf('0196a000-0000-7000-8000-000000000022');
    expect(forkOfFork).toContain('copied from “Write step one, with tests.”, counted where first recorded</summary>');
    expect(forkOfFork).toContain('Entries it shares with that session are counted there, or in the session it was copied from in turn, not here.');
  });

  // Regression: with the fork in the middle not read, the fork of the fork said all it copied was
  // counted in it, though what the first session holds is counted there.
  it('says a fork of a fork whose origin is missing counts only what no file read holds first', async () => {
    const out = join(await tempDir(), 'report');
    const lineage = join(FIXTURES, 'pi', 'lineage');
    const inputs = [
      join(lineage, '--home-ana-projects-shop--', '2026-10-10T09-00-00-000Z_0196a000-0000-7000-8000-000000000020.jsonl'),
      join(lineage, '--home-ana-projects-shop-v2--', '2026-10-11T09-00-00-000Z_0196a000-0000-7000-8000-000000000022.jsonl'),
    ];
    const { summary: built } = await build({ inputs, out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const page = await readFile(join(out, built.sessions.find((s) => s.id === '0196a000-0000-7000-8000-000000000022')?.page ?? ''), 'utf8');
    const first = built.sessions.find((s) => s.id === '0196a000-0000-7000-8000-000000000020');
    expect(page).toContain(`which is not among the files read, so its copied entries are counted here, but for those another file read holds first (marked “copied”): <a href="../${first?.page}">Plan the checkout.</a>.`);
    // Regression (a review of Pi's forks): the first session's page did not list the fork of the
    // fork, whose page links to it: the two were joined one way only.
    const firstPage = await readFile(join(out, first?.page ?? ''), 'utf8');
    const forkOfFork = built.sessions.find((s) => s.id === '0196a000-0000-7000-8000-000000000022');
    expect(firstPage).toContain(`Forked or copied into:</p>\n  <ul><li><a href="../${forkOfFork?.page}">`);
  });

  it('shows labels on their targets, the latest one winning', async () => {
    const html = await sessionPage('tree-branches.jsonl');
    expect(html).toMatch(/id="e-b0000008"[\s\S]*?<span class="badge tone-label" title="label">final<\/span>/);
    expect(html).not.toContain('>rename done<');
  });

  it('shows a skill prompt as what was typed, the skill named beside it and its body folded', async () => {
    const html = await sessionPage('skills.jsonl');
    expect(html).toContain('<details class="skill"><summary>skill <strong>review</strong>');
    expect(html).toContain('the checkout code');
    const index = await page('index.html');
    expect(index).toContain('/skill:review the checkout code');
    expect(index).not.toContain('Read the diff and list problems');
  });

  it('has a live-markup check that finds what it looks for', () => {
    expect(liveMarkup('<p><img src=x onerror=alert(1)><a href="javascript:x">a</a><iframe></iframe></p>')).toEqual([
      '<img onerror=…>',
      'href=javascript:x',
      '<iframe>',
    ]);
  });

  it('escapes every text from a session and leaves no live markup', async () => {
    const html = await sessionPage('hostile-text.jsonl');
    const index = await page('index.html');
    expect(liveMarkup(html)).toEqual([]);
    expect(liveMarkup(index)).toEqual([]);
    expect(html).not.toContain('javascript:');
    expect(html).toContain('&lt;script&gt;alert(&quot;prompt&quot;)&lt;/script&gt; please');
    expect(html).toContain('[image: pic]');
    expect(html).toContain('[image of type <code>text/html</code> not shown: not an image a page shows safely]');
    expect(index).toContain('&lt;b onmouseover=alert(5)&gt;bold name&lt;/b&gt;');
  });

  it('shows images from prompts and tool results inline from their data, and the tool work', async () => {
    const html = await sessionPage('/tools.jsonl');
    expect(html.match(/<img class="inline-image" src="data:image\/png;base64,iVBORw0KGgo[A-Za-z0-9+/=]+" alt="image \(image\/png\)">/g)).toHaveLength(2);
    expect(html).toContain('<code>[main 85fd4d9] Add cart</code>');
    expect(html).toMatch(/<span class="badge tone-error">failed<\/span> <a href="#e-t\d+"><code>git commit -m &quot;WIP&quot; \(git printed no commit line\)<\/code>/);
    expect(html).toMatch(/<td class="path">src\/a.ts<\/td><td>read 2 · edit 1<\/td><td class="num added">\+3<\/td><td class="num removed">−1<\/td>/);
  });

  it('lists damaged lines on the data-quality page with file, line and reason', async () => {
    const html = await page('data-quality.html');
    expect(html).toMatch(/damaged-lines\.jsonl(?:<\/a>)?<\/td><td class="num">5<\/td><td><code>truncated-line<\/code>/);
    expect(summary.diagnostics.skippedLines).toBe(3);
    expect(summary.diagnostics.skippedFiles).toBe(2);
  });
});

describe('the badges of a sessions table', () => {
  // Regression: what "cost differs" (or "fork", "unpriced") meant was said in a title alone, which
  // shows on hover: never on a phone or on paper.
  it('are said in words under it, each kind once', async () => {
    const index = await page('index.html');
    const legends = [...index.matchAll(/<ul class="badge-legend">([\s\S]*?)<\/ul>/g)].map((m) => m[1] ?? '');
    // Under the most expensive sessions, and once under all the months' tables.
    expect(legends).toHaveLength(2);
    const all = legends[1] ?? '';
    expect(all).toContain('<span class="badge tone-warn">cost differs</span> bough’s cost and the one the agent recorded differ by more than 1%');
    expect(all).toContain('<span class="badge tone-plain">branches</span>');
    expect(all.split('cost differs</span>').length - 1).toBe(1);
    const project = summary.projects.find((p) => summary.sessions.some((s) => s.cwd === p.cwd && s.costCheck?.differs === true));
    expect(await page(project?.page as string)).toContain('<ul class="badge-legend">');
  });
});

describe('a session that runs past midnight', () => {
  // Regression: the conversation showed times alone, so 23:59:59, 00:00:00, 23:59:59 read as one
  // night; the date was only in a datetime attribute.
  it('shows the date beside the time of each entry on another day than the one it started', async () => {
    const at = (time: string) => ({ timestamp: time });
    const records = [
      { type: 'session', version: 3, id: 'night', ...at('2026-10-31T23:59:00.000Z'), cwd: '/work/night' },
      { type: 'message', id: 'p1', parentId: null, ...at('2026-10-31T23:59:59.000Z'), message: { role: 'user', content: 'Before midnight' } },
      { type: 'message', id: 'p2', parentId: 'p1', ...at('2026-11-01T00:00:01.000Z'), message: { role: 'user', content: 'After midnight' } },
    ];
    const html = await pageOfRecords(records);
    expect(html).toContain('<time datetime="2026-10-31T23:59:59.000Z">23:59:59</time>');
    expect(html).toContain('<time datetime="2026-11-01T00:00:01.000Z">2026-11-01 00:00:01</time>');
  });
});

describe('a session with no usage recorded', () => {
  // Regression: its tokens read 0 in the sessions and projects tables, and its project page drew empty $0 axes.
  it('shows "—" for its tokens, titled so, and its project page draws no chart', async () => {
    // A session of one prompt, with no usage record.
    const dir = join(FIXTURES, 'cases', 'no-usage');
    const report = join(await tempDir(), 'report');
    const { summary: built } = await build({ inputs: [dir], out: report, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const index = await readFile(join(report, 'index.html'), 'utf8');
    expect(index).toMatch(/<td class="num"[^>]*title="no usage recorded"[^>]*>—<\/td>/);
    const project = await readFile(join(report, built.projects[0]?.page ?? ''), 'utf8');
    expect(project).not.toContain('<svg');
  });
});

describe('a report of agents that record a cost and agents that do not', () => {
  // Regression: "$122.70 as the agent stored it" beside $150.46 by bough read as a discount; only the Pi records had a cost.
  it('says how many usage records the recorded cost covers', async () => {
    const report = join(await tempDir(), 'report');
    await build({ inputs: [join(FIXTURES, 'pi', 'minimal-v3.jsonl'), join(FIXTURES, 'claude', 'projects')], out: report, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const index = await readFile(join(report, 'index.html'), 'utf8');
    expect(index).toMatch(/as the agent stored it, for 3 of 14 usage records/);
  });
});

describe('entries whose ids differ only in characters an anchor cannot hold', () => {
  // Regression: "a/b" and "a_b" were both anchored "e-a_b": two elements with one id, and every link to the second went to the first.
  it('get an anchor each, and the outline links to each', async () => {
    const at = '2026-10-05T10:00:00.000Z';
    const prompt = (id: string, parentId: string | null, text: string) => ({ type: 'message', id, parentId, timestamp: at, message: { role: 'user', content: text } });
    const reply = (id: string, parentId: string) => ({ type: 'message', id, parentId, timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: 'stop' } });
    const lines = [{ type: 'session', version: 3, id: 'anchors', timestamp: at, cwd: '/tmp/anchors' }, prompt('a/b', null, 'first prompt A'), reply('r1', 'a/b'), prompt('a_b', 'r1', 'second prompt B'), reply('r2', 'a_b')];
    const html = await pageOfRecords(lines);
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBe(new Set(ids).size);
    const anchorOfText = (text: string) => {
      const at = html.indexOf(`<p dir="auto">${text}</p>`);
      return [...html.slice(0, at).matchAll(/<li class="entry[^"]*" id="([^"]+)"/g)].at(-1)?.[1];
    };
    expect(new Set([anchorOfText('first prompt A'), anchorOfText('second prompt B')]).size).toBe(2);
    for (const text of ['first prompt A', 'second prompt B']) expect(html).toContain(`href="#${anchorOfText(text)}"`);
  });
});

describe('the "damaged lines" badge', () => {
  // Regression: a session whose damaged line was recovered whole (two records glued on one line) was badged as damaged too.
  it('marks a session that lost a line, not one whose lines were all recovered', async () => {
    const dir = await tempDir();
    const at = '2026-10-05T10:00:00.000Z';
    const header = (id: string) => JSON.stringify({ type: 'session', version: 3, id, timestamp: at, cwd: `/tmp/${id}` });
    const prompt = (id: string, parentId: string | null, text: string) => JSON.stringify({ type: 'message', id, parentId, timestamp: at, message: { role: 'user', content: text } });
    await writeFile(join(dir, 'glued.jsonl'), `${header('glued')}\n${prompt('u1', null, 'first')}${prompt('u2', 'u1', 'second')}\n`);
    await writeFile(join(dir, 'cut.jsonl'), `${header('cut')}\n${prompt('u1', null, 'first')}\n{"type":"message","id":"u2","par\n${prompt('u3', 'u1', 'third')}\n`);
    const out = join(await tempDir(), 'report');
    await build({ inputs: [dir], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const project = async (name: string) => readFile(join(out, 'projects', (await readdir(join(out, 'projects'))).find((p) => p.includes(name)) as string), 'utf8');
    expect(await project('glued')).not.toContain('damaged lines');
    expect(await project('cut')).toContain('title="1 line skipped: see the data-quality page">damaged lines');
  });
});

describe('an extension message that carries an image', () => {
  // Regression: a Pi custom_message's image blocks were read and never shown; only its text was.
  it('shows the image inline with the message, from its data', async () => {
    const at = '2026-10-05T10:00:00.000Z';
    const records = [
      { type: 'session', version: 3, id: 'shot', timestamp: at, cwd: '/work/shot' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: 'Look at the page' } },
      {
        type: 'custom_message', id: 'c1', parentId: 'u1', timestamp: at, customType: 'browser.screenshot', display: true,
        content: [{ type: 'text', text: 'The page as rendered:' }, { type: 'image', data: PNG, mimeType: 'image/png' }],
      },
      { type: 'custom_message', id: 'c2', parentId: 'c1', timestamp: at, customType: 'browser.screenshot', display: false, content: [{ type: 'image', data: PNG, mimeType: 'image/png' }], details: { secret: 'not-for-the-model' } },
    ];
    const html = await pageOfRecords(records);
    expect(html).toContain('The page as rendered:');
    expect(html.match(/<img class="inline-image" src="data:image\/png;base64,iVBORw0KGgo[A-Za-z0-9+/=]+" alt="image \(image\/png\)">/g)).toHaveLength(2);
    // An image-only message shows its image, not the extension's own data in its place.
    expect(html).not.toContain('not-for-the-model');
  });
});

describe('an image whose bytes are not the type it claims, in a --redact report', () => {
  // Regression: --redact dropped its bytes (it could not strip what it could not read) and the
  // page showed a broken image, <img src="data:image/jpeg;base64,">, where it says "not shown".
  it('is said not to be shown, as any image the page cannot show', async () => {
    const at = '2026-10-05T10:00:00.000Z';
    const records = [
      { type: 'session', version: 3, id: 'mismatch', timestamp: at, cwd: '/work/mismatch' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: [{ type: 'text', text: 'See this' }, { type: 'image', data: PNG, mimeType: 'image/jpeg' }] } },
    ];
    const html = await pageOfRecords(records, { redact: true });
    expect(html).not.toContain('base64,"');
    expect(html).toContain('<p class="note">[image of type <code>image/jpeg</code> not shown: its bytes were left out]</p>');
  });
});

describe('an image larger than a page shows', () => {
  // Regression (a review of Pi's content): a 2.4 MB screenshot was said "of type image/png not
  // shown", as if its type were the reason.
  it('says its size and the limit', async () => {
    const at = '2026-10-05T10:00:00.000Z';
    const big = 'A'.repeat(3_240_000);
    const records = [
      { type: 'session', version: 3, id: 'big-image', timestamp: at, cwd: '/work/big' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: [{ type: 'text', text: 'See this' }, { type: 'image', data: big, mimeType: 'image/png' }] } },
    ];
    const html = await pageOfRecords(records);
    expect(html).toContain('<p class="note">[image of type <code>image/png</code> not shown: 2,430 kB, larger than the 1,125 kB a page shows]</p>');
    // One at the limit, wrapped in line breaks, is shown (a hostile look: refused, "2.0 MB").
    const wrapped = 'AAAA  \n'.repeat(375_000);
    const fits = await pageOfRecords([records[0] as object, { ...(records[1] as object), message: { role: 'user', content: [{ type: 'text', text: 'See this' }, { type: 'image', data: wrapped, mimeType: 'image/png' }] } }]);
    expect(fits).toContain(`src="data:image/png;base64,${'A'.repeat(1_500_000)}"`);
  });
});

describe('a project folder named without Latin letters', () => {
  // Regression: its page was `projects/root-…`, as if the project were the file system's root.
  it('gets a page named for a folder, and only the root one named root', async () => {
    const at = '2026-10-05T10:00:00.000Z';
    const dir = await tempDir();
    const session = (id: string, cwd: string) =>
      [
        { type: 'session', version: 3, id, timestamp: at, cwd },
        { type: 'message', id: `${id}-p`, parentId: null, timestamp: at, message: { role: 'user', content: 'hello' } },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n');
    await writeFile(join(dir, 'a.jsonl'), session('cyrillic', '/home/ana/проект'));
    await writeFile(join(dir, 'b.jsonl'), session('root', '/'));
    const report = join(await tempDir(), 'report');
    const { summary: built } = await build({ inputs: [dir], out: report, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const pageOf = (cwd: string) => built.projects.find((p) => p.cwd === cwd)?.page;
    expect(pageOf('/home/ana/проект')).toMatch(/^projects\/folder-[0-9a-f]{8}\.html$/);
    expect(pageOf('/')).toMatch(/^projects\/root-[0-9a-f]{8}\.html$/);
  });
});

// Regression (a browser review): an empty main transcript of a Claude Code session shown from its
// sub-agent's file was listed on the data-quality page with no link to that session's page.
describe('an empty Claude Code main transcript beside its sub-agent', () => {
  it.each([['beside it (before 2.x)', ''], ['above its subagents folder', 'SID/subagents']])('links to the session its sub-agent shows: %s', async (_, under) => {
    const sid = '6323a48e-3984-42eb-8790-2f7811368ab7';
    const input = join(await tempDir(), 'projects', '-w-demo');
    const agentFolder = join(input, under.replace('SID', sid));
    await mkdir(agentFolder, { recursive: true });
    await writeFile(join(input, `${sid}.jsonl`), '');
    const line = (record: object) => JSON.stringify({ isSidechain: true, userType: 'external', cwd: '/w/demo', sessionId: sid, version: '2.0.37', agentId: 'a1', ...record });
    await writeFile(
      join(agentFolder, 'agent-a1.jsonl'),
      [
        line({ parentUuid: null, type: 'user', message: { role: 'user', content: 'find the cart' }, uuid: 'u1', timestamp: '2025-11-14T12:23:09.052Z' }),
        line({ parentUuid: 'u1', type: 'assistant', message: { id: 'm1', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'in src' }], usage: { input_tokens: 10, output_tokens: 5 } }, requestId: 'r1', uuid: 'a1', timestamp: '2025-11-14T12:23:10.052Z' }),
      ].join('\n') + '\n',
    );
    const out = join(await tempDir(), 'report');
    const { summary } = await build({ inputs: [join(input, '..')], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z') });
    const page = summary.sessions[0]?.page as string;
    expect(page).toBeDefined();
    const html = await readFile(join(out, 'data-quality.html'), 'utf8');
    expect(html).toContain(`<a href="${page}">${join(input, `${sid}.jsonl`)}</a>`);
  });

  // Regression (a hostile look): the first try gave a later file whose lines carry this file's
  // session id this file's damaged line; a file read as a session links to its own page.
  it('leaves a file read as a session linked to its own page', async () => {
    const a = 'aaaaaaaa-1111-4111-8111-111111111111';
    const input = join(await tempDir(), 'projects', '-w-demo');
    await mkdir(input, { recursive: true });
    const line = (uuid: string, parent: string | null, time: string, text: string) => JSON.stringify({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/w/demo', sessionId: a, version: '2.1.30', type: 'user', uuid, timestamp: time, message: { role: 'user', content: text } });
    await writeFile(join(input, `${a}.jsonl`), `${line('ua1', null, '2026-10-01T09:00:00.000Z', 'session A')}\n{"type":"user","broken\n`);
    await writeFile(join(input, 'bbbbbbbb-2222-4222-8222-222222222222.jsonl'), `${line('ub1', null, '2026-10-05T09:00:00.000Z', 'file B')}\n`);
    const out = join(await tempDir(), 'report');
    const { summary } = await build({ inputs: [join(input, '..')], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date('2026-12-01T00:00:00Z') });
    const own = summary.sessions.find((s) => s.file === join(input, `${a}.jsonl`))?.page as string;
    expect(own).toBeDefined();
    const html = await readFile(join(out, 'data-quality.html'), 'utf8');
    expect(html).toContain(`<a href="${own}">${join(input, `${a}.jsonl`)}</a>`);
  });
});
