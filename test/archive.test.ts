// Rebuilding into the same report folder keeps the sessions whose files are gone (Claude Code
// deletes transcripts after 30 days): their numbers stay in the totals, their pages stay and say
// so; --forget-missing drops them; an archive that does not read right is not trusted.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { archivedLedgerPath, keptTranscripts, pathHash, RECORDS_PATH } from '../src/archive.js';
import { build } from '../src/build.js';
import { parsePeriod, type Scope } from '../src/ledger/scope.js';
import { summarySchema, type Summary } from '../src/report/schema.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';
import { liveMarkup } from './support/html.js';
import { runCli } from './support/cli.js';

/** What a build says the archive keeps of these sessions: a start of Claude Code never given a prompt apart. */
const sessionCountOf = (sessions: Summary['sessions']) => ({ sessions: sessions.filter((s) => s.warmupOnly !== true).length, warmupStarts: sessions.filter((s) => s.warmupOnly === true).length });

async function setUp(fixtures: string) {
  const input = join(await tempDir(), 'in');
  await cp(fixtures, input, { recursive: true });
  const out = join(await tempDir(), 'report');
  const run = async (more: { forgetMissing?: boolean; inputs?: string[]; day?: number; scope?: Scope } = {}): Promise<Summary> => {
    await build({
      inputs: more.inputs ?? [input],
      out,
      scope: more.scope ?? ALL_UTC,
      environment: { env: {}, home: '/nonexistent' },
      now: new Date(Date.UTC(2026, 11, more.day ?? 1)),
      forgetMissing: more.forgetMissing ?? false,
    });
    return JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
  };
  return { input, out, run };
}

/**
 * A report built on day 1 from the Pi fixtures, then again on day 5 after tools.jsonl was
 * removed: `gone` is that session as the first build summed it up.
 */
async function withGoneSession() {
  const setup = await setUp(join(FIXTURES, 'pi'));
  const first = await setup.run();
  const gone = first.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
  await rm(join(setup.input, 'tools.jsonl'));
  const second = await setup.run({ day: 5 });
  return { ...setup, first, gone, second };
}

/** Rewrites the archive's ledger files as builds before 2026-12-06 wrote them: without their session's record. */
async function asEarlierLedgerFiles(out: string): Promise<void> {
  for (const name of (await readdir(join(out, 'archive'))).filter((file) => file.endsWith('.ledger.json.gz'))) {
    const path = join(out, 'archive', name);
    const { record: _record, ...earlier } = JSON.parse(gunzipSync(await readFile(path)).toString('utf8')) as { record?: unknown };
    await writeFile(path, gzipSync(JSON.stringify(earlier)));
  }
}

/** Touches another input (dated `day`), so that the next build reads the archive rather than keep the last report whole. */
async function touchAnotherInput(input: string, day: number): Promise<void> {
  const at = new Date(Date.UTC(2026, 11, day));
  await utimes(join(input, 'minimal-v3.jsonl'), at, at);
}

describe('the archive', () => {
  // Regression (a review of warm rebuilds): a Codex parent thread whose file was gone counted after
  // the child it spawned, which replays its history: the child took the parent's prompts, and its
  // spend moved to the child's day as sub-agent spend.
  it('counts a gone Codex parent before the child that replays it, as when its file was read', async () => {
    const parentId = '0195cccc-0000-7000-8000-0000000000a1';
    const childId = '0195cccc-0000-7000-8000-0000000000c1';
    const meta = (id: string, at: string, source: object | string) => ({ timestamp: at, type: 'session_meta', payload: { id, timestamp: at, cwd: '/work/demo', originator: 'codex_cli_rs', cli_version: '0.125.0', source, model_provider: 'openai' } });
    const turn = (n: number, at: string, prompt: string) => [
      { timestamp: at, type: 'turn_context', payload: { turn_id: `turn-${n}`, cwd: '/work/demo', model: 'gpt-5' } },
      { timestamp: at, type: 'event_msg', payload: { type: 'user_message', message: prompt } },
      { timestamp: at, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: 1000 * n, cached_input_tokens: 0, output_tokens: 100 * n, reasoning_output_tokens: 0, total_tokens: 1100 * n }, last_token_usage: { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 100, reasoning_output_tokens: 0, total_tokens: 1100 } } } },
    ];
    const parent = [meta(parentId, '2026-10-07T10:00:00.000Z', 'cli'), ...turn(1, '2026-10-07T10:01:00.000Z', 'First'), ...turn(2, '2026-10-07T10:02:00.000Z', 'Second')];
    // Spawned on another day, it replays its parent's history re-stamped at its spawn (codex.md §9), then works.
    const spawnedAt = '2026-11-02T12:00:00.000Z';
    const child = [meta(childId, spawnedAt, { subagent: { thread_spawn: { parent_thread_id: parentId, depth: 1 } } }), ...parent.map((line) => ({ ...line, timestamp: spawnedAt })), ...turn(3, '2026-11-02T12:01:00.000Z', 'Child work')];
    const dir = await tempDir();
    const write = async (path: string, lines: readonly object[]) => {
      await mkdir(join(dir, dirname(path)), { recursive: true });
      await writeFile(join(dir, path), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    };
    await write(`sessions/2026/10/07/rollout-2026-10-07T10-00-00-${parentId}.jsonl`, parent);
    await write(`sessions/2026/11/02/rollout-2026-11-02T12-00-00-${childId}.jsonl`, child);
    const { input, run } = await setUp(dir);
    const first = await run();
    expect(first.months.map((month) => [month.key, month.prompts])).toEqual([['2026-10', 2], ['2026-11', 0]]);
    await rm(join(input, 'sessions', '2026', '10', '07'), { recursive: true });
    const second = await run({ day: 5 });
    expect(second.sessions.find((session) => session.file.endsWith(`${parentId}.jsonl`))?.sourceLastSeen).not.toBeNull();
    expect(second.totals).toEqual(first.totals);
    expect(second.months).toEqual(first.months);
  });

  // Regression: a kept page's link to the session after it led nowhere once that session's file
  // moved (its page is named by its path), and a session started later was never linked.
  it('links a kept page to its neighbours as this report has them', async () => {
    await keptPageLinks(false);
  });

  // Regression from a second look: a kept page written with no neighbours got none later.
  it('links a kept page written alone to a session started since', async () => {
    await keptPageLinks(true);
  });

  async function keptPageLinks(alone: boolean): Promise<void> {
    const input = join(await tempDir(), 'in');
    const out = join(await tempDir(), 'report');
    const session = async (folder: string, n: number) => {
      const at = `2026-11-0${n}T10:00:00.000Z`;
      const lines = [
        { type: 'session', version: 3, id: `0000000${n}-0000-4000-8000-000000000001`, timestamp: at, cwd: '/work/shop' },
        { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: [{ type: 'text', text: `task ${n}` }] } },
      ];
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, `s${n}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    };
    const run = async (day: number) => {
      await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
      return summarySchema.parse(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    };
    if (alone) {
      await session(input, 1);
      await run(1);
      await rm(join(input, 's1.jsonl'));
      await session(input, 2);
      const summary = await run(2);
      const kept = summary.sessions.find((s) => s.file.endsWith('s1.jsonl'));
      const later = summary.sessions.find((s) => s.file.endsWith('s2.jsonl'));
      expect(kept?.sourceLastSeen).not.toBeNull();
      const page = await readFile(join(out, kept?.page as string), 'utf8');
      const next = /<a rel="next" href="([^"]+)"/.exec(page)?.[1];
      expect(next && join(dirname(join(out, kept?.page as string)), next)).toBe(join(out, later?.page as string));
      return;
    }
    for (const n of [1, 2, 3]) await session(input, n);
    await run(1);
    await rm(join(input, 's2.jsonl'));
    await run(2);
    await mkdir(join(input, 'moved'));
    await rename(join(input, 's3.jsonl'), join(input, 'moved', 's3.jsonl'));
    await session(input, 4);
    const summary = await run(3);
    const kept = summary.sessions.find((s) => s.file.endsWith('s2.jsonl'));
    const later = summary.sessions.find((s) => s.file.endsWith('s3.jsonl'));
    const page = await readFile(join(out, kept?.page as string), 'utf8');
    const hrefs = [...page.matchAll(/<a rel="(prev|next)" href="([^"]+)"/g)].map((m) => [m[1], join(dirname(join(out, kept?.page as string)), m[2] as string)]);
    expect(hrefs.map(([rel]) => rel)).toEqual(['prev', 'next']);
    for (const [, target] of hrefs) expect(existsSync(target as string), target).toBe(true);
    expect(hrefs[1]?.[1]).toBe(join(out, later?.page as string));
  }

  // Regression (an archive review): a --month build of another --tz renamed a session's page (pages
  // are named by their day in the report's zone) and removed the old one, while the page of the
  // session before it, outside the month and carried as it was, still linked there: a dead link.
  it('keeps the links of a page carried by a narrower build of another zone', async () => {
    const input = join(await tempDir(), 'in');
    const out = join(await tempDir(), 'report');
    const session = async (n: number, at: string) => {
      const lines = [
        { type: 'session', version: 3, id: `0000000${n}-0000-4000-8000-000000000001`, timestamp: at, cwd: '/work/shop' },
        { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: [{ type: 'text', text: `task ${n}` }] } },
      ];
      await mkdir(input, { recursive: true });
      await writeFile(join(input, `s${n}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    };
    // 02:00 UTC: the day before in Los Angeles.
    await session(1, '2026-10-31T02:00:00.000Z');
    await session(2, '2026-11-03T02:00:00.000Z');
    const environment = { env: {}, home: '/nonexistent' };
    const whole = await build({ inputs: [input], out, scope: ALL_UTC, environment, now: new Date(Date.UTC(2026, 11, 1)) });
    const carried = whole.summary.sessions.find((s) => s.file.endsWith('s1.jsonl'))?.page as string;
    const timeZone = 'America/Los_Angeles';
    const november = await build({ inputs: [input], out, scope: { ...ALL_UTC, timeZone, period: parsePeriod({ month: '2026-11' }, timeZone) }, environment, now: new Date(Date.UTC(2026, 11, 2)) });
    expect(november.sessionsCarried).toEqual({ sessions: 1, warmupStarts: 0 });
    const page = await readFile(join(out, carried), 'utf8');
    const next = /<a rel="next" href="([^"]+)"/.exec(page)?.[1] as string;
    expect(existsSync(join(dirname(join(out, carried)), next))).toBe(true);
    expect(join(dirname(join(out, carried)), next)).toBe(join(out, november.summary.sessions[0]?.page as string));
  });

  // Regression: a kept page said "Report covers All time · UTC" inside a report of another zone,
  // with nothing to say that this report covers something else.
  it('says on a kept page that its period and zone are the earlier build’s, and what this report covers', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    const gone = first.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
    await rm(join(input, 'tools.jsonl'));
    const second = await run({ day: 5, scope: { ...ALL_UTC, timeZone: 'Asia/Tokyo' } });
    const page = await readFile(join(out, second.sessions.find((s) => s.key === gone?.key)?.page as string), 'utf8');
    expect(page).toContain("the period, time zone and numbers it shows are that build's");
    expect(page).toContain('This report covers all time · Asia/Tokyo');
  });

  it('keeps a session whose file is gone: in the totals, its page kept with a note, marked in lists', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    const gone = first.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
    expect(gone).toBeDefined();
    await rm(join(input, 'tools.jsonl'));
    const second = await run({ day: 5 });
    expect(second.totals.tokens).toEqual(first.totals.tokens);
    expect(second.totals.cost).toEqual(first.totals.cost);
    expect(second.sessions.length).toBe(first.sessions.length);
    // Counted as gone, not as read: no file is "skipped" that was never there.
    expect(first.diagnostics.goneFiles).toBe(0);
    summarySchema.parse(second);
    expect(second.diagnostics).toMatchObject({ files: first.diagnostics.files - 1, sessionFiles: first.diagnostics.sessionFiles - 1, goneFiles: 1, skippedFiles: first.diagnostics.skippedFiles });
    const kept = second.sessions.find((s) => s.key === gone?.key);
    expect(kept?.sourceLastSeen).toBe('2026-12-01T00:00:00.000Z');
    expect(kept?.page).toBe(gone?.page);
    const page = await readFile(join(out, kept?.page as string), 'utf8');
    expect(page).toContain("This session's source file is no longer present (last seen 2026-12-01");
    // Regression: it said "its numbers still count", under figures priced by that earlier build.
    expect(page).toContain("and so is the cost, as that build priced it. This report covers all time · UTC, and counts the session's usage there at its own prices.");
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('file gone');
    expect(await readFile(join(out, 'index.html'), 'utf8')).toMatch(/from \d+ session files, with 1 session file gone or no longer read since an earlier build kept from it\./);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('1 session file gone or no longer read, kept from an earlier build');
    // Still findable: the search index holds what it held of the session.
    const shards = async () => (await Promise.all((await readdir(join(out, 'search'))).map((f) => readFile(join(out, 'search', f), 'utf8')))).join('');
    expect(await shards()).toContain(`"${gone?.page}#e-`);
    // A third build keeps it still, with one note.
    const third = await run({ day: 9 });
    expect(third.totals.tokens).toEqual(first.totals.tokens);
    expect((await readFile(join(out, kept?.page as string), 'utf8')).match(/file-gone/g)).toHaveLength(1);
  });

  // Regression (an outside review of rebuilds): a fork's page, kept once its file was gone, named
  // and linked the fork made of it in a narrower report that leaves that one out, as its first
  // build wrote the page; nor did a kept page list a copy made after its file went.
  it('shows the Lineage of a kept page as this report has it', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi', 'lineage'));
    const first = await run();
    const fork = first.sessions.find((s) => s.file.endsWith('000000000021.jsonl'));
    const forkOfFork = first.sessions.find((s) => s.file.endsWith('000000000022.jsonl'));
    const page = join(out, fork?.page as string);
    expect(await readFile(page, 'utf8')).toContain(`<a href="../${forkOfFork?.page}">`);
    await rm(join(input, '--home-ana-projects-shop--', '2026-10-10T10-00-00-000Z_0196a000-0000-7000-8000-000000000021.jsonl'));
    await run({ day: 5, scope: { ...ALL_UTC, period: parsePeriod({ until: '2026-10-10' }, 'UTC') } });
    const kept = await readFile(page, 'utf8');
    expect(kept).toContain('file-gone');
    expect(kept).not.toContain(forkOfFork?.page as string);
    expect(kept).toMatch(/Forked or copied into:<\/p>\n\s*<ul><li>A session outside this report’s period or filters<\/li><\/ul>/);
    // All time again: the fork of it is linked once more.
    await run({ day: 6 });
    expect(await readFile(page, 'utf8')).toContain(`<a href="../${forkOfFork?.page}">`);
  });

  // Regression: a file emptied (a crash, a full disk) or no longer readable dropped its session from
  // the totals and the report, where a deleted file kept it.
  it('keeps a session whose file is still there but no longer reads as it, and says which', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    const emptied = first.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
    await writeFile(join(input, 'tools.jsonl'), '');
    const second = await run({ day: 5 });
    expect(second.totals.tokens).toEqual(first.totals.tokens);
    expect(second.totals.cost).toEqual(first.totals.cost);
    expect(second.sessions.length).toBe(first.sessions.length);
    const kept = second.sessions.find((s) => s.key === emptied?.key);
    expect(kept).toMatchObject({ sourceLastSeen: null, sourceState: 'unread' });
    const page = await readFile(join(out, kept?.page as string), 'utf8');
    expect(page).toContain("This session's source file no longer reads as this session (emptied, cut short, damaged or unreadable) (last seen 2026-12-01");
  });

  // Regression: a gone session was shown only by a build of the very input it was found under:
  // the same files read through their parent folder, or through a folder inside it, left it out.
  it('shows a gone session to a build of any input that holds its file', async () => {
    const { input, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run({ inputs: [dirname(input)] });
    await rm(join(input, 'tools.jsonl'));
    for (const [inputs, day] of [[[input], 5], [[dirname(input)], 9]] as const) {
      const later = await run({ inputs: [...inputs], day });
      expect(later.totals.cost).toEqual(first.totals.cost);
      expect(later.diagnostics.goneFiles).toBe(1);
    }
  });

  // Regression (a review of monthly reports): a folder given through a link, its file deleted,
  // and then given as itself (or the other way round) dropped the gone session from the totals
  // without a word.
  it('shows a gone session to a build of its folder given through a link, or not', async () => {
    for (const order of ['link first', 'folder first'] as const) {
      const { input, run } = await setUp(join(FIXTURES, 'pi'));
      const link = join(await tempDir(), 'link');
      await symlink(input, link);
      const [before, after] = order === 'link first' ? [link, input] : [input, link];
      const first = await run({ inputs: [before] });
      await rm(join(input, 'tools.jsonl'));
      const later = await run({ inputs: [after], day: 5 });
      expect(later.totals.cost, order).toEqual(first.totals.cost);
      expect(later.diagnostics.goneFiles, order).toBe(1);
    }
  });

  // Regression: a file put back as it was (`mv`, `cp -p`, a backup: its time kept) left its page
  // saying the file was gone, as that page's fingerprint still matched.
  it('writes the page again when a gone file is put back with its time kept', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    const away = join(await tempDir(), 'tools.jsonl');
    await rename(join(input, 'tools.jsonl'), away);
    await run({ day: 5 });
    const page = join(out, first.sessions.find((s) => s.file.endsWith('/tools.jsonl'))?.page as string);
    expect(await readFile(page, 'utf8')).toContain('file-gone');
    await rename(away, join(input, 'tools.jsonl'));
    const back = await run({ day: 9 });
    expect(back.diagnostics.goneFiles).toBe(0);
    expect(await readFile(page, 'utf8')).not.toContain('file-gone');
  });

  // Regression (an outside review of the archive): a line damaged in the middle of a file since it
  // was archived took it for another file ("no longer hold what … archived"): its reply's spend left
  // the totals. It holds what was archived less that line: kept as archived.
  it('keeps what a file lost to a line damaged in its middle, as for one cut short', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    const lines = (await readFile(join(input, 'tools.jsonl'), 'utf8')).split('\n');
    const reply = lines.findIndex((line, i) => i > 0 && i < lines.length - 3 && line.includes('"role":"assistant"') && line.includes('"usage"'));
    lines[reply] = `${(lines[reply] as string).slice(0, 40)}#####${(lines[reply] as string).slice(45)}`;
    await writeFile(join(input, 'tools.jsonl'), lines.join('\n'));
    const result = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 5)) });
    expect(result.warnings.join('\n')).toContain('1 session file holds less than when');
    const second = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(second.totals.tokens).toEqual(first.totals.tokens);
    expect(second.totals.cost).toEqual(first.totals.cost);
    // Turns deleted by hand from the middle, no line lost: another file, shown as it is (regression,
    // a hostile look at this fix: a deleted turn, a secret in it, was kept as archived).
    const edited = lines.filter((_, i) => i !== reply && i !== reply - 1);
    await writeFile(join(input, 'tools.jsonl'), edited.join('\n'));
    const third = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 6)) });
    expect(third.warnings.join('\n')).toContain('no longer holds what');
    expect(third.summary.totals.tokens.output).toBeLessThan(first.totals.tokens.output);
  });

  // Regression (an outside review of the cache): an older copy of a file put back and gone on,
  // its last archived reply not in it, lost that reply's spend without a word: the last entry
  // archived is not checked (it may read otherwise as a file grows), and was not when gone whole.
  it('says a file put back to an older copy and gone on, its last archived reply lost', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    const at = (n: number) => new Date(Date.UTC(2026, 10, 3, 9, 0, n)).toISOString();
    const prompt = (id: string, parentId: string | null, n: number) => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'user', content: `prompt ${id}` } });
    const reply = (id: string, parentId: string, n: number, input: number) => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'assistant', content: [{ type: 'text', text: `reply ${id}` }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: input + 100 }, stopReason: 'stop' } });
    const header = { type: 'session', version: 3, id: 'put-back', timestamp: at(0), cwd: '/home/u/proj' };
    const write = (records: object[]) => writeFile(join(input, 'put-back.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const shared = [header, prompt('p1', null, 1), reply('r1', 'p1', 2, 1000), prompt('p2', 'r1', 3)];
    await write([...shared, reply('r2', 'p2', 4, 4000)]);
    const out = join(await tempDir(), 'report');
    const buildOn = (day: number) => build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    await buildOn(1);
    // The copy from before r2 was written, gone on with another reply and a prompt.
    await write([...shared, reply('r2b', 'p2', 5, 500), prompt('p3', 'r2b', 6)]);
    const second = await buildOn(5);
    expect(second.warnings.join('\n')).toContain('1 session file no longer holds what');
    // As many entries as archived, no smaller, the last reply another: it was not looked into.
    await write([...shared, reply('r2', 'p2', 4, 4000)]);
    await buildOn(6);
    await write([...shared, reply('r2c', 'p2', 7, 90_000)]);
    const fourth = await buildOn(7);
    expect(fourth.warnings.join('\n')).toContain('1 session file no longer holds what');
  });

  // Regression (a pricing review, 2026-12-07): a Pi session moved (its folder renamed) and gone on
  // between two builds was two sessions: the gone path with the history and $0.685, the moved
  // file as its copy holding the new reply alone, where `stats` said one.
  it('shows a Pi session moved and gone on between builds as one session, the moved file', async () => {
    await movedAndGoneOn(false);
  });

  // Regression (an archive review): so too when a narrower build (of the new folder alone) read the
  // moved file first: archived by it, it was no longer new to the archive, and the next whole
  // build showed two sessions again.
  it('shows a Pi session moved and gone on as one session when a narrower build read the moved file first', async () => {
    await movedAndGoneOn(true);
  });

  async function movedAndGoneOn(narrowerFirst: boolean): Promise<void> {
    const root = join(await tempDir(), 'in');
    const at = (n: number) => new Date(Date.UTC(2026, 10, 3, 9, 0, n)).toISOString();
    const prompt = (id: string, parentId: string | null, n: number) => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'user', content: `prompt ${id}` } });
    const reply = (id: string, parentId: string, n: number) => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'assistant', content: [{ type: 'text', text: `reply ${id}` }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100 }, stopReason: 'stop' } });
    const records = [{ type: 'session', version: 3, id: 'moved-on', timestamp: at(0), cwd: '/home/u/proj' }, prompt('p1', null, 1), reply('r1', 'p1', 2), prompt('p2', 'r1', 3), reply('r2', 'p2', 4)];
    const text = (list: object[]) => `${list.map((r) => JSON.stringify(r)).join('\n')}\n`;
    await mkdir(join(root, '--home-u-proj--'), { recursive: true });
    await writeFile(join(root, '--home-u-proj--', 'moved-on.jsonl'), text(records));
    const out = join(await tempDir(), 'report');
    const buildOn = (day: number) => build({ inputs: [root], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    const first = await buildOn(1);
    await rename(join(root, '--home-u-proj--'), join(root, '--home-u-renamed--'));
    await writeFile(join(root, '--home-u-renamed--', 'moved-on.jsonl'), text([...records, prompt('p3', 'r2', 5), reply('r3', 'p3', 6)]));
    if (narrowerFirst) await build({ inputs: [join(root, '--home-u-renamed--')], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 3)) });
    const { summary } = await buildOn(5);
    expect(summary.totals.sessions).toBe(1);
    expect(summary.sessions.map((s) => [basename(dirname(s.file)), s.replies, s.origin ?? null])).toEqual([['--home-u-renamed--', 3, null]]);
    expect(summary.totals.tokens.output).toBe(first.summary.totals.tokens.output + 100);
  }

  // Its hostile look: an import (the same header id in another folder) moved and gone on, its
  // origin gone, took the origin with it: one session where the origin is a gone session of its own.
  it('keeps a gone origin of an import moved and gone on', async () => {
    const root = join(await tempDir(), 'in');
    const at = (n: number) => new Date(Date.UTC(2026, 10, 3, 9, 0, n)).toISOString();
    const prompt = (id: string, parentId: string | null, n: number) => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'user', content: `prompt ${id}` } });
    const reply = (id: string, parentId: string, n: number) => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'assistant', content: [{ type: 'text', text: `reply ${id}` }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100 }, stopReason: 'stop' } });
    const origin = [{ type: 'session', version: 3, id: 'imported', timestamp: at(0), cwd: '/home/u/p1' }, prompt('p1', null, 1), reply('r1', 'p1', 2)];
    const imported = [...origin, prompt('p2', 'r1', 3), reply('r2', 'p2', 4)];
    const text = (list: object[]) => `${list.map((r) => JSON.stringify(r)).join('\n')}\n`;
    const put = async (folder: string, list: object[]) => {
      await mkdir(join(root, folder), { recursive: true });
      await writeFile(join(root, folder, 's.jsonl'), text(list));
    };
    await put('--home-u-p1--', origin);
    await put('--home-u-p2--', imported);
    const out = join(await tempDir(), 'report');
    const buildOn = (day: number) => build({ inputs: [root], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    await buildOn(1);
    await rm(join(root, '--home-u-p1--'), { recursive: true });
    await rm(join(root, '--home-u-p2--'), { recursive: true });
    await put('--home-u-p3--', [...imported, prompt('p3', 'r2', 5), reply('r3', 'p3', 6)]);
    const { summary } = await buildOn(5);
    const row = (folder: string) => summary.sessions.find((s) => s.file.includes(`/${folder}/`));
    expect(summary.totals).toMatchObject({ sessions: 2, tokens: expect.objectContaining({ output: 300 }) });
    expect(row('--home-u-p1--')?.sourceLastSeen).not.toBeNull();
    expect(row('--home-u-p3--')).toMatchObject({ origin: expect.stringContaining('--home-u-p1--'), sourceLastSeen: null });
  });

  // Regression (an outside review of the cache): a session file given as a link whose file was
  // deleted since was said to be "still there but no longer read", where the link leads nowhere.
  it('says a session whose file was a link to a file deleted since is gone', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const elsewhere = join(await tempDir(), 'tools.jsonl');
    await rename(join(input, 'tools.jsonl'), elsewhere);
    await symlink(elsewhere, join(input, 'tools.jsonl'));
    const first = await run();
    const whole = first.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
    await rm(elsewhere);
    const second = await run({ day: 5 });
    const kept = second.sessions.find((s) => s.key === whole?.key);
    expect(kept?.sourceLastSeen).toBe('2026-12-01T00:00:00.000Z');
    expect(await readFile(join(out, kept?.page as string), 'utf8')).toContain("This session's source file is no longer present");
    expect(second.totals.cost).toEqual(first.totals.cost);
  });

  // Regression (an outside review of Pi's format): Pi rewrites a v1 file it opens (pi.md §2),
  // dropping a line it cannot parse: two records glued on one line, which bough read. The file,
  // holding what was archived less that line, was taken for another: the reply's spend was lost.
  it('keeps what Pi’s rewrite of an old file dropped of a line bough read and Pi could not', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    const at = (n: number) => new Date(Date.UTC(2025, 11, 10, 9, 0, n)).toISOString();
    const usage = (input: number) => ({ input, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: input + 100, cost: { total: input / 1e5 } });
    const prompt = (n: number, text: string) => ({ type: 'message', timestamp: at(n), message: { role: 'user', content: text, timestamp: Date.parse(at(n)) } });
    const reply = (n: number, text: string, tokens: number) => ({ type: 'message', timestamp: at(n), message: { role: 'assistant', content: [{ type: 'text', text }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(tokens), stopReason: 'stop', timestamp: Date.parse(at(n)) } });
    const header = { type: 'session', id: 'old-session', timestamp: at(0), cwd: '/home/u/proj' };
    // A compaction keeping from the first reply on: Pi's rewrite gives it that entry's id for its
    // index (regression, a hostile look at this fix: its key changed, and the file was another).
    const compaction = { type: 'compaction', timestamp: at(7), summary: 'so far', firstKeptEntryIndex: 2, tokensBefore: 5000 };
    const records = [prompt(1, 'first'), reply(2, 'one', 1000), prompt(3, 'second'), reply(4, 'two', 2000), prompt(5, 'third'), reply(6, 'three', 3000), compaction];
    const line = (r: object) => JSON.stringify(r);
    // The second reply and the third prompt written on one line, as an old Pi's crash left them.
    const v1 = [line(header), ...records.slice(0, 3).map(line), line(records[3] as object) + line(records[4] as object), ...records.slice(5).map(line)];
    await writeFile(join(input, 'old.jsonl'), `${v1.join('\n')}\n`);
    const out = join(await tempDir(), 'report');
    const buildOn = (day: number) => build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    const first = await buildOn(1);
    expect(first.summary.totals.replies).toBe(3);
    // As Pi's migration writes it: the version added to the header, ids chained in file order, the glued line gone.
    const { firstKeptEntryIndex: _index, ...rewrittenCompaction } = { ...compaction, firstKeptEntryId: 'm1' };
    const kept = [records[0], records[1], records[2], records[5], rewrittenCompaction] as Record<string, unknown>[];
    const migrated = [line({ ...header, version: 3 }), ...kept.map((r, i) => line({ ...r, id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}` }))];
    await writeFile(join(input, 'old.jsonl'), `${migrated.join('\n')}\n`);
    const second = await buildOn(5);
    expect(second.warnings.join('\n')).toContain('1 session file holds less than when');
    expect(second.summary.totals.tokens).toEqual(first.summary.totals.tokens);
    expect(second.summary.totals.cost).toEqual(first.summary.totals.cost);
  });

  // Regression (the same review): Pi's rewrite of a v2 file as v3 only renames a hook message's
  // role to custom (pi.md §6), which an entry's key held: the file was taken for another.
  it('takes a v2 file Pi rewrote as v3 for the same file', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    const at = (n: number) => new Date(Date.UTC(2026, 0, 3, 9, 0, n)).toISOString();
    const v2 = [
      { type: 'session', version: 2, id: 'v2-session', timestamp: at(0), cwd: '/home/u/proj' },
      { type: 'message', id: 'a1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'go', timestamp: Date.parse(at(1)) } },
      { type: 'message', id: 'a2', parentId: 'a1', timestamp: at(2), message: { role: 'hookMessage', customType: 'note', content: 'from a hook', display: true, timestamp: Date.parse(at(2)) } },
      { type: 'message', id: 'a3', parentId: 'a2', timestamp: at(3), message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100 }, stopReason: 'stop', timestamp: Date.parse(at(3)) } },
    ];
    const write = (records: object[]) => writeFile(join(input, 'v2.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    await write(v2);
    const out = join(await tempDir(), 'report');
    const buildOn = (day: number) => build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    const first = await buildOn(1);
    const v3 = v2.map((r) => (r.type === 'session' ? { ...r, version: 3 } : r.message?.role === 'hookMessage' ? { ...r, message: { ...r.message, role: 'custom' } } : r));
    await write(v3);
    const second = await buildOn(5);
    expect(second.warnings).toEqual([]);
    expect(second.summary.totals).toEqual(first.summary.totals);
  });

  // Regression (an archive review): summary.json gave a file cut short, and one emptied, a
  // sourceLastSeen as for a file gone (its schema: null while the file is present), and counted the
  // emptied one in goneFiles; the lists mark them "file holds less" and "file unread", not gone.
  it('tells in summary.json a file cut short or emptied from one gone, as the lists do', async () => {
    const { input, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    const keyOf = (name: string) => first.sessions.find((s) => s.file.endsWith(`/${name}`))?.key;
    const lines = (await readFile(join(input, 'tools.jsonl'), 'utf8')).split('\n');
    await writeFile(join(input, 'tools.jsonl'), `${lines.slice(0, 3).join('\n')}\n`);
    await writeFile(join(input, 'errors.jsonl'), '');
    await rm(join(input, 'minimal-v3.jsonl'));
    const second = await run({ day: 5 });
    const fileOf = (name: string) => second.sessions.filter((s) => s.key === keyOf(name)).map((s) => [s.sourceState, s.sourceLastSeen]);
    expect(fileOf('tools.jsonl')).toEqual([['holds-less', null]]);
    expect(fileOf('errors.jsonl')).toEqual([['unread', null]]);
    expect(fileOf('minimal-v3.jsonl')).toEqual([['gone', '2026-12-01T00:00:00.000Z']]);
    expect(second.diagnostics).toMatchObject({ files: first.diagnostics.files - 1, sessionFiles: first.diagnostics.sessionFiles - 2, goneFiles: 1, unreadFiles: 1 });
  });

  // Regression: a file cut short in place (10 turns archived, 3 left, or an older copy put back)
  // rewrote its archived page to what was left, and its lost turns left the totals, without a word.
  it('keeps what a file cut short lost, says so, and shows the file as it is with --forget-missing', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    const whole = first.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
    const lines = (await readFile(join(input, 'tools.jsonl'), 'utf8')).split('\n');
    await writeFile(join(input, 'tools.jsonl'), `${lines.slice(0, 3).join('\n')}\n`);
    const result = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 5)) });
    expect(result.warnings.join('\n')).toContain(`1 session file holds less than when ${out} archived it (cut short, a line damaged since, or an older copy put back): its pages are kept as archived, and say so, and the lists mark it "file holds less". Build with --forget-missing to show it as it is now.`);
    const second = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(second.totals.tokens).toEqual(first.totals.tokens);
    expect(second.totals.cost).toEqual(first.totals.cost);
    // Regression: the file, there and read, was counted as gone ("1 file read", "1 session file gone").
    expect(second.diagnostics).toMatchObject({ files: first.diagnostics.files, sessionFiles: first.diagnostics.sessionFiles, goneFiles: 0 });
    expect(await readFile(join(out, 'index.html'), 'utf8')).not.toContain('since an earlier build kept from it');
    const kept = second.sessions.find((s) => s.key === whole?.key);
    expect(kept).toMatchObject({ sourceLastSeen: null, sourceState: 'holds-less' });
    const page = await readFile(join(out, kept?.page as string), 'utf8');
    expect(page).toContain("This session's source file no longer reads as this session (emptied, cut short, damaged or unreadable) (last seen 2026-12-01");
    expect(page).toContain('id="e-t0000026"');
    // Listed as a file that holds less, not one gone (regression, an outside review of the archive:
    // "its source file is no longer present", of a file there and read).
    const index = await readFile(join(out, 'index.html'), 'utf8');
    expect(index).toContain('>file holds less<');
    expect(index).not.toContain('>file gone<');
    // Its page lost from the folder (regression, a review of builds under stress: said to be of a
    // file gone, the file there).
    await rm(join(out, kept?.page as string));
    const lost = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 5, 12)) });
    expect(lost.summary.diagnostics.byReason['page-failed']).toBe(1);
    const quality = await readFile(join(out, 'data-quality.html'), 'utf8');
    expect(quality).toContain('its page, written by an earlier build, is missing from the report folder, and its file holds less than the archive keeps of it, so it cannot be written again');
    expect(quality).not.toContain('its file is gone');
    expect(await readFile(join(out, kept?.page as string), 'utf8')).toContain('is missing from the report folder, and its file holds less than the archive keeps of it, so it cannot be written again');
    // Asked to, the file is shown as it is now.
    const forgot = await run({ day: 6, forgetMissing: true });
    expect(forgot.totals.tokens.output).toBeLessThan(first.totals.tokens.output);
    const now = await readFile(join(out, whole?.page as string), 'utf8');
    expect(now).not.toContain('file-gone');
    expect(now).not.toContain('id="e-t0000026"');
  });

  // Regression (an outside review of rebuilds): a Codex thread's name cleared in
  // session_index.jsonl (or the index deleted) took its rollout for one cut short, by the name's
  // entry gone: kept as archived, old name, "file gone", where a build without a report folder
  // showed it as it is.
  it('takes no rollout for one cut short when only the name its index gave it went', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'codex', 'home'));
    const first = await run();
    expect(first.sessions.map((s) => s.title)).toContain('Fix the failing test');
    await writeFile(join(input, 'session_index.jsonl'), '{"id":"0195aaaa-0000-7000-8000-000000000001","thread_name":"","updated_at":"2026-03-03T12:00:00Z"}\n', { flag: 'a' });
    const result = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 5)) });
    expect(result.warnings).toEqual([]);
    const second = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
    const cold = await build({ inputs: [input], out: join(await tempDir(), 'cold'), scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 5)), cache: false });
    expect(second.sessions).toEqual(cold.summary.sessions);
    expect(second.sessions.every((s) => s.sourceLastSeen === null)).toBe(true);
  });

  // Regression (a hostile look at the test above's fix): a rollout cut short by one entry while
  // its index gave it a name held as many entries as archived, so it was not taken for cut short
  // and its last turn's spend left the report.
  it('takes a rollout for cut short when a name its index gives it makes up for the entries it lost', async () => {
    const thread = '019b0000-0000-7000-8000-000000000001';
    const line = (at: string, type: string, payload: object) => JSON.stringify({ timestamp: `2026-01-05T10:${at}.000Z`, type, payload });
    const turn = (n: number) => [
      line(`0${n}:00`, 'turn_context', { cwd: '/work/proj', model: 'gpt-5', approval_policy: 'never', sandbox_policy: { type: 'read-only' } }),
      line(`0${n}:01`, 'event_msg', { type: 'user_message', message: `question ${n}` }),
      line(`0${n}:01`, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `question ${n}` }] }),
      line(`0${n}:02`, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `answer ${n}` }] }),
      line(`0${n}:03`, 'event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: 1000 * n, cached_input_tokens: 0, output_tokens: 100 * n, reasoning_output_tokens: 0, total_tokens: 1100 * n }, last_token_usage: { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 100, reasoning_output_tokens: 0, total_tokens: 1100 } } }),
    ];
    const lines = [line('00:00', 'session_meta', { id: thread, timestamp: '2026-01-05T10:00:00.000Z', cwd: '/work/proj', originator: 'codex_cli_rs', cli_version: '0.50.0' }), ...turn(1), ...turn(2), ...turn(3)];
    const home = join(await tempDir(), 'codex');
    const rollout = join(home, 'sessions', '2026', '01', '05', `rollout-2026-01-05T10-00-00-${thread}.jsonl`);
    await mkdir(dirname(rollout), { recursive: true });
    await writeFile(rollout, `${lines.join('\n')}\n`);
    const out = join(await tempDir(), 'report');
    const run = (day: number) => build({ inputs: [home], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    const first = (await run(1)).summary;
    await writeFile(rollout, `${lines.slice(0, -1).join('\n')}\n`);
    await writeFile(join(home, 'session_index.jsonl'), `${JSON.stringify({ id: thread, thread_name: 'My thread', updated_at: '2026-01-06T00:00:00Z' })}\n`);
    const second = await run(5);
    expect(second.warnings.join('\n')).toContain('1 session file holds less than when');
    expect(second.summary.totals.cost).toEqual(first.totals.cost);
  });

  // Regression (an outside review of rebuilds): once a session's copy in a second config folder
  // went on past the file first shown, that file (now listed with the copy) was kept as a session
  // "this report does not show", with its old page, at every later build.
  it('keeps no record of a file now listed as holding nothing more than the session shown', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'claude', 'two-roots-gone-on'));
    const fuller = join(input, 'dot-config-claude', 'projects', '-home-ana-shop', '55555555-5555-4555-8555-555555555555.jsonl');
    const away = join(await tempDir(), 'fuller.jsonl');
    await rename(fuller, away);
    await run();
    await rename(away, fuller);
    const again = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 5)) });
    const cold = await build({ inputs: [input], out: join(await tempDir(), 'cold'), scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 5)), cache: false });
    expect(again.sessionsCarried).toEqual({ sessions: 0, warmupStarts: 0 });
    expect(again.summary.sessions).toEqual(cold.summary.sessions);
    expect(await readdir(join(out, 'sessions'))).toEqual(await readdir(join(cold.outDir, 'sessions')));
    expect(await readFile(join(out, 'index.html'), 'utf8')).not.toContain('does not show');
  });

  // Regression (a hostile look): a Pi file put back to an older copy (its last entries lost) and
  // gone on past what it held lost the archived entries without a word: up to four were taken for
  // a tail still being written, as Codex's may be.
  it('warns when a file put back to an older copy went on with other entries', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    await run();
    const path = join(input, 'tools.jsonl');
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    const older = lines.slice(0, -2);
    const last = JSON.parse(older.at(-1) as string) as { id: string };
    const more = Array.from({ length: 4 }, (_, i) => JSON.stringify({ type: 'message', id: `new${i}`, parentId: i === 0 ? last.id : `new${i - 1}`, timestamp: `2026-11-0${i + 1}T10:00:00.000Z`, message: { role: 'user', content: `later ${i}` } }));
    await writeFile(path, `${[...older, ...more].join('\n')}\n`);
    const result = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 5)) });
    expect(result.warnings.join('\n')).toContain('1 session file no longer holds what');
  });

  // Regression: another session written at an archived session's path replaced it without a word.
  it('warns when a file holds other entries than the archive had of it, fewer of them', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    await run();
    await writeFile(join(input, 'tools.jsonl'), await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    const result = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 5)) });
    // Naming the file (regression, a review of monthly reports: no warning or page named it).
    expect(result.warnings.join('\n')).toContain(`1 session file no longer holds what ${out} archived of it (rewritten, or another session written at its path): shown as it is now, what the archive held of it is gone from this report: ${join(input, 'tools.jsonl')}.`);
  });

  // Regression (a review of rebuilds): another session written at the path, as many entries and
  // a few bytes larger, replaced the archived one (and its cost) without a word.
  it('warns when a file holds other entries than the archive had of it, as many of them, the file no smaller', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    const out = join(await tempDir(), 'report');
    const session = (id: string, output: number, words: string) =>
      [
        { type: 'session', version: 3, id, timestamp: '2026-10-01T10:00:00.000Z', cwd: '/work/demo' },
        { type: 'message', id: `${id}-u`, parentId: null, timestamp: '2026-10-01T10:00:01.000Z', message: { role: 'user', content: words } },
        { type: 'message', id: `${id}-a`, parentId: `${id}-u`, timestamp: '2026-10-01T10:00:02.000Z', message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', content: [{ type: 'text', text: 'ok' }], usage: { input: 10, output, cacheRead: 0, cacheWrite: 0, totalTokens: 10 + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } } } },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n';
    const file = join(input, 'a.jsonl');
    await writeFile(file, session('first', 20000, 'Refactor it'));
    const run = (day: number) => build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    await run(1);
    await writeFile(file, session('second', 5, 'Refactor the parser now'));
    const result = await run(2);
    expect(result.warnings.join('\n')).toContain(`1 session file no longer holds what ${out} archived of it (rewritten, or another session written at its path)`);
    expect(result.summary.sessions.map((s) => s.id)).toEqual(['second']);
  });

  // Regression: one holding more entries was taken without a word, so of two files whose sessions
  // swapped paths, one was said.
  it('warns when a file holds other entries than the archive had of it, more of them, and not when it grew', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    await run();
    const minimal = await readFile(join(input, 'minimal-v3.jsonl'));
    await writeFile(join(input, 'minimal-v3.jsonl'), await readFile(join(input, 'tools.jsonl')));
    await writeFile(join(input, 'tools.jsonl'), minimal);
    const swapped = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 5)) });
    expect(swapped.warnings.join('\n')).toContain(`2 session files no longer hold what ${out} archived of them (rewritten, or another session written at their path)`);
    // A session going on, a turn after those archived, is no rewrite.
    const last = JSON.parse((await readFile(join(input, 'tools.jsonl'), 'utf8')).trimEnd().split('\n').at(-1) as string) as { id: string };
    const turn = { type: 'message', id: 'more-1', parentId: last.id, timestamp: '2026-10-22T09:00:00.000Z', message: { role: 'user', content: 'one more turn' } };
    await writeFile(join(input, 'tools.jsonl'), `${minimal.toString('utf8').trimEnd()}\n${JSON.stringify(turn)}\n`);
    const grown = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 6)) });
    expect(grown.warnings.join('\n')).not.toContain('no longer hold');
  });

  // Regression: a Codex rollout archived right after a prompt's model input, and rebuilt once the
  // same prompt's event was written after it, was said to be rewritten.
  it('never takes a file that went on for a rewrite, wherever it was cut (Codex)', async () => {
    const rollout = join(FIXTURES, 'codex', 'home', 'sessions', '2026', '03', '02', 'rollout-2026-03-02T11-00-00-0195aaaa-0000-7000-8000-000000000001.jsonl');
    const lines = (await readFile(rollout, 'utf8')).trimEnd().split('\n');
    const warned: number[] = [];
    for (let cut = 2; cut < lines.length; cut += 1) {
      const input = join(await tempDir(), 'sessions');
      await mkdir(input);
      const file = join(input, basename(rollout));
      const out = join(await tempDir(), 'report');
      const run = () => build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 1)), cache: false });
      await writeFile(file, `${lines.slice(0, cut).join('\n')}\n`);
      await run();
      await writeFile(file, `${lines.join('\n')}\n`);
      if ((await run()).warnings.some((w) => w.includes('no longer hold'))) warned.push(cut);
    }
    expect(warned).toEqual([]);
  });

  it('says when a file was last seen by the last build that read it, though its unchanged pages were kept as they were', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    await run({ day: 1 });
    const archived = async () => Object.fromEntries(await Promise.all((await readdir(join(out, 'archive'))).map(async (n) => [n, (await stat(join(out, 'archive', n))).ino] as const)));
    const before = await archived();
    await run({ day: 5 });
    const after = await archived();
    // The rebuild kept every session's ledger file (the same files, left in place), and wrote anew
    // the records, when each file was last seen and the record of what the report was made from.
    for (const [name, inode] of Object.entries(before)) if (!['seen.json', 'build.json', 'sessions.jsonl'].includes(name)) expect(after[name], name).toBe(inode);
    await rm(join(input, 'tools.jsonl'));
    const third = await run({ day: 9 });
    const kept = third.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
    expect(kept?.sourceLastSeen).toBe('2026-12-05T00:00:00.000Z');
  });

  it('drops them with --forget-missing, and shows nothing from places this build does not search', async () => {
    const { input, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    await rm(join(input, 'tools.jsonl'));
    const forgotten = await run({ forgetMissing: true });
    expect(forgotten.sessions.length).toBe(first.sessions.length - 1);

    const other = await setUp(join(FIXTURES, 'pi'));
    await other.run();
    const elsewhere = join(await tempDir(), 'elsewhere');
    await cp(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), join(elsewhere, 'minimal-v3.jsonl'));
    expect((await other.run({ inputs: [elsewhere] })).sessions.length).toBe(1);
  });

  it('ignores archive entries that do not read right, and rebuilds them', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    const names = await readdir(join(out, 'archive'));
    // Not gzip at all, gzip of a wrong shape, and gzip of something that is not JSON (the records file and seen.json among them).
    for (const [i, name] of names.entries()) {
      const content = i % 3 === 0 ? Buffer.from('{"format":1}') : gzipSync(i % 3 === 1 ? '{"format":1,"ledger":{"entries":"no"}}' : 'not json');
      await writeFile(join(out, 'archive', name), name === 'sessions.jsonl' ? gzipSync('not json') : content);
    }
    await rm(join(input, 'tools.jsonl'));
    const second = await run();
    expect(second.sessions.length).toBe(first.sessions.length - 1);
    // Said: the records file's one line (compressed bytes, no record), and the gone session, named
    // by its ledger file, whose record is not known.
    expect(second.diagnostics.byReason['archive-unreadable']).toBe(2);
    // Written anew: a record and a ledger file per session read now, and when each file was last seen.
    // The gone session's ledger file is kept as it was (see below): one more.
    const rebuilt = await readdir(join(out, 'archive'));
    expect(rebuilt.filter((n) => /^[0-9a-f]{32}\.ledger\.json\.gz$/.test(n))).toHaveLength(second.sessions.length + 1);
    expect(rebuilt.filter((n) => /^[0-9a-f]{32}\.json$/.test(n))).toEqual([]);
    // A record per session read now, and the damaged line carried as it was.
    const lines = (await readFile(join(out, RECORDS_PATH), 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(1 + second.sessions.length + 1);
    expect(rebuilt).toContain('seen.json');
    // Every session read now reads right at the next build that reads the archive: only the gone
    // one and the damaged line are said, until --forget-missing.
    await touchAnotherInput(input, 7);
    expect((await run({ day: 8 })).diagnostics.byReason['archive-unreadable']).toBe(2);
    // Neither its record nor its ledger file reads, so which page was its is not known: the
    // earlier build's session pages that no session now uses are kept, its own among them.
    const gone = first.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
    expect((await readdir(join(out, 'sessions'))).map((f) => `sessions/${f}`)).toContain(gone?.page);
  });

  it('reads the record files earlier builds wrote, one per session, plain or compressed, and moves them into the records file', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    // The folder as earlier builds left it: each session's record a file of its own, <hash>.json
    // or, before that, <hash>.json.gz, and so named in its manifest.
    const archive = join(out, 'archive');
    const lines = (await readFile(join(out, RECORDS_PATH), 'utf8')).trimEnd().split('\n').slice(1);
    expect(lines).toHaveLength(first.sessions.length);
    const files: string[] = [];
    for (const [i, line] of lines.entries()) {
      const { name, ...record } = JSON.parse(line) as { name: string };
      const file = i % 2 === 0 ? `${name}.json` : `${name}.json.gz`;
      const text = JSON.stringify({ format: 2, ...record });
      await writeFile(join(archive, file), i % 2 === 0 ? text : gzipSync(text));
      files.push(`archive/${file}`);
    }
    await rm(join(out, RECORDS_PATH));
    const manifestPath = join(out, '.bough-manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { files: string[] };
    await writeFile(manifestPath, JSON.stringify({ ...manifest, files: [...manifest.files.filter((f) => f !== RECORDS_PATH), ...files].sort() }));

    await rm(join(input, 'tools.jsonl'));
    const second = await run({ day: 5 });
    // The gone session was known from its record file: kept, its numbers in the totals.
    expect(second.sessions.length).toBe(first.sessions.length);
    expect(second.totals.cost).toEqual(first.totals.cost);
    expect(second.diagnostics.byReason['archive-unreadable'] ?? 0).toBe(0);
    const rebuilt = await readdir(archive);
    expect(rebuilt.filter((n) => /^[0-9a-f]{32}\.json(\.gz)?$/.test(n))).toEqual([]);
    expect((await readFile(join(out, RECORDS_PATH), 'utf8')).trimEnd().split('\n')).toHaveLength(1 + first.sessions.length);
  });

  it('regression: a gone session whose archive is damaged was left out of the totals without a word; now it is said, and its files are kept', async () => {
    const { input, out, run, first, gone, second } = await withGoneSession();
    expect(second.totals.tokens).toEqual(first.totals.tokens);
    // Its ledger's archive file damaged: a byte changed, so gzip's check fails.
    const damaged = join(out, archivedLedgerPath(gone?.key as string));
    const bytes = await readFile(damaged);
    expect(gunzipSync(bytes).toString('utf8')).toContain('tools.jsonl');
    bytes[bytes.length - 12] = (bytes[bytes.length - 12] as number) ^ 0xff;
    await writeFile(damaged, bytes);
    await touchAnotherInput(input, 8);
    const third = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 9)) });
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(summary.sessions.length).toBe(first.sessions.length - 1);
    expect(summary.diagnostics.byReason['archive-unreadable']).toBe(1);
    expect(third.warnings.join('\n')).toMatch(/1 record of the archive in .*archive could not be read/);
    const quality = await readFile(join(out, 'data-quality.html'), 'utf8');
    expect(quality).toContain(`its page ${gone?.page}) could not be read`);
    expect(quality).toContain('last seen 2026-12-01');
    // Kept as they were: the damaged file, byte for byte, and the session's page.
    expect(await readFile(damaged)).toEqual(bytes);
    expect(await readFile(join(out, gone?.page as string), 'utf8')).toContain("This session's source file is no longer present");
    // Said again by every build, with when it was last seen, until --forget-missing drops it: by a
    // build that keeps the last report (nothing changed), and by one that reads again after it.
    const fourth = await run({ day: 12 });
    expect(fourth.diagnostics.byReason['archive-unreadable']).toBe(1);
    await touchAnotherInput(input, 13);
    const fifth = await run({ day: 14 });
    expect(fifth.diagnostics.byReason['archive-unreadable']).toBe(1);
    expect(await readFile(join(out, 'data-quality.html'), 'utf8')).toContain('last seen 2026-12-01');
    const forgotten = await run({ forgetMissing: true, day: 15 });
    expect(forgotten.diagnostics.byReason['archive-unreadable']).toBeUndefined();
    await expect(readFile(damaged)).rejects.toThrow();
  });

  it('regression: a forged ledger file (a gzip bomb) was inflated whole, a GB for a MB; now it is refused at its cap and said unreadable', async () => {
    const { input, out, gone } = await withGoneSession();
    // A megabyte of zeros compresses to about a kilobyte; gzip reads members laid end to end as one
    // file: 1,100 of them, a 1 MB file that inflates to 1.1 GB.
    const member = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 1100 }, () => member));
    await writeFile(join(out, archivedLedgerPath(gone?.key as string)), bomb);
    await touchAnotherInput(input, 8);
    const peakBefore = process.resourceUsage().maxRSS;
    const third = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 9)) });
    // maxRSS is in kB: the whole bomb would have raised this process's peak by a GB.
    expect(process.resourceUsage().maxRSS - peakBefore).toBeLessThan(400 * 1024);
    expect(third.summary.diagnostics.byReason['archive-unreadable']).toBe(1);
    expect(await readFile(join(out, gone?.page as string), 'utf8')).toContain("This session's source file is no longer present");
  });

  it('regression (a hostile look at the cap): a forged ledger file of a few kB, its entries hundreds of thousands of empty objects, took GBs (4.6 GB, and a stopped build, at 63 MiB of them); now it is refused at its first entry', async () => {
    const { input, out, gone } = await withGoneSession();
    const path = join(out, archivedLedgerPath(gone?.key as string));
    const file = JSON.parse(gunzipSync(await readFile(path)).toString('utf8')) as { ledger: { entries: unknown[] } };
    const [head, tail] = JSON.stringify({ ...file, ledger: { ...file.ledger, entries: ['@'] } }).split('"@"') as [string, string];
    // Under the cap, each {} an entry that is none: 900 kB of them, then 63 MiB.
    for (const [count, day] of [[300_000, 8], [21_000_000, 10]] as const) {
      const forged = gzipSync(`${head}${'{},'.repeat(count)}{}${tail}`, { level: 9 });
      expect(forged.length).toBeLessThan(128 * 1024);
      await writeFile(path, forged);
      await touchAnotherInput(input, day);
      const peakBefore = process.resourceUsage().maxRSS;
      const built = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day + 1)) });
      expect(process.resourceUsage().maxRSS - peakBefore).toBeLessThan(300 * 1024);
      expect(built.summary.diagnostics.byReason['archive-unreadable']).toBe(1);
    }
  });

  // Regression: with the report's archive folder deleted, a gone session left the totals and its
  // page was removed, without a word (one damaged ledger or records file was said, and kept).
  it('says so when the archive folder is gone, and keeps the pages of the sessions it held', async () => {
    const { input, out, run, first, gone } = await withGoneSession();
    await rm(join(out, 'archive'), { recursive: true });
    await touchAnotherInput(input, 8);
    const third = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 9)) });
    expect(third.summary.diagnostics.byReason['archive-unreadable']).toBe(1);
    expect(third.warnings.join('\n')).toMatch(/could not be read/);
    expect(await readFile(join(out, gone?.page as string), 'utf8')).toContain("This session's source file is no longer present");
    expect(third.summary.sessions.length).toBe(first.sessions.length - 1);
    const forgotten = await run({ forgetMissing: true, day: 15 });
    expect(forgotten.diagnostics.byReason['archive-unreadable']).toBeUndefined();
  });

  // Regression: the page of a gone session whose archive did not read was kept, and the only page
  // of its project, which it links to, removed: a link to nothing.
  it('keeps the project page that a kept page of a session whose archive did not read links to', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    for (const name of ['minimal-v3.jsonl', 'errors.jsonl']) await cp(join(FIXTURES, 'pi', name), join(input, name));
    const out = join(await tempDir(), 'report');
    const run = (day: number) => build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    const { summary } = await run(1);
    const gone = summary.sessions.find((s) => s.file.endsWith('/errors.jsonl'));
    await rm(join(input, 'errors.jsonl'));
    await run(5);
    await writeFile(join(out, archivedLedgerPath(gone?.key as string)), 'garbage');
    await touchAnotherInput(input, 8);
    const third = await run(9);
    expect(third.summary.diagnostics.byReason['archive-unreadable']).toBe(1);
    const page = await readFile(join(out, gone?.page as string), 'utf8');
    const projectLinks = [...page.matchAll(/href="\.\.\/(projects\/[^"#]+)"/g)].map((m) => m[1] as string);
    expect(projectLinks.length).toBeGreaterThan(0);
    for (const link of projectLinks) expect(existsSync(join(out, link)), link).toBe(true);
  });

  // Regression: after a --month build, the index said "with 1 session file gone since an earlier
  // build kept from it" for a gone session outside the month, which summary.json (goneFiles: 0)
  // and the report did not count, and which the same line said the archive keeps unshown.
  it('counts in the index line only the gone files the report shows, as summary.json does', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    const session = (id: string, day: string) =>
      [
        JSON.stringify({ type: 'session', version: 3, id, timestamp: `${day}T10:00:00.000Z`, cwd: '/w/a' }),
        JSON.stringify({ type: 'message', id: `${id}-1`, parentId: null, timestamp: `${day}T10:00:01.000Z`, message: { role: 'user', content: `hello ${id}` } }),
      ].join('\n');
    await writeFile(join(input, 'oct.jsonl'), session('oct', '2026-10-02'));
    await writeFile(join(input, 'nov.jsonl'), session('nov', '2026-11-02'));
    const out = join(await tempDir(), 'report');
    const run = (day: number, scope = ALL_UTC) => build({ inputs: [input], out, scope, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    await run(1);
    await rm(join(input, 'nov.jsonl'));
    const october = { ...ALL_UTC, period: parsePeriod({ month: '2026-10' }, 'UTC') };
    for (const day of [5, 6]) {
      // Read again, then kept whole as nothing changed: the same line both times.
      const { summary } = await run(day, october);
      expect(summary.diagnostics.goneFiles).toBe(0);
      const index = await readFile(join(out, 'index.html'), 'utf8');
      expect(index).toContain('from 1 session file. This folder&#39;s archive also keeps 1 session this report does not show');
    }
    const { summary } = await run(7);
    expect(summary.diagnostics.goneFiles).toBe(1);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('from 1 session file, with 1 session file gone or no longer read since an earlier build kept from it.');
  });

  it('regression: a gone session whose page was removed from the folder was linked from the index, to nothing; now a page says why it is missing', async () => {
    const { input, out, run, first, gone } = await withGoneSession();
    const backup = await readFile(join(out, gone?.page as string));
    await rm(join(out, gone?.page as string));
    await touchAnotherInput(input, 8);
    const third = await run({ day: 9 });
    expect(third.totals.tokens).toEqual(first.totals.tokens);
    expect(third.sessions.find((s) => s.key === gone?.key)?.page).toBe(gone?.page);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain(`href="${gone?.page}"`);
    expect(await readFile(join(out, gone?.page as string), 'utf8')).toContain('the page an earlier build wrote for it is missing from the report folder, and its file is gone (last seen 2026-12-01');
    expect(third.diagnostics.byReason['page-failed']).toBe(1);
    expect(await readFile(join(out, 'data-quality.html'), 'utf8')).toContain('its page, written by an earlier build, is missing from the report folder, and its file is gone, so it cannot be written again');
    // Regression (a hostile look): the build after took the page written in its place for the
    // session's own, and the problem was said no more, though that page still pointed to it.
    await touchAnotherInput(input, 10);
    const fourth = await run({ day: 11 });
    expect(fourth.diagnostics.byReason['page-failed']).toBe(1);
    expect(await readFile(join(out, 'data-quality.html'), 'utf8')).toContain('its page, written by an earlier build, is missing from the report folder, and its file is gone, so it cannot be written again');
    // The same look: the page put back from a backup, the next build with nothing else changed
    // kept the report whole, saying the page was missing though it was there.
    await writeFile(join(out, gone?.page as string), backup);
    const fifth = await run({ day: 12 });
    expect(fifth.diagnostics.byReason['page-failed']).toBeUndefined();
    expect(await readFile(join(out, gone?.page as string), 'utf8')).toContain(backup.toString('utf8').slice(0, 200));
  });

  // Regression (a review of the archive): a gone session's page cut short in the folder was kept
  // as it was, its replies lost, and nothing said so; README promises a page cut short is written
  // anew, which a gone session's cannot be.
  it('says so when a gone session\'s page was cut short or edited since, on every build while cut short', async () => {
    const { input, out, run, gone } = await withGoneSession();
    const path = join(out, gone?.page as string);
    const whole = await readFile(path);
    await writeFile(path, whole.subarray(0, 2500));
    await touchAnotherInput(input, 8);
    const third = await run({ day: 9 });
    expect(third.diagnostics.byReason['page-changed']).toBe(1);
    expect(third.diagnostics.byReason['page-failed']).toBeUndefined();
    const cut = 'its page, written by an earlier build, is cut short in the report folder, and its file is gone, so it cannot be written again: kept as it is';
    expect(await readFile(join(out, 'data-quality.html'), 'utf8')).toContain(cut);
    // What was left of it is kept, not replaced.
    expect(await readFile(path, 'utf8')).toContain(whole.subarray(0, 2000).toString('utf8').slice(0, 200));
    // Said again while it stays cut short, a build with nothing changed too.
    const fourth = await run({ day: 9 });
    expect(fourth.diagnostics.byReason['page-changed']).toBe(1);
    // And by the command line, even with --quiet.
    const said = await runCli(['build', input, '--out', out, '--tz', 'UTC', '--no-cache', '--quiet']);
    expect(said.stderr).toMatch(/^bough: warning: the pages of 1 session kept from the archive were changed since written \(\/.*tools\.jsonl: its page, written by an earlier build, is cut short in the report folder, .*\); the data-quality page lists each\.$/m);
    // Put back whole from a backup (of another size than the last build wrote), then edited by
    // hand: each said once, the hand's edit with its sizes.
    await writeFile(path, whole);
    await touchAnotherInput(input, 10);
    const fifth = await run({ day: 11 });
    expect(fifth.diagnostics.items.find((d) => d.reason === 'page-changed')?.detail).toMatch(/^its page was edited since an earlier build wrote it/);
    await touchAnotherInput(input, 11);
    expect((await run({ day: 11 })).diagnostics.byReason['page-changed']).toBeUndefined();
    const written = await readFile(path, 'utf8');
    await writeFile(path, written.replace('</h1>', ' (checked)</h1>'));
    await touchAnotherInput(input, 12);
    const sixth = await run({ day: 13 });
    expect(sixth.diagnostics.items.find((d) => d.reason === 'page-changed')?.detail).toBe(
      `its page was edited since an earlier build wrote it (${(Buffer.byteLength(written) + 10).toLocaleString('en-US')} bytes, written as ${Buffer.byteLength(written).toLocaleString('en-US')}), and its file is gone, so it cannot be written again: kept as it is`,
    );
    await touchAnotherInput(input, 14);
    const seventh = await run({ day: 15 });
    expect(seventh.diagnostics.byReason['page-changed']).toBeUndefined();
    expect(await readFile(path, 'utf8')).toContain(' (checked)</h1>');
  });

  it('keeps the pages of a gone session whose record is damaged, found by the name its ledger gives them', async () => {
    const { input, out, run, first, gone } = await withGoneSession();
    await asEarlierLedgerFiles(out);
    const page = await readFile(join(out, gone?.page as string));
    const records = join(out, RECORDS_PATH);
    const lines = (await readFile(records, 'utf8')).split('\n');
    const at = lines.findIndex((line) => line.includes(`"pages":["${gone?.page}"]`));
    expect(at).toBeGreaterThan(0);
    lines[at] = (lines[at] as string).slice(0, 60);
    await writeFile(records, lines.join('\n'));
    await touchAnotherInput(input, 8);
    const third = await run({ day: 9 });
    expect(third.sessions.length).toBe(first.sessions.length - 1);
    expect(third.diagnostics.byReason['archive-unreadable']).toBe(1);
    // Kept as it was, though nothing links to it now: the conversation is not lost.
    expect(await readFile(join(out, gone?.page as string))).toEqual(page);
    const quality = await readFile(join(out, 'data-quality.html'), 'utf8');
    expect(quality).toContain(`of the session “${gone?.title}” (${gone?.file}) could not be read`);
    expect(quality).toContain('its files and 1 page of it are kept as they were');
  });

  /**
   * Pi fixtures built on day 1 without tools.jsonl (`older`: the archive's files then, as a backup
   * holds them), on day 3 with it (`whole`), and on day 5 with it gone (`gone`: that session).
   */
  async function withSessionArchivedAfterBackup() {
    const setup = await setUp(join(FIXTURES, 'pi'));
    const aside = join(await tempDir(), 'tools.jsonl');
    await rename(join(setup.input, 'tools.jsonl'), aside);
    await setup.run();
    const older = { records: await readFile(join(setup.out, RECORDS_PATH)), seen: await readFile(join(setup.out, 'archive', 'seen.json')) };
    await rename(aside, join(setup.input, 'tools.jsonl'));
    const whole = await setup.run({ day: 3 });
    const gone = whole.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
    await rm(join(setup.input, 'tools.jsonl'));
    await setup.run({ day: 5 });
    const buildOn = (day: number, more: { scope?: Scope } = {}) => build({ inputs: [setup.input], out: setup.out, scope: more.scope ?? ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    return { ...setup, older, whole, gone, buildOn };
  }

  // Regression (a hostile look): an older records file put back from a backup, which did not name a
  // session archived since, left that session (its ledger file intact, its file gone) out of the
  // totals, listed as unreadable, and --forget-missing, the warning's other way out, dropped it.
  it('keeps a gone session an older records file put back from a backup does not name, from its ledger file', async () => {
    const { input, out, run, older, whole, gone, buildOn } = await withSessionArchivedAfterBackup();
    await writeFile(join(out, RECORDS_PATH), older.records);
    await touchAnotherInput(input, 8);
    const result = await buildOn(9);
    expect(result.warnings.join('\n')).toContain('archive/sessions.jsonl did not name 1 archived session file (an older copy put back from a backup, cut short or damaged): kept, read back from its ledger file');
    expect(result.warnings.join('\n')).not.toContain('not the size');
    const restored = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(restored.sessions.length).toBe(whole.sessions.length);
    expect(restored.totals).toEqual(whole.totals);
    expect(restored.diagnostics.byReason['archive-unreadable']).toBeUndefined();
    // Last seen when seen.json says, and its page says its file is gone.
    const kept = restored.sessions.find((s) => s.key === gone?.key);
    expect(kept?.sourceLastSeen).toBe('2026-12-03T00:00:00.000Z');
    expect(await readFile(join(out, kept?.page ?? ''), 'utf8')).toContain('no longer present (last seen');
    // Its record is written back: the next build finds it there, and says nothing of it.
    await touchAnotherInput(input, 10);
    expect((await buildOn(11)).warnings.join('\n')).not.toContain('did not name');
    expect((await readFile(join(out, RECORDS_PATH), 'utf8')).split('\n').filter((line) => line.includes(`"pages":["${gone?.page}"]`))).toHaveLength(1);
    // Said once in a report of a month it is not in, where it is kept and carried both.
    await writeFile(join(out, RECORDS_PATH), older.records);
    const november = { ...ALL_UTC, period: parsePeriod({ month: '2026-11' }, 'UTC') };
    expect((await buildOn(12, { scope: november })).warnings.join('\n')).toContain('did not name 1 archived session file');
    await touchAnotherInput(input, 12);
    expect((await run({ day: 13 })).totals).toEqual(whole.totals);
    // --forget-missing drops it, and no later build brings it back.
    expect((await run({ day: 14, forgetMissing: true })).sessions.length).toBe(whole.sessions.length - 1);
    await touchAnotherInput(input, 15);
    expect((await run({ day: 16 })).sessions.length).toBe(whole.sessions.length - 1);
  });

  // Regression (a hostile look): seen.json put back from a backup older than a session left the
  // session, its record and ledger file intact, out of the totals as unreadable, for good.
  it('keeps a gone session an older seen.json put back from a backup does not name, dated by its ledger file', async () => {
    const { input, out, older, whole, gone, buildOn } = await withSessionArchivedAfterBackup();
    await writeFile(join(out, 'archive', 'seen.json'), older.seen);
    await touchAnotherInput(input, 8);
    const result = await buildOn(9);
    expect(result.warnings.join('\n')).toContain('archive/seen.json did not read right or does not name it: 1 session whose file is gone is kept, dated by when its archive was last written');
    const restored = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(restored.totals).toEqual(whole.totals);
    expect(restored.diagnostics.byReason['archive-unreadable']).toBeUndefined();
    expect(restored.sessions.find((s) => s.key === gone?.key)?.sourceLastSeen).toBeDefined();
  });

  // Regression (a hostile look at a7b59dd): a ledger file copied in from another report folder was
  // read back as one of this folder's sessions, its spend counted here, and no build could drop it.
  it('reads back no ledger file bough did not write into this folder', async () => {
    const { input, out, run, whole } = await withSessionArchivedAfterBackup();
    const other = await setUp(join(FIXTURES, 'claude', 'projects'));
    await other.run();
    const [foreign] = (await readdir(join(other.out, 'archive'))).filter((name) => name.endsWith('.ledger.json.gz'));
    await cp(join(other.out, 'archive', foreign as string), join(out, 'archive', foreign as string));
    await touchAnotherInput(input, 8);
    const after = await run({ day: 9 });
    expect(after.totals).toEqual(whole.totals);
    expect(after.sessions.length).toBe(whole.sessions.length);
    expect(after.diagnostics.byReason['archive-unreadable']).toBe(1);
  });

  // Regression (a hostile look): a gone session's ledger file put back from a backup older than its
  // record was counted at the older numbers without a word, its page showing the newer ones.
  it('says so when a gone session’s ledger file is another copy than its record describes', async () => {
    const { input, out, run, gone } = await withGoneSession();
    const ledger = join(out, archivedLedgerPath(gone?.key as string));
    const file = JSON.parse(gunzipSync(await readFile(ledger)).toString('utf8')) as { ledger: { entries: unknown[] } };
    file.ledger.entries = file.ledger.entries.slice(0, 1);
    await writeFile(ledger, gzipSync(JSON.stringify(file)));
    await touchAnotherInput(input, 8);
    const result = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 9)) });
    expect(result.warnings.join('\n')).toContain(`1 archived ledger file of a session whose file is gone is not the size ${join(out, RECORDS_PATH)} says (another copy, put back from another backup?): counted as it holds, which may be less than its page shows.`);
    // Said once: its size is recorded.
    await touchAnotherInput(input, 10);
    const next = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 11)) });
    expect(next.warnings.join('\n')).not.toContain('not the size');
    expect((await run({ day: 12 })).sessions.some((s) => s.key === gone?.key)).toBe(true);
  });

  it('keeps a gone session whose record is damaged from the record its ledger file holds', async () => {
    const { input, out, run, first, gone } = await withGoneSession();
    const records = join(out, RECORDS_PATH);
    const lines = (await readFile(records, 'utf8')).split('\n');
    const at = lines.findIndex((line) => line.includes(`"pages":["${gone?.page}"]`));
    lines[at] = (lines[at] as string).slice(0, 60);
    await writeFile(records, lines.join('\n'));
    await touchAnotherInput(input, 8);
    const third = await run({ day: 9 });
    expect(third.totals).toEqual(first.totals);
    expect(third.diagnostics.byReason['archive-unreadable']).toBeUndefined();
    // The damaged line is not carried: the record read back from the ledger file takes its place.
    const after = (await readFile(records, 'utf8')).split('\n');
    expect(after.filter((line) => line.includes(`"pages":["${gone?.page}"]`))).toHaveLength(1);
    expect(after).not.toContain(lines[at]);
  });

  // Regression (an archive review): with the records file lost, a gone session's page was said to
  // be edited since written (a page-changed warning): the copy of its record its ledger file holds
  // still gave the page's size before its "no longer present" note was added.
  it('says nothing of a gone session’s page when the records file is lost and read back from its ledger file', async () => {
    const { input, out, gone } = await withGoneSession();
    await rm(join(out, RECORDS_PATH));
    await touchAnotherInput(input, 8);
    const result = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 9)) });
    expect(result.warnings.join('\n')).toContain('did not name 1 archived session file');
    const third = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(third.sessions.find((s) => s.key === gone?.key)?.sourceLastSeen).not.toBeNull();
    expect(third.diagnostics.byReason['page-changed']).toBeUndefined();
  });

  it('says so when the records file is cut short, and keeps the files of the gone sessions seen.json still names', async () => {
    const { input, out, run, first, gone } = await withGoneSession();
    await asEarlierLedgerFiles(out);
    const page = await readFile(join(out, gone?.page as string));
    const records = join(out, RECORDS_PATH);
    await writeFile(records, `${(await readFile(records, 'utf8')).split('\n')[0]}\n`);
    await touchAnotherInput(input, 8);
    const third = await run({ day: 9 });
    expect(third.sessions.length).toBe(first.sessions.length - 1);
    expect(third.diagnostics.byReason['archive-unreadable']).toBe(1);
    expect(await readFile(join(out, 'data-quality.html'), 'utf8')).toContain(`an archive record of the session “${gone?.title}” (${gone?.file}) could not be read`);
    expect(await readFile(join(out, gone?.page as string))).toEqual(page);
    // Said again by the next build that reads the archive: its ledger file and seen.json still name it.
    await touchAnotherInput(input, 10);
    expect((await run({ day: 11 })).diagnostics.byReason['archive-unreadable']).toBe(1);
    expect(await readFile(join(out, archivedLedgerPath(gone?.key as string)))).toBeDefined();
  });

  it('reads the records after a damaged first line, and a whole record where a damaged copy of it comes first', async () => {
    const { input, out, run, first, gone } = await withGoneSession();
    const records = join(out, RECORDS_PATH);
    const lines = (await readFile(records, 'utf8')).trimEnd().split('\n');
    const at = lines.findIndex((line) => line.includes(`"pages":["${gone?.page}"]`));
    const damagedCopy = (lines[at] as string).slice(0, 80);
    await writeFile(records, `{"form\n${lines.slice(1, at).join('\n')}\n${damagedCopy}\n${lines.slice(at).join('\n')}\n`);
    await touchAnotherInput(input, 8);
    const third = await run({ day: 9 });
    expect(third.totals.tokens).toEqual(first.totals.tokens);
    // The damaged first line is said (it named no session); the damaged copy is not: the whole record holds its session.
    expect(third.diagnostics.byReason['archive-unreadable']).toBe(1);
  });

  it('says a records file of another format once, and the gone sessions seen.json names by name', async () => {
    const { input, out, run, first } = await withGoneSession();
    const records = join(out, RECORDS_PATH);
    await writeFile(records, `{"format":99}\n{"name":"${'0'.repeat(32)}","future":true}\n`);
    await touchAnotherInput(input, 8);
    const third = await run({ day: 9 });
    expect(third.sessions.length).toBe(first.sessions.length - 1);
    expect(third.diagnostics.byReason['archive-unreadable']).toBe(2);
    expect(await readFile(join(out, 'data-quality.html'), 'utf8')).toContain('records file is of another format');
  });

  it('regression: an archive file that is not a regular one (a pipe, a link to a device) hung the build or filled its memory; now it is not read', async () => {
    const { input, out, run, first } = await withGoneSession();
    await rm(join(out, 'archive', 'seen.json'));
    execFileSync('mkfifo', [join(out, 'archive', 'seen.json')]);
    await symlink('/dev/zero', join(out, 'archive', `${'f'.repeat(32)}.json`));
    await touchAnotherInput(input, 8);
    const third = await run({ day: 9 });
    // seen.json unread: the gone session is dated by its ledger file, and still counted.
    expect(third.sessions.length).toBe(first.sessions.length);
    expect(third.diagnostics.byReason['archive-unreadable']).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('regression: a damaged seen.json left the gone session out of the totals; now it is kept, dated by when its archive was written', async () => {
    const { input, out, first, gone } = await withGoneSession();
    await writeFile(join(out, 'archive', 'seen.json'), '{"format":2,"lastSe');
    // The gone session's ledger file was last written on day 1 (when its pages were).
    const ledgerFiles = (await readdir(join(out, 'archive'))).filter((n) => n.endsWith('.ledger.json.gz'));
    const day1 = new Date(Date.UTC(2026, 11, 1));
    for (const name of ledgerFiles) await utimes(join(out, 'archive', name), day1, day1);
    await touchAnotherInput(input, 8);
    const result = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 9)) });
    expect(result.warnings.join('\n')).toContain('archive/seen.json did not read right or does not name it: 1 session whose file is gone is kept, dated by when its archive was last written');
    const damaged = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(damaged.totals.tokens).toEqual(first.totals.tokens);
    expect(damaged.diagnostics.byReason['archive-unreadable']).toBeUndefined();
    const kept = damaged.sessions.find((s) => s.key === gone?.key);
    expect(kept?.sourceLastSeen).toBe('2026-12-01T00:00:00.000Z');
    expect(await readFile(join(out, kept?.page ?? ''), 'utf8')).toContain('no longer present (last seen');
    // The next build has a seen.json again, and says nothing more.
    await touchAnotherInput(input, 10);
    const next = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 11)) });
    expect(next.warnings).toEqual([]);
    expect(next.summary.sessions.find((s) => s.key === gone?.key)?.sourceLastSeen).toBe('2026-12-01T00:00:00.000Z');
  });

  it('regression: a last-seen time beyond what a date holds (1e300) stopped every build, --no-cache too; now seen.json is said not to read right', async () => {
    const { input, out, gone } = await withGoneSession();
    const seen = JSON.parse(await readFile(join(out, 'archive', 'seen.json'), 'utf8')) as { lastSeen: Record<string, number> };
    for (const name of Object.keys(seen.lastSeen)) seen.lastSeen[name] = 1e300;
    await writeFile(join(out, 'archive', 'seen.json'), JSON.stringify(seen));
    await touchAnotherInput(input, 8);
    const result = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 9)), cache: false });
    expect(result.warnings.join('\n')).toContain('archive/seen.json did not read right');
    expect(result.summary.sessions.find((s) => s.key === gone?.key)).toBeDefined();
  });

  // Regressions: a ledger file damaged while its session's file was there was kept as it was by
  // every rebuild ("every page kept"), cut short (a review of failures) or damaged in place at its
  // size, a byte flipped (a cache review: told by its size only); once the file went, so did the
  // session, from the totals.
  it.each([
    ['cut short', (bytes: Buffer) => bytes.subarray(0, 100)],
    ['damaged at its size', (bytes: Buffer) => {
      const at = Math.floor(bytes.length / 2);
      bytes[at] = (bytes[at] as number) ^ 0xff;
      return bytes;
    }],
  ])('writes anew a ledger file %s since, while its session’s file is there to read', async (_, damage) => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    const session = first.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
    const ledger = join(out, archivedLedgerPath(session?.key as string));
    await writeFile(ledger, damage(await readFile(ledger)));
    await run({ day: 3 });
    expect(JSON.parse(gunzipSync(await readFile(ledger)).toString('utf8'))).toMatchObject({ ledger: { key: session?.key } });
    await rm(join(input, 'tools.jsonl'));
    const later = await run({ day: 5 });
    expect(later.totals.cost).toEqual(first.totals.cost);
    expect(later.sessions.find((s) => s.key === session?.key)?.sourceLastSeen).toBe('2026-12-03T00:00:00.000Z');
  });

  it('regression: an archived ledger with numbers no reader keeps (10^12 tokens, a negative cost, one-hour writes above the writes) was summed; now it does not read right', async () => {
    for (const edit of [
      (usage: Record<string, unknown>) => (usage['input'] = 1e12),
      (usage: Record<string, unknown>) => (usage['recordedCost'] = -5),
      (usage: Record<string, unknown>) => (usage['cacheWrite1h'] = (usage['cacheWrite'] as number) + 1),
    ]) {
      const { input, out, gone } = await withGoneSession();
      const path = join(out, archivedLedgerPath(gone?.key as string));
      const file = JSON.parse(gunzipSync(await readFile(path)).toString('utf8')) as { ledger: { entries: { usage: Record<string, unknown>[] }[] } };
      const usage = file.ledger.entries.flatMap((e) => e.usage)[0] as Record<string, unknown>;
      edit(usage);
      await writeFile(path, gzipSync(JSON.stringify(file)));
      await touchAnotherInput(input, 8);
      const result = await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, 9)) });
      expect(result.summary.diagnostics.byReason['archive-unreadable']).toBe(1);
      expect(result.summary.sessions.find((s) => s.key === gone?.key)).toBeUndefined();
      expect(result.warnings.join('\n')).toMatch(/1 record of the archive in .*archive could not be read/);
    }
  });

  it('regression: search text edited into the records file of an unchanged session reached the search index; now its pages are written anew', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    await run();
    const lines = (await readFile(join(out, RECORDS_PATH), 'utf8')).split('\n');
    const at = lines.findIndex((line) => line.includes('"search":[{'));
    const record = JSON.parse(lines[at] as string) as { search: { text: string }[] };
    (record.search[0] as { text: string }).text = 'FORGED TEXT not in any session';
    lines[at] = JSON.stringify(record);
    await writeFile(join(out, RECORDS_PATH), lines.join('\n'));
    await touchAnotherInput(input, 8);
    await run({ day: 9 });
    const shards = await Promise.all((await readdir(join(out, 'search'))).map((f) => readFile(join(out, 'search', f), 'utf8')));
    expect(shards.join('')).not.toContain('FORGED TEXT');
  });

  it('says a gone session it can date by nothing: seen.json damaged and its ledger file gone', async () => {
    const { input, out, run, first } = await withGoneSession();
    const backup = await readFile(join(out, 'archive', 'seen.json'));
    await writeFile(join(out, 'archive', 'seen.json'), '{"format":2,"lastSe');
    // Its ledger file gone too: when its file was last seen is not known at all.
    const seen = JSON.parse(backup.toString('utf8')) as { lastSeen: Record<string, number> };
    const goneName = Object.entries(seen.lastSeen).find(([, at]) => at === Date.UTC(2026, 11, 1))?.[0];
    await rm(join(out, 'archive', `${goneName}.ledger.json.gz`));
    await touchAnotherInput(input, 8);
    const damaged = await run({ day: 9 });
    expect(damaged.sessions.length).toBe(first.sessions.length - 1);
    expect(damaged.diagnostics.byReason['archive-unreadable']).toBe(1);
    expect(await readFile(join(out, 'data-quality.html'), 'utf8')).toContain('<td class="path">archive/seen.json</td>');
  });

  // Regression (a hostile look): a page cut short in the folder (a bad copy, a disk error) was kept
  // by every full build while its session's file was there to write it again, and so became the
  // archive's only copy of the conversation once that file went.
  it('writes a page of another size than it wrote anew while its session file is there', async () => {
    const setup = await setUp(join(FIXTURES, 'pi'));
    const first = await setup.run();
    const session = first.sessions.find((s) => s.file.endsWith('/tools.jsonl'));
    const page = join(setup.out, session?.page as string);
    const whole = await readFile(page, 'utf8');
    await writeFile(page, whole.slice(0, 500));
    await touchAnotherInput(setup.input, 8);
    await setup.run({ day: 9 });
    expect(await readFile(page, 'utf8')).toBe(whole);
  });

  // Regression (a hostile look): a gone session's ledger file lost, then put back from a backup
  // as bough asks, was no file of the report's any more: the next build kept the report that
  // left it out, and one that read it called it the user's file and told them to move it away.
  it('reads a gone session’s ledger file put back from a backup after it was lost', async () => {
    const { input, out, run, first, gone } = await withGoneSession();
    const records = (await readFile(join(out, RECORDS_PATH), 'utf8')).split('\n').slice(1).filter((line) => line !== '');
    const name = records.map((line) => JSON.parse(line) as { name: string; pages: string[] }).find((r) => r.pages.includes(gone?.page as string))?.name as string;
    const ledger = join(out, 'archive', `${name}.ledger.json.gz`);
    const backup = await readFile(ledger);
    await rm(ledger);
    await touchAnotherInput(input, 8);
    const lost = await run({ day: 9 });
    expect(lost.sessions.length).toBe(first.sessions.length - 1);
    await writeFile(ledger, backup);
    const restored = await run({ day: 10 });
    expect(restored.sessions.length).toBe(first.sessions.length);
    expect(restored.totals.tokens).toEqual(first.totals.tokens);
    expect(restored.diagnostics.byReason['archive-unreadable']).toBeUndefined();
    expect(await readFile(ledger)).toEqual(backup);
  });

  // Regression: renaming a Claude Code project folder (to a name that sorts after the old one)
  // made its session's sub-agent files the archived ones, "gone", and the real ones duplicates.
  it('takes the files read now, not the archived ones, when a project folder was renamed', async () => {
    const { input, run } = await setUp(join(FIXTURES, 'claude', 'projects'));
    const first = await run();
    await rename(join(input, '-home-ana-shop'), join(input, '-home-ana-shopz'));
    const second = await run({ day: 5 });
    expect(second.diagnostics.goneFiles).toBe(0);
    expect(second.totals.tokens).toEqual(first.totals.tokens);
    const files = second.sessions.flatMap((s) => [s.file, ...s.subagentFiles.map((sub) => sub.file), ...s.duplicateFiles]);
    expect(files.filter((f) => f.includes('/-home-ana-shop/'))).toEqual([]);
    expect(second.sessions.flatMap((s) => s.duplicateFiles)).toEqual(first.sessions.flatMap((s) => s.duplicateFiles).map((f) => f.replace('/-home-ana-shop/', '/-home-ana-shopz/')));
  });

  it('keeps no archive file it cannot read in a report that redacts', async () => {
    const { input, out } = await setUp(join(FIXTURES, 'pi'));
    const redacted = (day: number) => build({ inputs: [input], out, scope: ALL_UTC, redact: true, environment: { env: {}, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    await redacted(1);
    await rm(join(input, 'tools.jsonl'));
    for (const name of await readdir(join(out, 'archive'))) if (name.endsWith('.ledger.json.gz')) await writeFile(join(out, 'archive', name), 'damaged');
    const result = await redacted(5);
    expect(result.summary.diagnostics.byReason['archive-unreadable']).toBe(1);
    expect(result.warnings.join('\n')).toContain('could not be read');
    expect(await readFile(join(out, 'data-quality.html'), 'utf8')).toContain('a report that redacts or omits keeps no file it cannot read, so its files are not kept');
    expect((await readdir(join(out, 'archive'))).filter((n) => n.endsWith('.ledger.json.gz'))).toHaveLength(result.summary.sessions.length);
  });

  // Regression (a hostile look at the archive): with a sub-agent's file gone (Claude Code deletes
  // each file by its own age, a sub-agent's before its session's) and its session's file still
  // there, the session's page was written again without the transcript, lost for good.
  it('keeps a Claude Code sub-agent whose file is gone in its session, its transcript as shown before', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'claude'));
    // The sub-agent commits: the session's Commits list links to the call, wherever it is shown.
    const subagentFile = join(input, 'projects', '-home-ana-shop', '11111111-1111-4111-8111-111111111111', 'subagents', 'agent-a9f8e7d6c5.jsonl');
    const line = { parentUuid: 's-a2', isSidechain: true, cwd: '/home/ana/shop', sessionId: '11111111-1111-4111-8111-111111111111', version: '2.1.30', agentId: 'a9f8e7d6c5' };
    const commit = [
      { ...line, type: 'assistant', uuid: 's-a3', timestamp: '2026-03-02T10:10:02.000Z', requestId: 'req_S2', message: { id: 'msg_S2', role: 'assistant', model: 'claude-haiku-4-5-20251001', content: [{ type: 'tool_use', id: 'toolu_c1', name: 'Bash', input: { command: 'git commit -am "Fix total"' } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } } },
      { ...line, parentUuid: 's-a3', type: 'user', uuid: 's-u3', timestamp: '2026-03-02T10:10:03.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_c1', content: '[main 1a2b3c4] Fix total' }] } },
    ];
    await writeFile(subagentFile, `${(await readFile(subagentFile, 'utf8')).trimEnd()}\n${commit.map((c) => JSON.stringify(c)).join('\n')}\n`);
    const first = await run();
    const subagents = (await readdir(input, { recursive: true })).filter((f) => /subagents\/agent-[^/]*\.jsonl$/.test(f));
    expect(subagents.length).toBeGreaterThan(0);
    const host = first.sessions.find((s) => s.id === '11111111-1111-4111-8111-111111111111');
    const commitLink = /<a href="#(e-[^"]*)"><code>\[main 1a2b3c4\] Fix total<\/code><\/a>/;
    const linked = commitLink.exec(await readFile(join(out, host?.page as string), 'utf8'))?.[1];
    expect(linked).toBeDefined();
    const pageOf = async () => readFile(join(out, host?.page as string), 'utf8');
    const subagentSaid = 'total() is called in checkout.ts only.';
    const times = (await pageOf()).split(subagentSaid).length;
    expect(times).toBeGreaterThan(1);
    for (const file of subagents) await rm(join(input, file));
    const second = await run({ day: 2 });
    expect(second.totals.tokens).toEqual(first.totals.tokens);
    expect(second.diagnostics.byReason['page-failed']).toBeUndefined();
    expect(await pageOf()).toContain('its file is no longer present, so its transcript is as an earlier build of this report showed it');
    expect((await pageOf()).split(subagentSaid)).toHaveLength(times);
    expect(commitLink.exec(await pageOf())?.[1]).toBe(linked);
    expect(await pageOf()).toContain(`id="${linked}"`);
    // Found by the search box too, at its place.
    const shards = async () => (await Promise.all((await readdir(join(out, 'search'))).map((f) => readFile(join(out, 'search', f), 'utf8')))).join('');
    expect(await shards()).toContain(subagentSaid.slice(0, 20));
    // Its session goes on: its page is written again, the kept transcript in it still.
    const sessionFile = join(input, 'projects', '-home-ana-shop', '11111111-1111-4111-8111-111111111111.jsonl');
    const more = { parentUuid: 'u-14', isSidechain: false, type: 'user', uuid: 'u-15', timestamp: '2026-03-02T10:46:00.000Z', sessionId: '11111111-1111-4111-8111-111111111111', cwd: '/home/ana/shop', message: { role: 'user', content: 'One more thing.' } };
    await writeFile(sessionFile, `${(await readFile(sessionFile, 'utf8')).trimEnd()}\n${JSON.stringify(more)}\n`);
    await run({ day: 3 });
    const page = await pageOf();
    expect(page).toContain('One more thing.');
    expect(page.split(subagentSaid)).toHaveLength(times);
    expect(await shards()).toContain(subagentSaid.slice(0, 20));
    expect(liveMarkup(page)).toEqual([]);
    // With the earlier pages lost too, nothing is kept to show: the commit is named, linked nowhere.
    await rm(join(out, host?.page as string));
    await run({ day: 4 });
    const bare = await pageOf();
    expect(bare).toContain('so its transcript is not shown');
    expect(bare).toContain('<li><span class="badge tone-label">landed</span> <code>[main 1a2b3c4] Fix total</code></li>');
  });
});

describe('--forget-missing', () => {
  // Regression (a review of the archive): a gone sub-agent's file dropped from the archive took its
  // spend ($1.22 of $14.94) out of its session's totals, and the run's last line said nothing.
  it('says the sub-agents’ files it drops, as it says the sessions', async () => {
    const input = join(await tempDir(), 'in');
    await cp(join(FIXTURES, 'claude', 'projects'), input, { recursive: true });
    const out = join(await tempDir(), 'report');
    expect((await runCli(['build', input, '--out', out, '--quiet'])).code).toBe(0);
    await rm(join(input, '-home-ana-shop', '11111111-1111-4111-8111-111111111111', 'subagents', 'agent-a9f8e7d6c5.jsonl'));
    const kept = await runCli(['build', input, '--out', out]);
    expect(kept.stdout).not.toContain('dropped');
    const forgot = await runCli(['build', input, '--out', out, '--forget-missing']);
    expect(forgot.stdout).toContain(" · 1 sub-agent's file the archive kept dropped (--forget-missing) · ");
    expect(forgot.stdout).not.toContain('session the archive kept dropped');
  });

  // Regression (an archive review): after a --share build, --forget-missing said sessions it wrote
  // again were dropped ("1 session the archive kept dropped", nothing gone; or 2 for 1 gone): a
  // redacted build names its files by their redacted paths, and they were looked for by the plain ones.
  it('says only the sessions it drops as dropped after a build that shared another way', async () => {
    const input = join(await tempDir(), 'in');
    // Pi's folder of a project in another user's home: --share redacts its path.
    const folder = join(input, '--home-ana-shop--');
    await mkdir(folder, { recursive: true });
    for (const name of ['minimal-v3.jsonl', 'tools.jsonl']) await cp(join(FIXTURES, 'pi', name), join(folder, name));
    const out = join(await tempDir(), 'report');
    const line = async (...more: string[]) => (await runCli(['build', input, '--out', out, '--tz', 'UTC', ...more])).stdout;
    await line('--share');
    expect(await line('--forget-missing')).not.toContain('dropped');
    expect(await line('--share', '--forget-missing')).not.toContain('dropped');
    await rm(join(folder, 'tools.jsonl'));
    expect(await line('--share')).toContain('1 file kept from an earlier build');
    expect(await line('--forget-missing')).toContain(' · 1 session the archive kept dropped (--forget-missing) · ');
  });
});

// The transcript of a gone sub-agent file as the last build's pages showed it, taken back from
// them (what the session template writes around it: see templates/session.eta).
describe('keptTranscripts', () => {
  const section = (id: string, path: string, items: string) =>
    `<section class="subagent-files" id="${id}">\n  <h2>Sub-agent: x</h2>\n  <p class="note">n.</p>\n  <details class="subagent-file">\n    <summary>transcript · <span class="path">${path}</span></summary>\n    <ol class="conversation">\n${items}\n    </ol>\n  </details>\n</section>\n`;
  const entry = (id: string, body = 'said') => `<li class="entry kind-reply" id="${id}"><div>${body}</div></li>`;
  const run = (ids: string[]) => `<li class="copied-run"><details><summary>2 entries copied</summary><ol class="conversation nested">\n${ids.map((id) => entry(id)).join('\n')}\n</ol></details></li>`;

  it('takes each entry apart, a list inside one and a folded run of copies each staying whole', () => {
    const page = section('subagent-1', '/a/agent-1.jsonl', [entry('e-1', '<ul><li>one</li><li>two</li></ul>'), run(['e-2', 'e-3']), entry('e-4')].join('\n'));
    const kept = keptTranscripts([page]).get('/a/agent-1.jsonl');
    expect(kept?.map((e) => e.anchors[0])).toEqual(['e-1', 'e-2', 'e-4']);
    expect(kept?.[0]?.html).toBe(entry('e-1', '<ul><li>one</li><li>two</li></ul>'));
    expect(kept?.[1]?.html).toBe(run(['e-2', 'e-3']));
  });

  // Regressions (a hostile look at keeping them): a transcript carried on into a page's next part
  // was kept as one entry, never cut into parts again (a 7 MB part); a page whose transcript had
  // lost its end ran on into the next section, shown twice.
  it('joins a transcript carried on from part to part, and keeps none from a page cut short', () => {
    const parts = [section('subagent-1', '/a/agent-1.jsonl', entry('e-1')), section('subagent-1-part-2', '/a/agent-1.jsonl', entry('e-2'))];
    expect(keptTranscripts(parts).get('/a/agent-1.jsonl')?.map((e) => e.anchors[0])).toEqual(['e-1', 'e-2']);
    const cut = section('subagent-1', '/a/agent-1.jsonl', entry('e-1')).replace('    </ol>\n  </details>\n</section>', '') + section('subagent-2', '/a/agent-2.jsonl', entry('e-9'));
    const kept = keptTranscripts([cut]);
    expect(kept.has('/a/agent-1.jsonl')).toBe(false);
    expect(kept.get('/a/agent-2.jsonl')?.map((e) => e.anchors[0])).toEqual(['e-9']);
    expect(keptTranscripts([section('subagent-1', '/a/agent-1.jsonl', '<li class="entry" id="e-1"><div>cut')]).size).toBe(0);
  });
});

describe('the archive keeps what a build does not show', () => {
  const environment = { env: {}, home: '/nonexistent' };
  const at = (day: number) => new Date(Date.UTC(2026, 11, day));
  const seenOf = async (out: string) => (JSON.parse(await readFile(join(out, 'archive', 'seen.json'), 'utf8')) as { lastSeen: Record<string, number> }).lastSeen;

  // Regression: Codex moves a rollout into archived_sessions/. Moved during a build that does not
  // show it, its record was dropped (the file read now held it) and the moved file not archived
  // (not shown): once that file was gone too, nothing kept the session.
  it('keeps a session whose file moved during a build that does not show it, once the moved file is gone too', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const first = await run();
    await cp(join(input, 'tools.jsonl'), join(input, 'moved.jsonl'));
    await rm(join(input, 'tools.jsonl'));
    await build({ inputs: [input], out, scope: { ...ALL_UTC, sources: ['claude'] }, environment, now: at(5) });
    await rm(join(input, 'moved.jsonl'));
    const later = await run({ day: 9 });
    expect(later.totals.cost).toEqual(first.totals.cost);
    expect(later.sessions.map((s) => s.file.endsWith('/tools.jsonl') ? s.sourceLastSeen : null).filter(Boolean)).toEqual(['2026-12-01T00:00:00.000Z']);
  });

  it('regression: a report for one period or agent dropped from the archive the gone sessions outside it; now a later build of all time still has them', async () => {
    const { first, gone, input, out, run } = await withGoneSession();
    // Pi files read for a Claude Code report: nothing shown, everything archived kept.
    const claudeOnly = () => build({ inputs: [input], out, scope: { ...ALL_UTC, sources: ['claude'] }, environment, now: at(7) });
    const scoped = await claudeOnly();
    expect(scoped.summary.sessions).toHaveLength(0);
    expect(scoped.sessionsCarried).toEqual(sessionCountOf(first.sessions));
    // Regression: the gone session, not shown, was also said "kept from an earlier build" as a file of this report.
    expect(scoped.summary.diagnostics.goneFiles).toBe(0);
    // Said where whoever is sent the folder sees it: its pages are in it, not linked.
    const said = `This folder&#39;s archive also keeps ${first.sessions.length} sessions this report does not show (with their pages), for later builds into it.`;
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain(said);
    // Again with nothing changed (the last report kept whole): still said, and when the gone
    // session's file was last seen stays, where the others' (read now) moves on.
    const again = await build({ inputs: [input], out, scope: { ...ALL_UTC, sources: ['claude'] }, environment, now: at(8) });
    expect(again.sessionsCarried).toEqual(sessionCountOf(first.sessions));
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain(said);
    const seen = await seenOf(out);
    expect(seen[pathHash(gone?.key as string)]).toBe(at(1).getTime());
    expect(Object.values(seen).filter((ms) => ms === at(8).getTime())).toHaveLength(first.sessions.length - 1);

    const later = await run({ day: 9 });
    expect(later.totals.cost).toEqual(first.totals.cost);
    const kept = later.sessions.find((s) => s.key === gone?.key);
    expect(kept?.sourceLastSeen).toBe('2026-12-01T00:00:00.000Z');
    expect(await readFile(join(out, kept?.page as string), 'utf8')).toContain("This session's source file is no longer present (last seen 2026-12-01");
  });

  it('keeps the project pages its carried pages link to (regression: a narrower report left them linking nowhere)', async () => {
    const { input, out } = await withGoneSession();
    await build({ inputs: [input], out, scope: { ...ALL_UTC, sources: ['claude'] }, environment, now: at(7) });
    const pages = (await readdir(join(out, 'sessions'))).filter((name) => name.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const page of pages) {
      for (const [, target] of (await readFile(join(out, 'sessions', page), 'utf8')).matchAll(/href="\.\.\/(projects\/[^"#]+)/g)) {
        if (!existsSync(join(out, target as string))) missing.push(`${page} → ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('regression: a build of other inputs into the folder dropped the gone sessions of the first; now they are kept for the next build of them', async () => {
    const { first, gone, run } = await withGoneSession();
    const elsewhere = join(await tempDir(), 'elsewhere');
    await cp(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), join(elsewhere, 'minimal-v3.jsonl'));
    expect((await run({ inputs: [elsewhere], day: 7 })).sessions).toHaveLength(1);
    const later = await run({ day: 9 });
    expect(later.totals.tokens).toEqual(first.totals.tokens);
    expect(later.sessions.find((s) => s.key === gone?.key)?.sourceLastSeen).toBe('2026-12-01T00:00:00.000Z');
    // --forget-missing keeps only what the build reads.
    await run({ inputs: [elsewhere], day: 10, forgetMissing: true });
    expect((await run({ day: 11 })).sessions).toHaveLength(first.sessions.length - 1);
  });

  // Regression: the same folder given once through a link to it and once by its path: the
  // sessions archived by the first were kept by the second as sessions it did not show, each
  // with its page, in both orders and at every later build.
  it('keeps no second copy of a session read once through a link to its folder and once by its path', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'pi'));
    const link = join(await tempDir(), 'link');
    await symlink(input, link);
    const pagesOf = async () => (await readdir(join(out, 'sessions'))).filter((name) => name.endsWith('.html')).sort();
    const first = await run({ inputs: [link] });
    const pages = await pagesOf();
    for (const [inputs, day] of [[[input], 5], [[link], 7], [[input], 9]] as const) {
      const result = await build({ inputs: [...inputs], out, scope: ALL_UTC, environment, now: at(day) });
      expect(result.sessionsCarried).toEqual({ sessions: 0, warmupStarts: 0 });
      expect(result.summary.totals.cost).toEqual(first.totals.cost);
      expect((await pagesOf()).length).toBe(pages.length);
    }
    // Regression (a hostile look at this fix): links to the files themselves, in a folder or
    // given one by one, still kept a second copy; and a build that redacts, of the folder by its
    // path after one through the link, was refused as if it would not write those files again.
    const links = join(await tempDir(), 'links');
    await mkdir(links);
    const files = (await readdir(input)).filter((name) => name.endsWith('.jsonl'));
    for (const name of files) await symlink(join(input, name), join(links, name));
    const lineage = join(input, 'lineage');
    for (const [inputs, day] of [[[links, lineage], 11], [[input], 13], [[...files.map((name) => join(links, name)), lineage], 15], [[input], 17]] as const) {
      const result = await build({ inputs: [...inputs], out, scope: ALL_UTC, environment, now: at(day) });
      expect(result.sessionsCarried).toEqual({ sessions: 0, warmupStarts: 0 });
      expect((await pagesOf()).length).toBe(pages.length);
    }
    await build({ inputs: [link], out, scope: ALL_UTC, environment, now: at(19) });
    const redacted = await build({ inputs: [input], out, scope: ALL_UTC, redact: true, environment, now: at(21) });
    expect(redacted.sessionsCarried).toEqual({ sessions: 0, warmupStarts: 0 });
  });

  it('regression: a redacted build into a plain archive dropped its gone sessions unasked; now it is refused, and the folder left as it was', async () => {
    const { first, input, out } = await withGoneSession();
    const redacted = (more: { forgetMissing?: boolean; out?: string } = {}) => build({ inputs: [input], out: more.out ?? out, scope: ALL_UTC, redact: true, environment, now: at(7), ...more });
    const summaryBefore = await readFile(join(out, 'summary.json'), 'utf8');
    await expect(redacted()).rejects.toThrow(/holds the archive of an earlier build that neither redacts nor omits, with 1 session file this build would not write again.*another folder \(--out\), or pass --forget-missing/);
    expect(await readFile(join(out, 'summary.json'), 'utf8')).toBe(summaryBefore);
    // Into another folder, or asked to drop it: built.
    expect((await redacted({ out: join(await tempDir(), 'shared') })).summary.sessions).toHaveLength(first.sessions.length - 1);
    expect((await redacted({ forgetMissing: true })).summary.sessions).toHaveLength(first.sessions.length - 1);
  });

  // Regression (a review of what a folder holds): a file cut short since a plain build archived
  // it, built again with --share (or the other way), lost its archived replies without a word.
  it('refuses a build that shares another way over an archive of a file that holds less now, in or out of the home', async () => {
    for (const inHome of [false, true]) {
      const { input, out } = await setUp(join(FIXTURES, 'pi'));
      const environment = { env: {}, home: inHome ? dirname(input) : await tempDir() };
      const first = await build({ inputs: [input], out, scope: ALL_UTC, environment, now: at(1) });
      const path = join(input, 'tools.jsonl');
      const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
      await writeFile(path, `${lines.slice(0, 4).join('\n')}\n`);
      const summaryBefore = await readFile(join(out, 'summary.json'), 'utf8');
      const shared = (more: { forgetMissing?: boolean } = {}) => build({ inputs: [input], out, scope: ALL_UTC, redact: true, environment, now: at(5), ...more });
      await expect(shared()).rejects.toThrow(/neither redacts nor omits, and 1 session file holds less than, or other than, when it archived it .*Build as before to keep it.*--forget-missing/);
      expect(await readFile(join(out, 'summary.json'), 'utf8')).toBe(summaryBefore);
      // As before, the archive keeps what the file lost; asked to, it shows the file as it is.
      const again = await build({ inputs: [input], out, scope: ALL_UTC, environment, now: at(7) });
      expect(again.summary.totals.cost).toEqual(first.summary.totals.cost);
      expect((await shared({ forgetMissing: true })).summary.totals.replies).toBeLessThan(first.summary.totals.replies);
    }
  });

  it('lets a build that shares another way replace an archive it writes again whole, though it names each session by its redacted path', async () => {
    const { input, out } = await setUp(join(FIXTURES, 'pi'));
    // The home folder holds the inputs: a redacted build names them from ~.
    const home = { env: {}, home: dirname(input) };
    const first = await build({ inputs: [input], out, scope: ALL_UTC, environment: home, now: at(1) });
    const redacted = await build({ inputs: [input], out, scope: ALL_UTC, redact: true, environment: home, now: at(5) });
    expect(redacted.summary.sessions).toHaveLength(first.summary.sessions.length);
    expect(redacted.summary.sessions[0]?.file).toMatch(/^~\//);
    const omitting = await build({ inputs: [input], out, scope: ALL_UTC, omit: ['thinking'], environment: home, now: at(9) });
    expect(omitting.summary.sessions).toHaveLength(first.summary.sessions.length);
  });

  // Regression: a redacted report's archive named each file by the hash of its real path, which
  // let its reader confirm a guess of the user's name (the rest of the path is on the page).
  it('names files in a redacted report by their redacted path, and still keeps a session whose file is gone', async () => {
    const { input, out } = await setUp(join(FIXTURES, 'pi'));
    const home = { env: {}, home: dirname(input) };
    const redacted = (day: number) => build({ inputs: [input], out, scope: ALL_UTC, redact: true, environment: home, now: at(day) });
    const first = await redacted(1);
    const records = (await readFile(join(out, RECORDS_PATH), 'utf8')).trim().split('\n').slice(1).map((line) => JSON.parse(line) as { source: string; place: string });
    const real = join(input, 'tools.jsonl');
    const hashes = records.flatMap((r) => [r.source, r.place]);
    expect(hashes).not.toContain(pathHash(real));
    expect(hashes).not.toContain(pathHash(input));
    expect(hashes).toContain(pathHash(`~/${basename(input)}/tools.jsonl`));
    await rm(real);
    const second = await redacted(5);
    expect(second.summary.sessions).toHaveLength(first.summary.sessions.length);
    expect(second.summary.totals.tokens).toEqual(first.summary.totals.tokens);
    expect(second.summary.sessions.filter((s) => s.sourceLastSeen !== null)).toHaveLength(1);
  });

  it('counts the sessions it keeps unshown, not their sub-agents\' files', async () => {
    const { input, out, run } = await setUp(join(FIXTURES, 'claude'));
    const first = await run();
    expect(first.sessions.some((s) => s.subagentFiles.length > 0)).toBe(true);
    const piOnly = await build({ inputs: [input], out, scope: { ...ALL_UTC, sources: ['pi'] }, environment, now: at(5) });
    expect(piOnly.sessionsCarried).toEqual(sessionCountOf(first.sessions));
  });

  it('regression: once every file was gone, a build with no inputs named replaced the archive with the bundled samples; now it keeps them, and refuses rather than replace an archive it cannot keep', async () => {
    const home = await tempDir();
    const sessions = join(home, '.pi', 'agent', 'sessions', '--home-ana-projects-shop--');
    await cp(join(FIXTURES, 'pi', 'tools.jsonl'), join(sessions, 'tools.jsonl'));
    const out = join(await tempDir(), 'report');
    const fromDefaults = (day: number) => build({ inputs: [], out, scope: ALL_UTC, environment: { env: {}, home }, now: at(day) });
    const first = await fromDefaults(1);
    expect(first.summary.sessions).toHaveLength(1);
    await rm(join(sessions, 'tools.jsonl'));
    const kept = await fromDefaults(5);
    expect(kept.usedSamples).toBe(false);
    expect(kept.summary.totals.cost).toEqual(first.summary.totals.cost);
    expect(kept.summary.sessions[0]?.sourceLastSeen).toBe('2026-12-01T00:00:00.000Z');
    // The agent's folder itself gone: the session cannot be told gone, and the samples are not put in its place.
    await rm(join(home, '.pi'), { recursive: true });
    const index = await readFile(join(out, 'index.html'), 'utf8');
    await expect(fromDefaults(9)).rejects.toThrow(/holds the archive of an earlier build \(1 session file\), which a report of bough's bundled samples would replace: it is left as it is/);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe(index);
  });

  // Regression (a review of the archive): with Claude Code's folder removed (an uninstall), its
  // sessions left every total, said only as "its archive also keeps 7 sessions".
  it('keeps showing the sessions of an agent whose whole folder is gone, while another agent’s is there', async () => {
    const home = await tempDir();
    await cp(join(FIXTURES, 'pi', 'tools.jsonl'), join(home, '.pi', 'agent', 'sessions', '--home-ana-shop--', 'tools.jsonl'));
    await cp(join(FIXTURES, 'claude', 'projects'), join(home, '.claude', 'projects'), { recursive: true });
    const out = join(await tempDir(), 'report');
    const fromDefaults = (day: number) => build({ inputs: [], out, scope: ALL_UTC, environment: { env: {}, home }, now: at(day) });
    const first = await fromDefaults(1);
    expect(first.summary.sessions.some((s) => s.source === 'claude')).toBe(true);
    await rm(join(home, '.claude'), { recursive: true });
    const after = await fromDefaults(5);
    expect(after.sessionsCarried).toEqual({ sessions: 0, warmupStarts: 0 });
    expect(after.summary.totals).toEqual(first.summary.totals);
    expect(after.summary.sessions.filter((s) => s.source === 'claude').every((s) => s.sourceLastSeen === '2026-12-01T00:00:00.000Z')).toBe(true);
    // A hostile look: a report that redacts names places as redacted, alike in every home, so
    // another home's archived sessions were shown as this one's gone ones: not there.
    const redacted = join(await tempDir(), 'report');
    const other = await tempDir();
    await cp(join(FIXTURES, 'pi', 'tools.jsonl'), join(other, '.pi', 'agent', 'sessions', '--home-bob-shop--', 'tools.jsonl'));
    await cp(join(FIXTURES, 'claude', 'projects'), join(home, '.claude', 'projects'), { recursive: true });
    const ofHome = (which: string) => build({ inputs: [], out: redacted, scope: ALL_UTC, redact: true, environment: { env: {}, home: which }, now: at(7) });
    const ana = await ofHome(home);
    const bob = await ofHome(other);
    expect(bob.summary.sessions.filter((s) => s.source === 'claude')).toEqual([]);
    expect(bob.sessionsCarried).toEqual(sessionCountOf(ana.summary.sessions.filter((s) => s.source === 'claude')));
  });
});
