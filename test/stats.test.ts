// `bough stats`: terminal tables and JSON from the same report data as a build, without pages.

import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../src/cli.js';
import { statsSchema, summarySchema } from '../src/report/schema.js';
import { statsTable } from '../src/report/stats-table.js';
import { displayWidth, fitColumns } from '../src/terminal-text.js';
import { FIXTURES, piFixture, SHARED_CORPUS, tempDir } from './support/fixtures.js';

async function run(args: string[], options: { stdoutIsTty?: boolean; env?: Record<string, string> } = {}) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: options.env ?? {},
    home: await tempDir(),
    isTty: false,
    stdoutIsTty: options.stdoutIsTty ?? false,
    now: () => new Date('2026-12-01T00:00:00Z'),
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

const ESC = '\u001b';
const MIDNIGHT = piFixture('across-midnight.jsonl');

describe('bough stats', () => {
  it('counts a session running across midnight on 31 October in each month, in the zone asked for', async () => {
    const october = statsSchema.parse(JSON.parse((await run(['stats', MIDNIGHT, '--tz', 'America/Los_Angeles', '--month', '2026-10', '--json'])).stdout));
    const november = statsSchema.parse(JSON.parse((await run(['stats', MIDNIGHT, '--tz', 'America/Los_Angeles', '--month', '2026-11', '--json'])).stdout));
    expect(october.totals).toMatchObject({ sessions: 1, prompts: 1, replies: 1, tokens: { input: 2000, output: 200 }, cost: { bough: 0.009, recorded: 0.009 } });
    expect(november.totals).toMatchObject({ sessions: 1, prompts: 1, replies: 1, tokens: { input: 3000, output: 300 }, cost: { bough: 0.0135, recorded: 0.0135 } });
    expect(october.period).toEqual({ since: '2026-10-01', until: '2026-10-31', tz: 'America/Los_Angeles', label: 'October 2026', start: '2026-10-01T07:00:00.000Z', end: '2026-11-01T07:00:00.000Z' });
    const utc = statsSchema.parse(JSON.parse((await run(['stats', MIDNIGHT, '--tz', 'UTC', '--by', 'day', '--json'])).stdout));
    expect(utc.rows.map((r) => [r.key, r.prompts])).toEqual([['2026-11-01', 2]]);
  });

  it('prints a table of at most 100 columns, numbers right-aligned with separators and a total row, without colour on a pipe', async () => {
    const { code, stdout } = await run(['stats', join(FIXTURES, 'pi'), '--tz', 'UTC', '--by', 'month']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('bough · All time · UTC · by month');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(100);
    expect(lines[1]).toMatch(/^Month\s+Sessions\s+Prompts\s+.*Input\s+Output\s+Cache read\s+Cache write\s+Cost \(bough\)\s+Recorded$/);
    expect(lines.find((l) => l.startsWith('October 2026'))).toMatch(/\s166,234\s/);
    expect(lines.find((l) => l.startsWith('Total'))).toMatch(/\$1\.20\*\s+\$1\.25$/);
    expect(stdout).toContain('* plus usage of models without a price: its cost is unknown, never $0.');
    expect(stdout).not.toContain(ESC);
  });

  // Regression (a review of the command line): a session on a model newer than the price table,
  // whose agent recorded $25, sorted below sessions of $0.00 ("most expensive first").
  it('sorts a row bough could not price by the cost its agent recorded', async () => {
    const dir = await tempDir();
    const session = (id: string, model: string, cost: number) =>
      [
        { type: 'session', version: 3, id, timestamp: '2026-10-21T09:00:00.000Z', cwd: `/w/${id}` },
        { type: 'message', id: `${id}-u`, parentId: null, timestamp: '2026-10-21T09:00:01.000Z', message: { role: 'user', content: 'go' } },
        { type: 'message', id: `${id}-a`, parentId: `${id}-u`, timestamp: '2026-10-21T09:00:02.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model, usage: { input: 1000, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 1010, cost: { total: cost } }, stopReason: 'stop' } },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n');
    await writeFile(join(dir, 'a.jsonl'), `${session('cheap', 'claude-haiku-4-5', 0.001)}\n`);
    await writeFile(join(dir, 'b.jsonl'), `${session('newer', 'claude-nonexistent-9', 25)}\n`);
    await writeFile(join(dir, 'c.jsonl'), `${session('unknown', 'claude-nonexistent-9', 0)}\n`);
    for (const by of ['session', 'model', 'project']) {
      const json = statsSchema.parse(JSON.parse((await run(['stats', dir, '--by', by, '--json'])).stdout));
      expect(json.rows.map((row) => [row.cost.bough, row.cost.recorded])).toEqual(by === 'model' ? [[null, 25], [0.00105, 0.001]] : [[null, 25], [0.00105, 0.001], [null, 0]]);
    }
  });

  // Regression (a review of Codex): a table of no priced usage, every cost "unknown", footnoted a
  // "*" that no cell showed ("* plus usage of models without a price").
  it('says what "unknown" is, with no footnote of a star, when nothing in the table is priced', async () => {
    const dir = await tempDir();
    const line = (record: object) => JSON.stringify({ timestamp: '2026-10-21T09:00:01.000Z', ...record });
    await writeFile(join(dir, 's.jsonl'), [
      line({ type: 'session', version: 3, id: 's', cwd: '/w' }),
      line({ type: 'message', id: 'u1', parentId: null, message: { role: 'user', content: 'go' } }),
      line({ type: 'message', id: 'a1', parentId: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-nonexistent-9', usage: { input: 1000, output: 100 }, stopReason: 'stop' } }),
    ].join('\n'));
    for (const by of ['model', 'month']) {
      const { stdout } = await run(['stats', dir, '--tz', 'UTC', '--by', by, '--no-cache']);
      expect(stdout.split('\n').find((l) => l.startsWith('Total'))).toMatch(/\sunknown\s/);
      expect(stdout).not.toContain('*');
      expect(stdout).toContain('unknown: usage of models without a price; its cost is never taken for $0.');
    }
  });

  // Regression: a priced model's record with a count that did not read was footnoted as "usage of
  // models without a price".
  it('footnotes usage priced in part as such, not as a model without a price', async () => {
    const dir = await tempDir();
    const line = (record: object) => JSON.stringify({ timestamp: '2026-10-21T09:00:01.000Z', ...record });
    await writeFile(join(dir, 's.jsonl'), [
      line({ type: 'session', version: 3, id: 's', cwd: '/w' }),
      line({ type: 'message', id: 'u1', parentId: null, message: { role: 'user', content: 'go' } }),
      line({ type: 'message', id: 'a1', parentId: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-haiku-4-5', usage: { input: 'lots', output: 100 }, stopReason: 'stop' } }),
    ].join('\n'));
    const { stdout } = await run(['stats', dir, '--tz', 'UTC', '--by', 'model', '--no-cache']);
    expect(stdout.replaceAll('\n', ' ')).toContain('* plus what bough could not price of some usage (a count that did not read, a rate the table lacks): unknown, never $0.');
    // Regression (a review of the command line): this note was 110 columns under a table of 100.
    expect(Math.max(...stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
    expect(stdout).not.toContain('models without a price');
  });

  // Regression: a short label (a day, a week, an agent) was padded to the shortest a cut label may be: 103 columns.
  it.skipIf(!existsSync(SHARED_CORPUS)).each(['day', 'week', 'agent', 'month', 'model', 'project', 'session'])('fits 100 columns by %s, over the shared corpus’s big numbers', async (by) => {
    const { stdout } = await run(['stats', SHARED_CORPUS, '--no-cache', '--tz', 'UTC', '--by', by]);
    expect(Math.max(...stdout.trimEnd().split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
  });

  // Regression: a session with no usage record read "0 0 0 0", as if it had used no tokens.
  it('says "—" for a row with no usage recorded, and what it means', async () => {
    // A session of one prompt, with no usage record.
    const dir = join(FIXTURES, 'cases', 'no-usage');
    const { stdout } = await run(['stats', dir, '--tz', 'UTC', '--by', 'session']);
    expect(stdout.split('\n').find((l) => l.startsWith('Only a prompt'))).toMatch(/\s—\s+—\s+—\s+—\s/);
    expect(stdout).toContain('— no usage recorded (not zero tokens: the agent wrote none).');
  });

  it('colours only a terminal, and never under NO_COLOR', async () => {
    expect((await run(['stats', MIDNIGHT], { stdoutIsTty: true })).stdout).toContain(`${ESC}[1m`);
    expect((await run(['stats', MIDNIGHT], { stdoutIsTty: true, env: { NO_COLOR: '1' } })).stdout).not.toContain(ESC);
  });

  // Regression: a Recorded total of Pi's records alone, beside bough's of every agent's, read as a discount.
  it('says of how many usage records the agents stored a cost, when not of all', async () => {
    const mixed = await run(['stats', join(FIXTURES, 'pi'), join(FIXTURES, 'cases', 'claude-billing')]);
    const json = statsSchema.parse(JSON.parse((await run(['stats', join(FIXTURES, 'pi'), join(FIXTURES, 'cases', 'claude-billing'), '--json'])).stdout));
    expect(json.totals.recordedCostRecords).toBe(55);
    expect(mixed.stdout).toContain(`Recorded: the agents' own cost, for 55 of ${json.totals.usageRecords} usage records only.`);
    expect((await run(['stats', join(FIXTURES, 'pi')])).stdout).not.toContain('Recorded: the agents');
    // The build's last line says it too (a second hostile look: only stats and the index did).
    const built = await run(['build', join(FIXTURES, 'pi'), join(FIXTURES, 'cases', 'claude-billing'), '--out', join(await tempDir(), 'r')]);
    expect(built.stdout).toContain(`recorded, for 55 of ${json.totals.usageRecords} records)`);
    // And every row, model and sub-agent total says it of its own records (regression: the totals only).
    const byAgent = statsSchema.parse(JSON.parse((await run(['stats', join(FIXTURES, 'pi'), join(FIXTURES, 'cases', 'claude-billing'), '--json', '--by', 'agent'])).stdout));
    expect(byAgent.rows.map((row) => [row.key, row.recordedCostRecords]).sort()).toEqual([
      ['claude', 0],
      ['pi', 55],
    ]);
    expect(json.totals.models.reduce((sum, model) => sum + model.recordedCostRecords, 0)).toBe(55);
  });

  // Regression (a review): the table gave no word of sub-agents' spend, which its rows hold.
  it('says how much of the totals sub-agents spent', async () => {
    const claude = join(FIXTURES, 'claude', 'projects');
    const table = (await run(['stats', claude, '--tz', 'UTC'])).stdout;
    const { subagents } = statsSchema.parse(JSON.parse((await run(['stats', claude, '--tz', 'UTC', '--json'])).stdout)).totals;
    const tokens = subagents.tokens.input + subagents.tokens.output + subagents.tokens.cacheRead + subagents.tokens.cacheWrite;
    expect(tokens).toBeGreaterThan(0);
    expect(table).toContain(`Sub-agents: ${tokens.toLocaleString('en-US')} tokens, $${subagents.cost.bough?.toFixed(4)} by bough, of the totals above.`);
    expect((await run(['stats', join(FIXTURES, 'pi', 'minimal-v3.jsonl')])).stdout).not.toContain('Sub-agents:');
  });

  // Regression: TERM=dumb (an editor's shell buffer) got escape codes it shows as text.
  it('does not colour a terminal that says it cannot show colour', async () => {
    expect((await run(['stats', MIDNIGHT], { stdoutIsTty: true, env: { TERM: 'dumb' } })).stdout).not.toContain(ESC);
  });

  it('groups by model, project, agent, session and week', async () => {
    for (const by of ['model', 'project', 'agent', 'session', 'week'] as const) {
      const json = statsSchema.parse(JSON.parse((await run(['stats', join(FIXTURES, 'pi'), '--by', by, '--json'])).stdout));
      const tokens = json.rows.reduce((a, r) => a + r.tokens.input, 0);
      expect({ by, tokens }).toEqual({ by, tokens: json.totals.tokens.input });
    }
  });

  // Regression: by session, rows were first prompts alone ("/mode", "continue"), with no day to tell them apart.
  it('dates each session by the day it started, in the time zone asked for', async () => {
    const table = (await run(['stats', MIDNIGHT, '--by', 'session', '--tz', 'UTC'])).stdout.split('\n');
    expect(table[1]).toMatch(/^Session\s+Started\s/);
    // Regression: columns left out to fit were not said; and Prompts, the count a reader of
    // sessions wants most, went before token counts --json holds.
    expect(table[1]).toMatch(/^Session\s+Started\s+Prompts\s/);
    expect(table).toContain('Left out to fit 100 columns: Replies, Input, Cache read (--json has them).');
    const json = statsSchema.parse(JSON.parse((await run(['stats', MIDNIGHT, '--by', 'session', '--json', '--tz', 'UTC'])).stdout));
    const startedAt = json.rows[0]?.startedAt ?? '';
    expect(json.rows[0]?.project).toBeTypeOf('string');
    // A session row names its project by the project row's key (regression: by its display name, which no row had).
    const projects = statsSchema.parse(JSON.parse((await run(['stats', MIDNIGHT, '--json', '--by', 'project', '--tz', 'UTC'])).stdout)).rows.map((r) => r.key);
    expect(projects).toContain(json.rows[0]?.project);
    expect(table[2]).toContain(startedAt.slice(0, 10));
    const tokyo = (await run(['stats', MIDNIGHT, '--by', 'session', '--tz', 'Asia/Tokyo'])).stdout.split('\n');
    expect(tokyo[2]).toContain(new Date(Date.parse(startedAt) + 9 * 3600_000).toISOString().slice(0, 10));
  });

  it('says an empty period in a sentence and exits 0', async () => {
    const { code, stdout } = await run(['stats', MIDNIGHT, '--month', '2024-01', '--tz', 'UTC']);
    expect(code).toBe(0);
    expect(stdout).toContain('Nothing falls in January 2024 · UTC. The one session read (2026-11-01) lies outside it.');
    // Regression: "Nothing falls in Until 2024-02-29 · UTC."
    expect((await run(['stats', MIDNIGHT, '--until', '2024-02-29', '--tz', 'UTC'])).stdout).toContain('Nothing falls until 2024-02-29 · UTC. The one session read');
    expect((await run(['stats', MIDNIGHT, '--since', '2099-12-31', '--tz', 'UTC'])).stdout).toContain('Nothing falls since 2099-12-31 · UTC. The one session read');
    const json = statsSchema.parse(JSON.parse((await run(['stats', MIDNIGHT, '--month', '2024-01', '--json'])).stdout));
    expect(json.rows).toEqual([]);
    expect(json.totals.sessions).toBe(0);
  });

  // Regression: stats printed totals of damaged files as if every line had been read.
  it('says what it skipped, on stderr and in the JSON, as a build does', async () => {
    const files = ['damaged-lines.jsonl', 'empty.jsonl', 'minimal-v3.jsonl'].map(piFixture);
    const { stdout, stderr } = await run(['stats', ...files, '--json', '--no-cache']);
    const json = statsSchema.parse(JSON.parse(stdout));
    expect(json.diagnostics).toMatchObject({ files: 3, sessionFiles: 2, skippedFiles: 1, skippedLines: 3 });
    expect(json.diagnostics.byReason).toMatchObject({ 'empty-file': 1, 'truncated-line': 1, 'invalid-json': 1 });
    // Regression: the skipped file was counted, never named, for a user of stats alone.
    // Regression (a reader's review): nor was the file whose lines were skipped.
    const lines = `bough: lines skipped in: ${files[0]} (3 lines; line 5: Unterminated string in JSON at position 174; starts "{\\"type\\":\\"message\\",\\"id\\":\\"f0000004\\",\\"parentId\\":\\"f0000003\\",\\"timestamp\\":\\" …").\n`;
    expect(stderr).toBe(`bough: 3 skipped lines and 1 file skipped; \`bough build\` lists them on its data-quality page.\nbough: skipped: ${files[1]} (the file is empty).\n${lines}`);
    expect((await run(['stats', ...files, '--quiet'])).stderr).toBe('');
    expect((await run(['stats', piFixture('minimal-v3.jsonl')])).stderr).toBe('');
  });

  // Regression (an outside review of hostile sizes): 1,500 lines not JSON were "1,001 lines" in
  // the file's line, the problems past those listed one by one being one item with their count.
  it('counts every skipped line of a file, past those listed one by one', async () => {
    const path = join(await tempDir(), 'garbage.jsonl');
    const header = JSON.stringify({ type: 'session', version: 3, id: 'garbage', timestamp: '2026-10-05T10:00:00.000Z', cwd: '/w' });
    await writeFile(path, `${header}\n${'not json at all\n'.repeat(1500)}`);
    const { stderr } = await run(['stats', path, '--no-cache']);
    expect(stderr).toContain('1,500 skipped lines');
    expect(stderr).toContain(`lines skipped in: ${path} (1,500 lines; line 2:`);
  });

  it('regression: a project filter that matched nothing was blamed on the dates; now it names the filter', async () => {
    const { code, stdout } = await run(['stats', MIDNIGHT, '--project', 'no-such-project', '--tz', 'UTC']);
    expect(code).toBe(0);
    expect(stdout).toContain('Nothing falls in all time · UTC · project “no-such-project”: the one session read does not match project “no-such-project”.');
    const dates = await run(['stats', MIDNIGHT, '--source', 'pi', '--month', '2024-01', '--tz', 'UTC']);
    expect(dates.stdout).toContain('The one session read of agent pi (2026-11-01) lies outside it.');
  });

  it.each([
    [['stats', MIDNIGHT, '--month', '2026-13'], /--month wants a month/],
    [['stats', MIDNIGHT, '--since', 'last week'], /--since wants a day/],
    [['stats', MIDNIGHT, '--source', 'cursor'], /--source wants one or more of pi, claude, codex/],
    [['stats', MIDNIGHT, '--by', 'year'], /argument 'year' is invalid/],
    [['build', MIDNIGHT, '--month', '2026-10', '--until', '2026-10-02'], /cannot be combined/],
  ])('exits 2 with a sentence on %j', async (args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  // Regression: commander's refusals read "error: …" and sent the user to `bough --help`, which
  // lists commands, not the option the command takes.
  it.each([
    [['stats', MIDNIGHT, '--by', 'year'], 'stats'],
    [['stats', MIDNIGHT, '--bogus'], 'stats'],
    [['export'], 'export'],
    [['build', MIDNIGHT, '--tz'], 'build'],
  ])('says a refusal in its own voice and names the command’s help: %j', async (args, command) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^bough: /);
    expect(stderr).not.toMatch(/^error:/m);
    expect(stderr).toContain(`(bough ${command} --help says what it takes)`);
  });

  it('narrows build and stats the same way by --project and --source', async () => {
    const out = join(await tempDir(), 'report');
    expect((await run(['build', join(FIXTURES, 'pi'), '--project', 'SHOP-V2', '--out', out, '-q'])).code).toBe(0);
    const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    expect(summary.filters).toEqual({ project: 'SHOP-V2', sources: null });
    expect(summary.projects.map((p) => p.cwd)).toEqual(['/home/ana/projects/shop-v2']);
    const stats = statsSchema.parse(JSON.parse((await run(['stats', join(FIXTURES, 'pi'), '--project', 'SHOP-V2', '--json'])).stdout));
    expect(stats.totals).toEqual(summary.totals);
    const none = statsSchema.parse(JSON.parse((await run(['stats', join(FIXTURES, 'pi'), '--source', 'codex', '--json'])).stdout));
    expect(none.totals.sessions).toBe(0);
    expect((await run(['stats', join(FIXTURES, 'pi'), '--source', 'codex'])).stdout).toMatch(/Nothing falls in all time · UTC · agent codex: none of the \d+ sessions read matches agent codex\./);
  });

  // Regressions (an outside review of the outputs): `--project old` kept the sessions of no folder,
  // matching its label "(unknown folder)"; a project known by its agent's folder was keyed
  // "folder:claude:-home-u-shop" in stats, blank in usage.csv, and by its name alone in
  // summary.json; a session whose cwd was "\u0000unknown" was counted in the unknown project.
  it('keys projects by their folder in every output, and matches only folders and names', async () => {
    const folder = await tempDir();
    const at = '2026-10-05T10:00:00.000Z';
    const pi = (id: string, cwd: string | undefined, input: number) =>
      [
        { type: 'session', version: 3, id, timestamp: at, ...(cwd === undefined ? {} : { cwd }) },
        { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: `work ${id}` } },
        { type: 'message', id: 'a1', parentId: 'u1', timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 } } },
      ].map((line) => JSON.stringify(line)).join('\n') + '\n';
    await writeFile(join(folder, 'old-site.jsonl'), pi('old-site', '/home/u/old-site', 1000));
    await writeFile(join(folder, 'no-folder.jsonl'), pi('no-folder', undefined, 2000));
    await writeFile(join(folder, 'nul-folder.jsonl'), pi('nul-folder', '\u0000unknown', 3000));
    const claude = join(folder, 'projects', '-home-u-shop');
    await mkdir(claude, { recursive: true });
    const id = '33333333-2222-4333-8444-555555555555';
    await writeFile(
      join(claude, `${id}.jsonl`),
      [
        { parentUuid: null, isSidechain: false, sessionId: id, uuid: 'c1', timestamp: at, type: 'user', message: { role: 'user', content: 'no cwd here' } },
        { parentUuid: 'c1', isSidechain: false, sessionId: id, uuid: 'c2', timestamp: at, type: 'assistant', requestId: 'req_1', message: { model: 'claude-sonnet-4-5', id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 4000, output_tokens: 10 } } },
      ].map((line) => JSON.stringify(line)).join('\n') + '\n',
    );
    const rows = async (...more: string[]) => {
      const { code, stdout } = await run(['stats', folder, '--by', 'project', '--json', '--no-cache', '--tz', 'UTC', ...more]);
      expect(code).toBe(0);
      return statsSchema.parse(JSON.parse(stdout)).rows.map((row) => [row.key, row.tokens.input]);
    };
    expect((await rows()).sort()).toEqual([['(unknown)', 2000], ['-home-u-shop', 4000], ['/home/u/old-site', 1000], ['\u0000unknown', 3000]].sort());
    for (const text of ['old', 'folder', 'unknown']) {
      expect({ text, rows: (await rows('--project', text)).sort() }).toEqual({ text, rows: text === 'old' ? [['/home/u/old-site', 1000]] : text === 'unknown' ? [['\u0000unknown', 3000]] : [] });
    }
    expect(await rows('--project', 'u-shop')).toEqual([['-home-u-shop', 4000]]);
    // Regression (a review of the command line): the project of no folder could not be chosen at
    // all; its label, whole, in any case, chooses it (and only it).
    // And its key in these rows (a contract review: a script handing a row's key back lost it).
    for (const text of ['(unknown folder)', ' (Unknown Folder) ', '(unknown)']) expect(await rows('--project', text)).toEqual([['(unknown)', 2000]]);
    const out = join(await tempDir(), 'report');
    expect((await run(['build', folder, '--out', out, '-q', '--no-cache', '--tz', 'UTC'])).code).toBe(0);
    const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    expect(summary.projects.map((p) => [p.cwd, p.folder, p.name]).sort()).toEqual(
      [
        [null, null, '(unknown folder)'],
        [null, '-home-u-shop', '-home-u-shop (folder name)'],
        ['/home/u/old-site', null, 'old-site'],
        ['\u0000unknown', null, '\u0000unknown'],
      ].sort(),
    );
    const csv = (await readFile(join(out, 'usage.csv'), 'utf8')).trimEnd().split('\n');
    const column = (csv[0] as string).split(',').indexOf('project');
    // (A cell opening with "-" is kept from a spreadsheet's formulas by an apostrophe; a NUL is shown as U+FFFD.)
    expect(csv.slice(1).map((row) => row.split(',')[column]).sort()).toEqual(['', "'-home-u-shop", '/home/u/old-site', '\ufffdunknown'].sort());
  });

  // Regression (an outside review of the outputs): a model whose provider was not recorded was
  // keyed "/claude-sonnet-4-5" where the table says "?/claude-sonnet-4-5", and a provider or model
  // holding a "/" could be taken for another pair ("a/b" + "c" and "a" + "b/c").
  it('keys a model as its table names it, and keeps pairs apart whatever their slashes', async () => {
    const folder = await tempDir();
    const at = '2026-10-05T10:00:00.000Z';
    const lines = [
      { type: 'session', version: 3, id: 'models', timestamp: at, cwd: '/home/u/models' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: 'go' } },
    ];
    const replies: [string | undefined, string, number][] = [[undefined, 'claude-sonnet-4-5', 1000], ['a/b', 'c', 2000], ['a', 'b/c', 3000]];
    replies.forEach(([provider, model, input], n) => {
      lines.push({ type: 'message', id: `a${n}`, parentId: n === 0 ? 'u1' : `a${n - 1}`, timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: `ok ${n}` }], ...(provider === undefined ? {} : { provider }), model, usage: { input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 } } } as never);
    });
    await writeFile(join(folder, 'models.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const { code, stdout } = await run(['stats', folder, '--by', 'model', '--json', '--no-cache', '--tz', 'UTC']);
    expect(code).toBe(0);
    expect(statsSchema.parse(JSON.parse(stdout)).rows.map((row) => [row.key, row.tokens.input]).sort()).toEqual([['?/claude-sonnet-4-5', 1000], ['a/b/c', 2000], ['a/b/c', 3000]].sort());
  });

  // Regression (an outside review of the command line): a folder macOS named in decomposed form
  // (café as "cafe" and an accent) was not matched by `--project café` typed composed, nor the
  // other way round, in stats and in a build with --share (which matches as its files are read).
  it('matches a project whose folder and --project spell an accent differently', async () => {
    const folder = await tempDir();
    const composed = '/Users/zo\u00eb/caf\u00e9-app';
    const decomposed = composed.normalize('NFD');
    const at = '2026-10-05T10:00:00.000Z';
    const session = (id: string, cwd: string) =>
      [
        { type: 'session', version: 3, id, timestamp: at, cwd },
        { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: 'hi' } },
        { type: 'message', id: 'a1', parentId: 'u1', timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100 } } },
      ].map((line) => JSON.stringify(line)).join('\n') + '\n';
    await writeFile(join(folder, 'nfd.jsonl'), session('nfd', decomposed));
    await writeFile(join(folder, 'nfc.jsonl'), session('nfc', composed));
    // One project, whichever way its folder was written (regression, a hostile look: two rows).
    const projects = await run(['stats', folder, '--by', 'project', '--json', '--no-cache', '--tz', 'UTC']);
    expect(statsSchema.parse(JSON.parse(projects.stdout)).rows.map((row) => row.sessions)).toEqual([2]);
    for (const typed of ['caf\u00e9', 'CAFE\u0301']) {
      const { code, stdout } = await run(['stats', folder, '--project', typed, '--json', '--no-cache', '--tz', 'UTC']);
      expect({ typed, code, sessions: statsSchema.parse(JSON.parse(stdout)).totals.sessions }).toEqual({ typed, code: 0, sessions: 2 });
      const out = join(await tempDir(), 'report');
      expect((await run(['build', folder, '--project', typed, '--share', '--out', out, '-q', '--no-cache', '--tz', 'UTC'])).code).toBe(0);
      const summary = summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
      expect({ typed, shared: summary.totals.sessions }).toEqual({ typed, shared: 2 });
    }
  });

  // Regression: a Claude Code session file given alone left out its sub-agents, which `export`
  // of the same file counted (and its folder too): $1.97 where they said $5.45.
  it('counts a Claude Code session given alone with its sub-agents beside it, as its folder does, and no one else’s', async () => {
    const folder = join(FIXTURES, 'claude', 'projects', '-home-ana-shop');
    const id = '11111111-1111-4111-8111-111111111111';
    const rowOf = async (input: string) => {
      const { code, stdout } = await run(['stats', input, '--json', '--by', 'session', '--tz', 'UTC', '--no-cache']);
      expect(code).toBe(0);
      return statsSchema.parse(JSON.parse(stdout)).rows;
    };
    const alone = await rowOf(join(folder, `${id}.jsonl`));
    const inFolder = (await rowOf(folder)).filter((row) => row.key.includes(id));
    expect(alone).toEqual(inFolder);
    // Its nested sub-agent and its flat one (agent-5e5e5e5e), not the other session's (agent-0c0ffee0).
    expect(alone).toHaveLength(1);
    const { stdout } = await run(['stats', join(folder, `${id}.jsonl`), '--json', '--tz', 'UTC', '--no-cache']);
    expect(statsSchema.parse(JSON.parse(stdout)).totals.subagents.usageRecords).toBe(2);
  });

  // Regression (outside review): a flat sub-agent file's session was read from its first 16 kB by
  // a pattern, so one whose keys come in another order after a long first prompt was no one's.
  it('finds a flat sub-agent file’s session by its records, whatever their key order and length', async () => {
    const folder = join(FIXTURES, 'claude', 'projects', '-home-ana-shop');
    const id = '11111111-1111-4111-8111-111111111111';
    const copy = join(await tempDir(), 'shop');
    await cp(folder, copy, { recursive: true });
    const flat = join(copy, 'agent-5e5e5e5e.jsonl');
    const records = (await readFile(flat, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const sorted = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(sorted) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, sorted(v)])) : value;
    const first = records[0] as { message: { content: unknown } };
    first.message.content = `${'Look through every file under src/. '.repeat(1000)}`;
    await writeFile(flat, `${records.map((record) => JSON.stringify(sorted(record))).join('\n')}\n`);
    const { stdout } = await run(['stats', join(copy, `${id}.jsonl`), '--json', '--tz', 'UTC', '--no-cache']);
    expect(statsSchema.parse(JSON.parse(stdout)).totals.subagents.usageRecords).toBe(2);
  });

  // Regression: a session file renamed by hand (a copy kept as notes.jsonl) was taken as having no
  // sub-agents: Claude Code names the folder of a session's sub-agents by the id inside the file.
  it('counts a renamed Claude Code session file given alone with the sub-agents its id names', async () => {
    const folder = join(FIXTURES, 'claude', 'projects', '-home-ana-shop');
    const id = '11111111-1111-4111-8111-111111111111';
    const copy = join(await tempDir(), 'shop');
    await cp(join(folder, id), join(copy, id), { recursive: true });
    await cp(join(folder, `${id}.jsonl`), join(copy, 'kept-as-notes.jsonl'));
    const { stdout } = await run(['stats', join(copy, 'kept-as-notes.jsonl'), '--json', '--tz', 'UTC', '--no-cache']);
    expect(statsSchema.parse(JSON.parse(stdout)).totals.subagents.usageRecords).toBe(1);
  });

  // Regression: by model, a session in the period whose reply recorded no usage was said to lie outside it.
  it('says sessions in the period recorded no usage when no row can be made of them', async () => {
    const dir = await tempDir();
    const lines = [
      { type: 'session', version: 3, id: 'e7', timestamp: '2026-11-30T10:00:00.000Z', cwd: '/p/e7' },
      { type: 'message', id: 'u1', parentId: null, timestamp: '2026-11-30T10:00:01.000Z', message: { role: 'user', content: 'hi' } },
      { type: 'message', id: 'a1', parentId: 'u1', timestamp: '2026-11-30T10:00:02.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', usage: {} } },
    ];
    await writeFile(join(dir, 's.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const { stdout } = await run(['stats', dir, '--by', 'model', '--tz', 'UTC', '--no-cache']);
    expect(stdout).toBe('bough · All time · UTC · by model\nThe one session in it recorded no usage: nothing to show by model.\n');
  });

  it('exits 1 when there are no sessions to count', async () => {
    const { code, stderr } = await run(['stats', piFixture('not-a-session.jsonl')]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/is not a session file bough can read/);
  });
});

describe('the stats table', () => {
  it('shows control characters from session titles as "?", never as escape sequences', () => {
    const text = statsTable(
      {
        period: { since: null, until: null, tz: 'UTC', label: 'all time', start: null, end: null },
        filters: { project: null, sources: null },
        by: 'session',
        totals: { sessions: 1, projects: 1, prompts: 1, replies: 0, errorReplies: 0, abortedReplies: 0, usageRecords: 0, outputPossiblyPartialRecords: 0, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 }, cost: { bough: null, recorded: null }, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0, unpricedModels: [], partiallyPricedModels: [], subagents: { tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 }, cost: { bough: null, recorded: null }, usageRecords: 0, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0, partiallyPricedRecords: 0 }, models: [] },
        rows: [{ key: 'k', label: `evil ${ESC}]0;pwned${ESC}\\ title`, sessions: 1, prompts: 1, replies: 0, errorReplies: 0, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 }, cost: { bough: null, recorded: null }, usageRecords: 0, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0 }],
        diagnostics: { files: 1, sessionFiles: 1, goneFiles: 0, unreadFiles: 0, skippedFiles: 0, skippedLines: 0, byReason: {} },
      },
      { colour: false, width: 100, emptySentence: '' },
    );
    expect(text).not.toContain(ESC);
    expect(text).toContain('evil ?]0;pwned?\\ title');
  });

  // Regression: a CJK character was measured as one column, so a Chinese project's row was 107
  // columns wide, its numbers under the wrong headings; and "Tokens shortened" was said of "34".
  it('measures labels by the columns a terminal draws', () => {
    const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 };
    const tokens = { ...zero, input: 1234, output: 34, cacheRead: 98765 };
    const row = (label: string) => ({ key: label, label, sessions: 1, prompts: 3, replies: 3, errorReplies: 0, tokens, cost: { bough: 0.5, recorded: null }, usageRecords: 3, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0 });
    const labels = ['项目报告测试工程项目报告测试工程项目报告测试工程项目报告', 'ascii-project', '🚀rocket-🔥-project', 'Café au lait'];
    const text = statsTable(
      {
        period: { since: null, until: null, tz: 'UTC', label: 'all time', start: null, end: null },
        filters: { project: null, sources: null },
        by: 'project',
        totals: { sessions: 4, projects: 4, prompts: 12, replies: 12, errorReplies: 0, abortedReplies: 0, usageRecords: 12, outputPossiblyPartialRecords: 0, tokens, cost: { bough: 2, recorded: null }, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0, unpricedModels: [], partiallyPricedModels: [], subagents: { tokens: zero, cost: { bough: null, recorded: null }, usageRecords: 0, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0, partiallyPricedRecords: 0 }, models: [] },
        rows: labels.map(row),
        diagnostics: { files: 4, sessionFiles: 4, goneFiles: 0, unreadFiles: 0, skippedFiles: 0, skippedLines: 0, byReason: {} },
      },
      { colour: false, width: 100, emptySentence: '' },
    );
    const lines = text.split('\n').slice(1, 6);
    const wide = (line: string) => [...line].reduce((n, ch) => n + (/[\u4e00-\u9fff]|\p{Extended_Pictographic}/u.test(ch) ? 2 : 1), 0);
    // Every row ends its last number at the heading's last column.
    expect(new Set(lines.map(wide)).size).toBe(1);
    expect(Math.max(...lines.map(wide))).toBeLessThanOrEqual(100);
    expect(text).toContain('项目报告测试工程');
  });

  // Regression (a money review): three rows of $1.00 over a total of $3.01, said without a word.
  it('says so where the costs as shown do not add up to the total shown', () => {
    const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 };
    const table = (costs: (number | null)[]) => {
      const total = costs.reduce<number>((a, b) => a + (b ?? 0), 0);
      const row = (cost: number | null, n: number) => ({ key: `p${n}`, label: `project ${n}`, sessions: 1, prompts: 1, replies: 1, errorReplies: 0, tokens: { ...zero, output: 1000 }, cost: { bough: cost, recorded: null }, usageRecords: 1, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0 });
      return statsTable(
        {
          period: { since: null, until: null, tz: 'UTC', label: 'all time', start: null, end: null },
          filters: { project: null, sources: null },
          by: 'project',
          totals: { sessions: costs.length, projects: costs.length, prompts: costs.length, replies: costs.length, errorReplies: 0, abortedReplies: 0, usageRecords: costs.length, outputPossiblyPartialRecords: 0, tokens: { ...zero, output: 1000 * costs.length }, cost: { bough: total, recorded: null }, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0, unpricedModels: [], partiallyPricedModels: [], subagents: { tokens: zero, cost: { bough: null, recorded: null }, usageRecords: 0, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0, partiallyPricedRecords: 0 }, models: [] },
          rows: costs.map(row),
          diagnostics: { files: costs.length, sessionFiles: costs.length, goneFiles: 0, unreadFiles: 0, skippedFiles: 0, skippedLines: 0, byReason: {} },
        },
        { colour: false, width: 100, emptySentence: '' },
      );
    };
    const apart = table([1.00401, 1.00401, 1.00401]);
    expect(apart).toContain('Costs rounded one by one: the rows as shown add up to $3.00; the exact sum is $3.01.');
    // Figures under a dollar show four places: $0.0130 and $1.65 add up to $1.663, shown $1.66.
    expect(table([1.65, 0.013])).not.toContain('rounded one by one');
    expect(table([1.654, 0.013])).toContain('add up to $1.66; the exact sum is $1.67.');
    // Regression (an outputs review): a month with no usage, shown "—", dropped the note.
    expect(table([1.00401, null, 1.00401, 1.00401])).toContain('the rows as shown add up to $3.00; the exact sum is $3.01.');
    expect(table([1.00401, null])).not.toContain('rounded one by one');
  });

  // Regression (an outputs review): a model's fast-mode row was cut before "(fast mode)" and read
  // as its standard row.
  it('keeps a label’s mark in brackets when it cuts the name before it', () => {
    const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 };
    const tokens = { ...zero, input: 123_456_789, output: 9_876_543, cacheRead: 987_654_321 };
    const row = (label: string) => ({ key: label, label, sessions: 1, prompts: null, replies: null, errorReplies: null, tokens, cost: { bough: 1234.5, recorded: null }, usageRecords: 3, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0 });
    const text = statsTable(
      {
        period: { since: null, until: null, tz: 'UTC', label: 'all time', start: null, end: null },
        filters: { project: null, sources: null },
        by: 'model',
        totals: { sessions: 1, projects: 1, prompts: 1, replies: 2, errorReplies: 0, abortedReplies: 0, usageRecords: 6, outputPossiblyPartialRecords: 0, tokens, cost: { bough: 2469, recorded: null }, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0, unpricedModels: [], partiallyPricedModels: [], subagents: { tokens: zero, cost: { bough: null, recorded: null }, usageRecords: 0, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0, partiallyPricedRecords: 0 }, models: [] },
        rows: [row('anthropic/claude-sonnet-4-5-20250929 (fast mode)'), row('anthropic/claude-sonnet-4-5-20250929')],
        diagnostics: { files: 1, sessionFiles: 1, goneFiles: 0, unreadFiles: 0, skippedFiles: 0, skippedLines: 0, byReason: {} },
      },
      { colour: false, width: 50, emptySentence: '' },
    );
    const lines = text.split('\n').filter((line) => line.startsWith('anthropic/'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^anthropic\/claude-\S*… \(fast mode\)/);
    expect(lines[1]).not.toContain('fast');
  });

  it('says token counts were shortened only when one was (regression: said under a table of 34 and 0)', () => {
    const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 };
    const table = (output: number) => {
      const tokens = { ...zero, output };
      return statsTable(
        {
          period: { since: null, until: null, tz: 'UTC', label: 'all time', start: null, end: null },
          filters: { project: null, sources: null },
          by: 'session',
          totals: { sessions: 1, projects: 1, prompts: 1, replies: 1, errorReplies: 0, abortedReplies: 0, usageRecords: 1, outputPossiblyPartialRecords: 0, tokens, cost: { bough: 0, recorded: 0 }, recordedCostRecords: 1, webSearches: 0, unpricedRecords: 0, unpricedModels: [], partiallyPricedModels: [], subagents: { tokens: zero, cost: { bough: null, recorded: null }, usageRecords: 0, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0, partiallyPricedRecords: 0 }, models: [] },
          rows: [{ key: 'k', label: 'How many lines does README.md have?', sessions: 1, prompts: 1, replies: 1, errorReplies: 0, tokens, cost: { bough: 0, recorded: 0 }, usageRecords: 1, recordedCostRecords: 0, webSearches: 0, unpricedRecords: 0, startedAt: '2026-11-30T10:00:00.000Z' }],
          diagnostics: { files: 1, sessionFiles: 1, goneFiles: 0, unreadFiles: 0, skippedFiles: 0, skippedLines: 0, byReason: {} },
        },
        { colour: false, width: 100, emptySentence: '' },
      );
    };
    expect(table(34)).not.toContain('Tokens shortened');
    expect(table(1_234_567)).toContain('Tokens shortened to fit');
  });
});

// Regression (a cli review): a family emoji (seven code points joined) took eight columns of a
// table's reckoning where a terminal draws two, and its row's columns fell out of line.
describe('terminal columns', () => {
  it('counts a joined emoji, a flag and an accented letter as a terminal draws them', () => {
    expect(displayWidth('👩‍👩‍👧‍👦 shop')).toBe(7);
    expect(displayWidth('🇩🇪')).toBe(2);
    expect(displayWidth('👍🏽')).toBe(2);
    expect(displayWidth('e\u0301te\u0301')).toBe(3);
    expect(displayWidth('漢字')).toBe(4);
    expect(fitColumns('ab👩‍👩‍👧‍👦cd', 3)).toBe('ab');
    expect(fitColumns('ab👩‍👩‍👧‍👦cd', 4)).toBe('ab👩‍👩‍👧‍👦');
  });
});
