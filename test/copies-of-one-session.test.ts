// One session in several files: the same transcript in two Claude Code config folders, a Codex
// thread and its archived copy, a Claude Code session resumed into a file of its own. A file that
// holds nothing another file of its session does not is no session of its own; a copy that goes
// on is one, linked to its origin; and the work in them counts once.

import { appendFile, cp, mkdir, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { parsePeriod, type Scope } from '../src/ledger/scope.js';
import type { Summary } from '../src/report/schema.js';
import { stats } from '../src/stats.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';

const CODEX_HOME = join(FIXTURES, 'codex', 'home');
const THREAD = 'rollout-2026-03-02T11-00-00-0195aaaa-0000-7000-8000-000000000001.jsonl';
const LIVE = join('sessions', '2026', '03', '02', THREAD);
const ARCHIVED = join('archived_sessions', THREAD);

const TWO_ROOTS = join(FIXTURES, 'claude', 'two-roots');
const SHOP = join('projects', '-home-ana-shop');
const SESSION = '55555555-5555-4555-8555-555555555555';
const MAIN = join(SHOP, `${SESSION}.jsonl`);
const SUBAGENT = join(SHOP, SESSION, 'subagents', 'agent-b1b2b3b4b5.jsonl');

const RESUMED = join(FIXTURES, 'claude', 'resumed', SHOP);
const ORIGIN = '66666666-6666-4666-8666-666666666661.jsonl';
const RESUMED_COPY = '66666666-6666-4666-8666-666666666662.jsonl';

const MARCH_2026: Scope = { ...ALL_UTC, period: parsePeriod({ month: '2026-03' }, 'UTC') };

/** `stats --json --by session` over the agents' default places named by `env`, as the CLI runs it. */
async function statsOver(env: Record<string, string>, scope: Scope = ALL_UTC) {
  const result = await stats({ inputs: [], scope, environment: { env, home: await tempDir() }, by: 'session', cache: false });
  return result.json;
}

async function buildOf(inputs: string[], env: Record<string, string> = {}): Promise<{ summary: Summary; out: string }> {
  const out = join(await tempDir(), 'report');
  const { summary } = await build({ inputs, out, scope: ALL_UTC, environment: { env, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
  return { summary, out };
}

/** A copy of a fixture folder, to change on disk. */
async function copyOf(fixture: string): Promise<string> {
  const dir = join(await tempDir(), 'in');
  await cp(fixture, dir, { recursive: true });
  return dir;
}

async function makeOlder(path: string): Promise<void> {
  const then = new Date('2026-01-01T00:00:00Z');
  await utimes(path, then, then);
}

describe('an archived copy of a Codex thread', () => {
  it('regression: is no second session (totals, rows, summary.json and pages)', async () => {
    const json = await statsOver({ CODEX_HOME });
    // The thread, its fork and a legacy rollout; the sub-agent counts in the thread.
    expect(json.totals.sessions).toBe(3);
    expect(json.rows.map((r) => r.key)).toContain(`codex:${join(CODEX_HOME, LIVE)}`);
    expect(json.rows.map((r) => r.key)).not.toContain(`codex:${join(CODEX_HOME, ARCHIVED)}`);

    const { summary, out } = await buildOf([], { CODEX_HOME });
    expect(summary.sessions.map((s) => s.file)).not.toContain(join(CODEX_HOME, ARCHIVED));
    const thread = summary.sessions.find((s) => s.file === join(CODEX_HOME, LIVE));
    expect(thread).toMatchObject({ prompts: 2, duplicateFiles: [join(CODEX_HOME, ARCHIVED)] });
    expect(await readdir(join(out, 'sessions'))).toHaveLength(3);
    expect(await readFile(join(out, thread?.page as string), 'utf8')).toContain(`<code>${join(CODEX_HOME, ARCHIVED)}</code>`);
  });

  it('regression: a live copy that stops short of its archived one made two sessions; now the archived copy, which went on, is the session', async () => {
    const home = await copyOf(CODEX_HOME);
    // The live file as it was after the first turn: a prefix of the archived one.
    const lines = (await readFile(join(home, LIVE), 'utf8')).split('\n');
    await writeFile(join(home, LIVE), `${lines.slice(0, 22).join('\n')}\n`);
    const { summary } = await buildOf([], { CODEX_HOME: home });
    expect(summary.sessions.map((s) => s.file)).not.toContain(join(home, LIVE));
    const thread = summary.sessions.find((s) => s.file === join(home, ARCHIVED));
    expect(thread).toMatchObject({ prompts: 2, origin: null, duplicateFiles: [join(home, LIVE)] });
    expect(summary.totals.sessions).toBe(3);
  });

  it('links a fork of the thread to the thread’s page, not to its archived copy (regression: "not in this report’s period or filters")', async () => {
    const { summary, out } = await buildOf([], { CODEX_HOME });
    const thread = summary.sessions.find((s) => s.file === join(CODEX_HOME, LIVE));
    const fork = summary.sessions.find((s) => s.title === 'Linter branch');
    expect(fork).toMatchObject({ origin: join(CODEX_HOME, LIVE), originMissing: false });
    const forkPage = await readFile(join(out, fork?.page as string), 'utf8');
    expect(forkPage).toContain(`Copied from “<a href="../${thread?.page}">`);
    const threadPage = await readFile(join(out, thread?.page as string), 'utf8');
    expect(threadPage).toContain(`Forked or copied into:</p>\n  <ul><li><a href="../${fork?.page}">Linter branch</a>`);
  });

  it('regression: summary.json gave a fork no parentFile; now it is the thread id Codex recorded, and a page names it when that thread is not read', async () => {
    const { summary } = await buildOf([], { CODEX_HOME });
    const fork = summary.sessions.find((s) => s.title === 'Linter branch');
    expect(fork?.parentFile).toBe('0195aaaa-0000-7000-8000-000000000001');
    // Its origin not among the inputs: the page says what it was copied from.
    const home = await copyOf(CODEX_HOME);
    await rm(join(home, LIVE));
    await rm(join(home, ARCHIVED));
    const alone = await buildOf([], { CODEX_HOME: home });
    const orphan = alone.summary.sessions.find((s) => s.title === 'Linter branch');
    expect(orphan).toMatchObject({ originMissing: true, parentFile: '0195aaaa-0000-7000-8000-000000000001' });
    expect(await readFile(join(alone.out, orphan?.page as string), 'utf8')).toContain('Copied from <code>0195aaaa-0000-7000-8000-000000000001</code>, which is not among the files read');
  });

  it('regression: a spawned sub-agent that replays its parent’s turn was said to run on the parent’s model too; now only its own', async () => {
    const home = await copyOf(CODEX_HOME);
    const childPath = join(home, 'sessions', '2026', '03', '02', 'rollout-2026-03-02T11-05-00-0195aaaa-0000-7000-8000-000000000003.jsonl');
    const child = (await readFile(childPath, 'utf8')).trimEnd().split('\n');
    const parent = (await readFile(join(home, LIVE), 'utf8')).trimEnd().split('\n');
    // The parent's first turn replayed (its meta, turn context on gpt-5.2-codex and first count), then the child's turn on gpt-5-mini, its counts going on from the replay's.
    const own = child.slice(1).map((line) =>
      line.replace('"model":"gpt-5.2-codex"', '"model":"gpt-5-mini"').replace(/"total_token_usage":\{"input_tokens":300,"cached_input_tokens":0,"output_tokens":20,"reasoning_output_tokens":0,"total_tokens":320\}/, '"total_token_usage":{"input_tokens":1300,"cached_input_tokens":200,"output_tokens":70,"reasoning_output_tokens":10,"total_tokens":1370}'),
    );
    await writeFile(childPath, `${[child[0], ...parent.slice(0, 12), ...own].join('\n')}\n`);
    const { summary, out } = await buildOf([], { CODEX_HOME: home });
    const thread = summary.sessions.find((s) => s.file === join(home, LIVE));
    expect(thread?.subagentFiles[0]?.usage.tokens).toMatchObject({ input: 300, output: 20 });
    const page = await readFile(join(out, thread?.page as string), 'utf8');
    expect(page).toMatch(/[>(]gpt-5-mini · 320 tokens/);
    expect(page).not.toContain('gpt-5.2-codex, gpt-5-mini');
  });

  it('folds the history a fork copied, and shows its own turns (regression: the whole parent thread shown again)', async () => {
    const { summary, out } = await buildOf([], { CODEX_HOME });
    const fork = summary.sessions.find((s) => s.title === 'Linter branch');
    const page = await readFile(join(out, fork?.page as string), 'utf8');
    const folded = page.indexOf('<li class="copied-run"><details><summary>13 entries copied from “Fix the failing test”, counted there</summary>');
    expect(folded).toBeGreaterThan(0);
    expect(page.indexOf('Fix the failing test</p>', folded)).toBeGreaterThan(folded);
    const end = page.indexOf('</details></li>', folded);
    expect(page.indexOf('Now run the linter', folded)).toBeGreaterThan(end);
    // Copied usage is shown, and said to count in the origin (regression: its cost shown as if counted here).
    const priced = page.split('<li class="entry ').filter((entry) => / \$[0-9.]+ bough/.test(entry));
    const copied = priced.filter((entry) => entry.includes('class="badge tone-copied"'));
    expect(copied.length).toBeGreaterThan(0);
    expect(copied.every((entry) => entry.includes(' bough · not counted here'))).toBe(true);
    const own = priced.filter((entry) => !entry.includes('class="badge tone-copied"'));
    expect(own.length).toBeGreaterThan(0);
    expect(own.some((entry) => entry.includes('not counted here'))).toBe(false);
  });

  for (const written of ['with the collab event', 'by its output alone (no extended events)']) {
    it(`links a spawn_agent call and the transcript of the thread it started, both ways: ${written}`, async () => {
      const home = await copyOf(CODEX_HOME);
      const live = join(home, LIVE);
      const lines = (await readFile(live, 'utf8')).trimEnd().split('\n');
      const child = '0195aaaa-0000-7000-8000-000000000003';
      const spawn = [
        { timestamp: '2026-03-02T10:01:09.500Z', type: 'response_item', payload: { type: 'function_call', name: 'spawn_agent', arguments: '{"message":"Inspect the tests"}', call_id: 'call_spawn' } },
        ...(written === 'with the collab event' ? [{ timestamp: '2026-03-02T10:01:09.600Z', type: 'event_msg', payload: { type: 'collab_agent_spawn_end', call_id: 'call_spawn', new_thread_id: child, new_agent_role: 'explorer' } }] : []),
        { timestamp: '2026-03-02T10:01:09.700Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_spawn', output: written === 'with the collab event' ? 'spawned' : `{"agent_id":"${child}"}` } },
      ];
      // After the turn's first call, inside the same reply.
      lines.splice(11, 0, ...spawn.map((line) => JSON.stringify(line)));
      await writeFile(live, `${lines.join('\n')}\n`);
      const { summary, out } = await buildOf([], { CODEX_HOME: home });
      const thread = summary.sessions.find((s) => s.file === live);
      const page = await readFile(join(out, thread?.page as string), 'utf8');
      expect(page).toContain('transcript: <a href="#subagent-1">Sub-agent: Darwin</a>');
      const started = /Started by <a href="#([^"]+)">the spawn_agent call<\/a>/.exec(page)?.[1];
      expect(started).toBeDefined();
      expect(page).toMatch(new RegExp(`id="${started}"[^]*?<span class="tool-name">spawn_agent</span>`));
    });
  }

  it('folds a spawned thread’s replay of its parent in the parent’s page, counted once', async () => {
    const home = await copyOf(CODEX_HOME);
    const day = join(home, 'sessions', '2026', '03', '02');
    const forkFile = join(day, 'rollout-2026-03-02T11-30-00-0195aaaa-0000-7000-8000-000000000002.jsonl');
    const [, ...replayAndOwn] = (await readFile(forkFile, 'utf8')).trimEnd().split('\n');
    const spawned = {
      timestamp: '2026-03-02T10:30:00.000Z',
      type: 'session_meta',
      payload: { id: '0195aaaa-0000-7000-8000-000000000004', timestamp: '2026-03-02T10:30:00.000Z', cwd: '/work/demo', originator: 'codex_cli_rs', cli_version: '0.104.0', model_provider: 'openai', source: { subagent: { thread_spawn: { parent_thread_id: '0195aaaa-0000-7000-8000-000000000001', depth: 1, agent_nickname: 'Noether', agent_role: 'worker' } } } },
    };
    await rm(forkFile);
    await writeFile(join(day, 'rollout-2026-03-02T11-30-00-0195aaaa-0000-7000-8000-000000000004.jsonl'), `${[JSON.stringify(spawned), ...replayAndOwn].join('\n')}\n`);
    const before = await statsOver({ CODEX_HOME: CODEX_HOME });
    const { summary, out } = await buildOf([], { CODEX_HOME: home });
    // The fork's own turn is now the sub-agent's: the same tokens in all, the replay counted once.
    expect(summary.totals.tokens).toEqual(before.totals.tokens);
    const thread = summary.sessions.find((s) => s.file === join(home, LIVE));
    const page = await readFile(join(out, thread?.page as string), 'utf8');
    const section = page.slice(page.indexOf('Sub-agent: Noether'));
    expect(section).toContain('<li class="copied-run"><details><summary>13 entries copied from the parent session, counted there</summary>');
    expect(section.indexOf('Now run the linter')).toBeGreaterThan(section.indexOf('</details></li>'));
    expect(section.indexOf('Now run the linter')).toBeGreaterThan(0);
  });

  it('leaves the live copy the session even when the archived file is older on disk', async () => {
    const home = await copyOf(CODEX_HOME);
    await makeOlder(join(home, ARCHIVED));
    const json = await statsOver({ CODEX_HOME: home });
    expect(json.totals.sessions).toBe(3);
    expect(json.rows.map((r) => r.key)).toContain(`codex:${join(home, LIVE)}`);
  });
});

describe('the same Claude Code session in ~/.claude and ~/.config/claude', () => {
  const bothRoots = { CLAUDE_CONFIG_DIR: `${join(TWO_ROOTS, 'dot-claude')},${join(TWO_ROOTS, 'dot-config-claude')}` };

  it('regression: is one session, counted once, in the month too', async () => {
    for (const scope of [ALL_UTC, MARCH_2026]) {
      const json = await statsOver(bothRoots, scope);
      expect(json.totals).toMatchObject({ sessions: 1, prompts: 2, replies: 2, tokens: { input: 1300, output: 35 } });
      expect(json.rows).toHaveLength(1);
    }
  });

  it('lists the other folder’s files with the session, its sub-agent once, and writes one page', async () => {
    const { summary, out } = await buildOf([TWO_ROOTS]);
    expect(summary.sessions).toHaveLength(1);
    const [session] = summary.sessions;
    expect(session?.file).toBe(join(TWO_ROOTS, 'dot-claude', MAIN));
    expect(session?.duplicateFiles).toEqual([join(TWO_ROOTS, 'dot-config-claude', MAIN), join(TWO_ROOTS, 'dot-config-claude', SUBAGENT)]);
    expect(session?.subagentFiles.map((s) => s.file)).toEqual([join(TWO_ROOTS, 'dot-claude', SUBAGENT)]);
    expect(await readdir(join(out, 'sessions'))).toHaveLength(1);
    const page = await readFile(join(out, session?.page as string), 'utf8');
    expect(page).toContain('The same session, holding nothing more, is also in these files');
    expect(page).toContain(`<code>${join(TWO_ROOTS, 'dot-config-claude', MAIN)}</code>`);
  });

  it.each([['older', 'dot-claude'], ['newer', 'dot-config-claude']])(
    'regression: a shorter copy (%s on disk) split the session in two, half its cost in each; now the fuller file is the session',
    async (_, older) => {
      const dir = await copyOf(join(FIXTURES, 'claude', 'two-roots-gone-on'));
      await makeOlder(join(dir, older, MAIN));
      const { summary } = await buildOf([dir]);
      expect(summary.sessions).toHaveLength(1);
      expect(summary.sessions[0]).toMatchObject({
        file: join(dir, 'dot-config-claude', MAIN),
        prompts: 3,
        tokens: { input: 700 },
        origin: null,
        copiedEntries: 0,
        duplicateFiles: [join(dir, 'dot-claude', MAIN)],
      });
      expect(summary.totals).toMatchObject({ sessions: 1, prompts: 3, tokens: { input: 700 } });
    },
  );

  it.each([['older', 'dot-claude'], ['newer', 'dot-config-claude']])(
    'regression: a copy cut off inside a streamed response (%s on disk) was a session of its own, the response counted in the other; now it is listed with the session',
    async (_, older) => {
      const dir = await copyOf(join(FIXTURES, 'claude', 'two-roots-cut-in-response'));
      const main = join(SHOP, '77777777-7777-4777-8777-777777777777.jsonl');
      await makeOlder(join(dir, older, main));
      const { summary } = await buildOf([dir]);
      expect(summary.sessions).toHaveLength(1);
      // The response's last line (output 300) is in the fuller file only: that file is the session.
      expect(summary.sessions[0]).toMatchObject({ file: join(dir, 'dot-config-claude', main), prompts: 1, replies: 1, origin: null, duplicateFiles: [join(dir, 'dot-claude', main)] });
      expect(summary.totals).toMatchObject({ sessions: 1, prompts: 1, usageRecords: 1, tokens: { input: 100, output: 300 } });
    },
  );

  it('is kept whole by the archive when one folder’s copy is gone, and stays one session', async () => {
    const input = await copyOf(TWO_ROOTS);
    const out = join(await tempDir(), 'report');
    const run = async (day: number) =>
      (await build({ inputs: [input], out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date(Date.UTC(2026, 11, day)) })).summary;
    const first = await run(1);
    await rm(join(input, 'dot-claude', MAIN));
    await rm(join(input, 'dot-claude', SUBAGENT));
    const second = await run(5);
    expect(second.totals).toEqual(first.totals);
    expect(second.sessions).toHaveLength(1);
    // The other folder's copy is the session now: nothing is kept as gone, nothing listed twice.
    expect(second.sessions[0]).toMatchObject({ file: join(input, 'dot-config-claude', MAIN), sourceLastSeen: null, duplicateFiles: [] });
    expect(second.diagnostics.goneFiles).toBe(0);
  });
});

describe('a Claude Code session resumed under a new session id', () => {
  it('regression: is linked to its origin, its copied turns counted there (summary.json and pages)', async () => {
    const { summary, out } = await buildOf([RESUMED]);
    const origin = summary.sessions.find((s) => s.file === join(RESUMED, ORIGIN));
    const copy = summary.sessions.find((s) => s.file === join(RESUMED, RESUMED_COPY));
    expect(copy).toMatchObject({ origin: join(RESUMED, ORIGIN), originMissing: false, parentFile: null, copiedEntries: 4, prompts: 1, tokens: { input: 400 } });
    expect(origin).toMatchObject({ origin: null, prompts: 2, tokens: { input: 300 } });
    const copyPage = await readFile(join(out, copy?.page as string), 'utf8');
    expect(copyPage).toContain(`Copied from “<a href="../${origin?.page}">`);
    const originPage = await readFile(join(out, origin?.page as string), 'utf8');
    expect(originPage).toContain('Forked or copied into:');
    // Both are titled by the prompt the copy took: the copy's file tells them apart (regression: "Add a discount field" twice).
    expect(copy?.title).toBe(origin?.title);
    expect(originPage).toContain(`<a href="../${copy?.page}">Add a discount field (66666666-6666-4666-8666-666666666662.jsonl)</a>`);
    // In quotes, as a title is (regression, an outside review in a browser: a title ending in a full
    // stop read "Copied from Explain what src/main.py does.. Entries …").
    expect(copyPage).toContain(`Copied from “<a href="../${origin?.page}">Add a discount field (66666666-6666-4666-8666-666666666661.jsonl)</a>”. Entries it shares`);
  });

  it('is linked the right way round when the copy’s file is older on disk', async () => {
    const dir = await copyOf(RESUMED);
    await makeOlder(join(dir, RESUMED_COPY));
    const { summary } = await buildOf([dir]);
    const copy = summary.sessions.find((s) => s.file === join(dir, RESUMED_COPY));
    expect(copy).toMatchObject({ origin: join(dir, ORIGIN), prompts: 1, tokens: { input: 400 } });
    expect(summary.sessions.find((s) => s.file === join(dir, ORIGIN))).toMatchObject({ origin: null, prompts: 2, tokens: { input: 300 } });
  });
});

// Regression (an outside review of the monthly report): once the origin's file was gone (Claude
// Code deletes transcripts after 30 days), the copy, read now, was put before the origin kept in
// the archive, as a file read now is before a kept one holding the same: it took the history they
// share (its October spend listed under a session begun in November), and the origin was shown
// as the copy's copy.
describe('a Claude Code session resumed under a new session id, its origin’s file gone since', () => {
  it('keeps the shared history counted in the origin, and the copy its copy', async () => {
    const dir = await copyOf(RESUMED);
    // The origin went on after the copy was taken: the copy holds only its first two turns.
    const line = (type: 'user' | 'assistant', uuid: string, parent: string, time: string, more: object) =>
      JSON.stringify({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/home/ana/shop', sessionId: ORIGIN.slice(0, 36), version: '2.1.30', type, uuid, timestamp: time, ...more });
    const goneOn = [
      line('user', 'r-u9', 'r-a2', '2026-03-07T11:00:00.000Z', { message: { role: 'user', content: 'And a test for it' } }),
      line('assistant', 'r-a9', 'r-u9', '2026-03-07T11:00:04.000Z', {
        requestId: 'req_R9',
        message: { id: 'msg_R9', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 50, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
      }),
    ];
    await writeFile(join(dir, ORIGIN), `${await readFile(join(dir, ORIGIN), 'utf8')}${goneOn.join('\n')}\n`);
    await makeOlder(join(dir, ORIGIN));
    const out = join(await tempDir(), 'report');
    const run = async (day: number) =>
      (await build({ inputs: [dir], out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date(Date.UTC(2026, 11, day)), cache: false })).summary;
    const before = await run(1);
    await rm(join(dir, ORIGIN));
    const after = await run(5);
    const origin = after.sessions.find((s) => s.file === join(dir, ORIGIN));
    const copy = after.sessions.find((s) => s.file === join(dir, RESUMED_COPY));
    expect(before.sessions.find((s) => s.file === join(dir, ORIGIN))).toMatchObject({ origin: null, prompts: 3, tokens: { input: 350 } });
    expect(origin).toMatchObject({ origin: null, prompts: 3, tokens: { input: 350 }, startedAt: before.sessions.find((s) => s.file === join(dir, ORIGIN))?.startedAt });
    expect(origin?.sourceLastSeen).not.toBeNull();
    expect(copy).toMatchObject({ origin: join(dir, ORIGIN), prompts: 1, tokens: { input: 400 }, copiedEntries: 4 });
    expect(after.totals.cost).toEqual(before.totals.cost);
  });
});

// Regression (a Claude Code format review): two copies of one session resumed apart, each under a
// new session id, share as much with each other as with it: the later was taken for the earlier's
// origin, and the session itself named no copy.
describe('a Claude Code session resumed twice, each copy under a new session id', () => {
  it('is the origin of both copies', async () => {
    const dir = await copyOf(RESUMED);
    const lines = (await readFile(join(dir, RESUMED_COPY), 'utf8')).trimEnd().split('\n');
    const third = '66666666-6666-4666-8666-666666666663';
    const own = lines.slice(4).map((line) =>
      line.replaceAll('r-u3', 'r-u4').replaceAll('r-a3', 'r-a4').replaceAll('R3', 'R4').replaceAll('Show it on the receipt', 'Email it too').replaceAll('2026-03-08T09', '2026-03-08T10'),
    );
    await writeFile(join(dir, `${third}.jsonl`), `${[...lines.slice(0, 4), ...own].map((line) => line.replaceAll('66666666-6666-4666-8666-666666666662', third)).join('\n')}\n`);
    const { summary } = await buildOf([dir]);
    const originOf = (name: string) => summary.sessions.find((s) => s.file === join(dir, name))?.origin;
    expect([originOf(ORIGIN), originOf(RESUMED_COPY), originOf(`${third}.jsonl`)]).toEqual([null, join(dir, ORIGIN), join(dir, ORIGIN)]);
  });
});

describe('unrelated Pi sessions whose entries share ids and times', () => {
  // Regression: generated files reuse short ids and one clock; an entry of one session was taken
  // for a copy of another's and its usage counted nowhere, without a word.
  const piFile = (cwd: string, time: string | null, input: number) =>
    [
      { type: 'session', version: 3, id: cwd, timestamp: '2026-10-01T10:00:00.000Z', cwd },
      { type: 'message', id: 'e1', parentId: null, ...(time ? { timestamp: time } : {}), message: { role: 'user', content: [{ type: 'text', text: `asked in ${cwd}` }] } },
      {
        type: 'message',
        id: 'e2',
        parentId: 'e1',
        ...(time ? { timestamp: time } : {}),
        message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: input }, stopReason: 'stop' },
      },
    ]
      .map((record) => JSON.stringify(record))
      .join('\n');

  it.each([
    ['the same time', '2026-10-01T10:00:01.000Z'],
    ['the same time that is no day of the calendar', '2026-02-30T10:00:00Z'],
    ['no time at all', null],
  ])('counts both, with %s', async (_, time) => {
    const dir = await tempDir();
    await writeFile(join(dir, 'one.jsonl'), piFile('/work/one', time, 1000));
    await writeFile(join(dir, 'two.jsonl'), piFile('/work/two', time, 5000));
    const { json } = await stats({ inputs: [dir], scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, by: 'session', cache: false });
    expect(json.totals.tokens.input).toBe(6000);
    expect(json.totals.prompts).toBe(2);
  });
});

describe('a fork of a fork whose middle file is gone', () => {
  // Regression (a review of Pi's trees): what it copied was counted in the first session, and its
  // page said "copied from another session, counted there" without saying which.
  it('names and links the session that counts what it copied', async () => {
    const dir = await tempDir();
    const line = (value: object) => JSON.stringify(value);
    const message = (id: string, parentId: string | null, at: string, role: 'user' | 'assistant', text: string) =>
      line({
        type: 'message',
        id,
        parentId,
        timestamp: at,
        message:
          role === 'user'
            ? { role, content: [{ type: 'text', text }] }
            : { role, content: [{ type: 'text', text }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1000, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 1010 }, stopReason: 'stop' },
      });
    const history = [message('u1', null, '2026-10-07T10:00:01.000Z', 'user', 'Origin prompt ONE'), message('a1', 'u1', '2026-10-07T10:00:02.000Z', 'assistant', 'done')];
    await writeFile(join(dir, '2026-10-07T10-00-00-000Z_origin.jsonl'), [line({ type: 'session', version: 3, id: 'origin', timestamp: '2026-10-07T10:00:00.000Z', cwd: '/w' }), ...history].join('\n'));
    const gone = join(dir, 'gone', '2026-10-08T10-00-00-000Z_middle.jsonl');
    await writeFile(
      join(dir, '2026-10-09T10-00-00-000Z_last.jsonl'),
      [
        line({ type: 'session', version: 3, id: 'last', timestamp: '2026-10-09T10:00:00.000Z', cwd: '/w', parentSession: gone }),
        ...history,
        message('u3', 'a1', '2026-10-09T10:00:01.000Z', 'user', 'Fork prompt THREE'),
        message('a3', 'u3', '2026-10-09T10:00:02.000Z', 'assistant', 'done'),
      ].join('\n'),
    );
    const { summary, out } = await buildOf([dir]);
    expect(summary.totals.tokens.input).toBe(2000);
    const last = summary.sessions.find((s) => s.file.endsWith('_last.jsonl'));
    const origin = summary.sessions.find((s) => s.file.endsWith('_origin.jsonl'));
    const page = await readFile(join(out, last?.page as string), 'utf8');
    expect(page).toContain('2 entries copied from another session, counted in “Origin prompt ONE”</summary>');
    expect(page).toContain(`but for those another file read holds first (marked “copied”): <a href="../${origin?.page}">Origin prompt ONE</a>.</p>`);

    // A sibling fork of the gone middle file holds its turn first (a hostile look: the page named
    // only the first session, as if it counted all six).
    const middleTurn = [message('u2', 'a1', '2026-10-08T10:00:01.000Z', 'user', 'Middle prompt TWO'), message('a2', 'u2', '2026-10-08T10:00:02.000Z', 'assistant', 'done')];
    await writeFile(
      join(dir, '2026-10-09T09-00-00-000Z_sibling.jsonl'),
      [line({ type: 'session', version: 3, id: 'sibling', timestamp: '2026-10-09T09:00:00.000Z', cwd: '/w', parentSession: gone }), ...history, ...middleTurn, message('u4', 'a2', '2026-10-09T09:00:01.000Z', 'user', 'Sibling prompt')].join('\n'),
    );
    await writeFile(
      join(dir, '2026-10-09T10-00-00-000Z_last.jsonl'),
      [line({ type: 'session', version: 3, id: 'last', timestamp: '2026-10-09T10:00:00.000Z', cwd: '/w', parentSession: gone }), ...history, ...middleTurn, message('u3', 'a2', '2026-10-09T10:00:01.000Z', 'user', 'Fork prompt THREE')].join('\n'),
    );
    const again = await buildOf([dir]);
    const lastAgain = again.summary.sessions.find((s) => s.file.endsWith('_last.jsonl'));
    const sibling = again.summary.sessions.find((s) => s.file.endsWith('_sibling.jsonl'));
    const originAgain = again.summary.sessions.find((s) => s.file.endsWith('_origin.jsonl'));
    const pageAgain = await readFile(join(again.out, lastAgain?.page as string), 'utf8');
    expect(pageAgain).toContain('4 entries copied from another session, counted in “Origin prompt ONE” and 1 other session</summary>');
    expect(pageAgain).toContain(`(marked “copied”): <a href="../${originAgain?.page}">Origin prompt ONE</a>, <a href="../${sibling?.page}">Sibling prompt</a>.</p>`);
    // The first session lists both as its copies (they linked to it, and it to neither); the
    // sibling lists none: the fork holds what it copied of the gone file, not of the sibling.
    const copiesOn = async (session: typeof originAgain) => {
      const html = await readFile(join(again.out, session?.page as string), 'utf8');
      const list = /Forked or copied into:<\/p>\n\s*<ul>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
      return Array.from(list.matchAll(/href="\.\.\/([^"]+)"/g), (m) => m[1]).sort();
    };
    expect(await copiesOn(originAgain)).toEqual([lastAgain?.page, sibling?.page].sort());
    expect(await copiesOn(sibling)).toEqual([]);

    // Regression: a rebuild kept the fork's page as it was when the first session, counting what
    // it copied, was renamed: it named it by its old name (the sessions counting what a copy
    // copied were not among the links its page was kept by, its neighbours were).
    const cachedOut = join(await tempDir(), 'report');
    const cached = (day: number) => build({ inputs: [dir], out: cachedOut, scope: ALL_UTC, environment: { env: { BOUGH_CACHE_DIR: join(dir, '..', 'cache') }, home: '/nonexistent' }, now: new Date(Date.UTC(2026, 11, day)) });
    await cached(1);
    await appendFile(join(dir, '2026-10-07T10-00-00-000Z_origin.jsonl'), `\n${line({ type: 'session_info', id: 'n1', parentId: 'a1', timestamp: '2026-10-07T10:00:03.000Z', name: 'Origin RENAMED' })}\n`);
    const renamed = await cached(2);
    const lastPage = await readFile(join(cachedOut, renamed.summary.sessions.find((s) => s.file.endsWith('_last.jsonl'))?.page as string), 'utf8');
    expect(lastPage).toContain('counted in “Origin RENAMED” and 1 other session</summary>');
  });
});

describe('Pi sessions that share an id the caller chose (--session-id)', () => {
  const record = (value: object) => JSON.stringify(value);
  /** A prompt and its reply (1,000 tokens in), on `day`, as two lines. */
  const turn = (prefix: string, day: string, parent: string | null, prompt: string) => [
    record({ type: 'message', id: `${prefix}u`, parentId: parent, timestamp: `${day}T09:00:10.000Z`, message: { role: 'user', content: [{ type: 'text', text: prompt }] } }),
    record({
      type: 'message',
      id: `${prefix}a`,
      parentId: `${prefix}u`,
      timestamp: `${day}T09:00:15.000Z`,
      message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1000, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 1010 }, stopReason: 'stop' },
    }),
  ];
  const piFile = (cwd: string, day: string, prefix: string, prompt: string, entries: string[] = []) =>
    [record({ type: 'session', version: 3, id: 'nightly', timestamp: `${day}T09:00:00.000Z`, cwd }), ...turn(prefix, day, null, prompt), ...entries].join('\n');

  it('regression: two that share no entry were shown as a session and its copy; now each is a session of its own', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'one'));
    await mkdir(join(dir, 'two'));
    await writeFile(join(dir, 'one', '2026-10-17T09-00-00-000Z_nightly.jsonl'), piFile('/work/one', '2026-10-17', 'm', 'Monday: update deps'));
    await writeFile(join(dir, 'two', '2026-10-18T09-00-00-000Z_nightly.jsonl'), piFile('/work/two', '2026-10-18', 't', 'Tuesday: fix lint'));
    const { summary, out } = await buildOf([dir]);
    expect(summary.sessions.map((s) => s.origin)).toEqual([null, null]);
    expect(summary.totals.tokens.input).toBe(2000);
    for (const session of summary.sessions) {
      const page = await readFile(join(out, session.page), 'utf8');
      expect(page).not.toContain('Copied from');
      expect(page).not.toContain('Forked or copied into');
    }
  });

  // Regression (a hostile look): an import of an import was linked to the first file it shares
  // an entry with, not to the one it was imported from, which holds all it copied.
  it('links an import of an import to the file it was imported from', async () => {
    const dir = await tempDir();
    const header = record({ type: 'session', version: 3, id: 'nightly', timestamp: '2026-10-17T09:00:00.000Z', cwd: '/work/one' });
    const a = [header, ...turn('a', '2026-10-17', null, 'A first prompt')];
    const b = [...a, ...turn('b', '2026-10-18', 'aa', 'B continued prompt')];
    const c = [...b, ...turn('c', '2026-10-19', 'ba', 'C continued prompt')];
    for (const [folder, lines, day] of [['one', a, '17'], ['two', b, '18'], ['three', c, '19']] as const) {
      await mkdir(join(dir, folder));
      const path = join(dir, folder, '2026-10-17T09-00-00-000Z_nightly.jsonl');
      await writeFile(path, lines.join('\n'));
      await utimes(path, new Date(`2026-10-${day}T12:00:00Z`), new Date(`2026-10-${day}T12:00:00Z`));
    }
    const { summary } = await buildOf([dir]);
    const origin = (folder: string) => summary.sessions.find((s) => s.file.includes(`/${folder}/`))?.origin ?? null;
    expect(origin('two')).toContain('/one/');
    expect(origin('three')).toContain('/two/');
    expect(summary.totals.tokens.input).toBe(3000);
  });

  // Regression (a hostile look): with the file it was imported from gone, an import that went on
  // took that session's place: no page of it, no "file gone", its prompt counted in the import.
  it('keeps a gone session an import went on from, as the import’s origin', async () => {
    const dir = await tempDir();
    const header = record({ type: 'session', version: 3, id: 'nightly', timestamp: '2026-10-17T09:00:00.000Z', cwd: '/work/one' });
    const a = [header, ...turn('a', '2026-10-17', null, 'A first prompt')];
    const b = [...a, ...turn('b', '2026-10-18', 'aa', 'B continued prompt')];
    for (const [folder, lines, day] of [['one', a, '17'], ['two', b, '18']] as const) {
      await mkdir(join(dir, folder));
      const path = join(dir, folder, '2026-10-17T09-00-00-000Z_nightly.jsonl');
      await writeFile(path, lines.join('\n'));
      await utimes(path, new Date(`2026-10-${day}T12:00:00Z`), new Date(`2026-10-${day}T12:00:00Z`));
    }
    const out = join(await tempDir(), 'report');
    const options = { inputs: [dir], out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false };
    await build(options);
    await rm(join(dir, 'one'), { recursive: true });
    const { summary } = await build(options);
    expect(summary.totals).toMatchObject({ sessions: 2, prompts: 2, tokens: { input: 2000 } });
    const gone = summary.sessions.find((s) => s.file.includes('/one/'));
    const copy = summary.sessions.find((s) => s.file.includes('/two/'));
    expect(gone?.sourceLastSeen).not.toBeNull();
    expect(copy?.origin).toContain('/one/');
    expect(copy?.prompts).toBe(1);

    // The import moved, its origin still gone (a hostile look: the origin was taken for moved into
    // it, and dropped from the archive for good); and a fresh copy of the import beside it.
    await rename(join(dir, 'two'), join(dir, 'four'));
    const moved = await build(options);
    expect(moved.summary.totals).toMatchObject({ sessions: 2, prompts: 2, tokens: { input: 2000 } });
    expect(moved.summary.sessions.find((s) => s.file.includes('/one/'))?.sourceLastSeen).not.toBeNull();
    expect(moved.summary.sessions.find((s) => s.file.includes('/four/'))).toMatchObject({ prompts: 1, origin: expect.stringContaining('/one/') });
    await mkdir(join(dir, 'five'));
    await cp(join(dir, 'four', '2026-10-17T09-00-00-000Z_nightly.jsonl'), join(dir, 'five', '2026-10-17T09-00-00-000Z_nightly.jsonl'));
    const copied = await build(options);
    expect(copied.summary.totals).toMatchObject({ sessions: 2, prompts: 2, tokens: { input: 2000 } });
    expect(copied.summary.sessions.find((s) => s.file.includes('/one/'))?.sourceLastSeen).not.toBeNull();
  });

  // Regressions (a hostile look at the fix above): a session moved unchanged beside an import of
  // it was shown as gone and its new file nowhere; a fork moved and gone on left its gone file an
  // empty row, the moved file counting its prompt, and the kept page claiming it too.
  it('takes a session moved unchanged for moved beside its import, and a fork moved and gone on beside itself', async () => {
    const dir = await tempDir();
    const turn = (prefix: string, minute: number, parent: string | null, input: number) => [
      record({ type: 'message', id: `${prefix}u`, parentId: parent, timestamp: `2026-10-17T09:${String(minute).padStart(2, '0')}:10.000Z`, message: { role: 'user', content: [{ type: 'text', text: `prompt ${prefix}` }] } }),
      record({
        type: 'message',
        id: `${prefix}a`,
        parentId: `${prefix}u`,
        timestamp: `2026-10-17T09:${String(minute).padStart(2, '0')}:15.000Z`,
        message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 }, stopReason: 'stop' },
      }),
    ];
    const name = '2026-10-17T09-00-00-000Z_nightly.jsonl';
    const origin = [record({ type: 'session', version: 3, id: 'nightly', timestamp: '2026-10-17T09:00:00.000Z', cwd: '/work/one' }), ...turn('o1', 1, null, 1000)];
    const put = async (folder: string, lines: string[], file = name) => {
      await mkdir(join(dir, folder), { recursive: true });
      await writeFile(join(dir, folder, file), lines.join('\n'));
    };
    await put('one', origin);
    await put('other', [...origin, ...turn('i1', 2, 'o1a', 2000)]);
    const forkName = '2026-10-17T09-30-00-000Z_fork.jsonl';
    const fork = [record({ type: 'session', version: 3, id: 'fork', timestamp: '2026-10-17T09:30:00.000Z', cwd: '/work/one', parentSession: join(dir, 'one', name) }), ...origin.slice(1), ...turn('f1', 31, 'o1a', 4000)];
    await put('forks', fork, forkName);
    const out = join(await tempDir(), 'report');
    const options = { inputs: [dir], out, scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false };
    expect((await build(options)).summary.totals).toMatchObject({ sessions: 3, prompts: 3, tokens: { input: 7000 } });
    await rename(join(dir, 'one'), join(dir, 'moved'));
    await rm(join(dir, 'forks'), { recursive: true });
    await put('forks2', [...fork, ...turn('f2', 32, 'f1a', 8000)], forkName);
    const { summary } = await build(options);
    expect(summary.totals).toMatchObject({ prompts: 4, tokens: { input: 15_000 } });
    const row = (folder: string) => summary.sessions.find((s) => s.file.includes(`/${folder}/`));
    // The moved origin is the session, and no gone copy of it is left.
    expect(row('moved')).toMatchObject({ prompts: 1, sourceLastSeen: null });
    expect(row('one')).toBeUndefined();
    // The fork moved and gone on is one session, its new file (a pricing review, 2026-12-07: the
    // gone file kept the history, the moved one shown as its copy holding the new turn alone).
    expect(row('forks')).toBeUndefined();
    expect(row('forks2')).toMatchObject({ prompts: 2, tokens: expect.objectContaining({ input: 12_000 }) });
  });

  // Regression (a hostile look): an origin whose file was written after its import's (copied, or
  // restored) was taken for the import's duplicate and dropped, the import counting its history.
  it('takes the file holding less for the origin, whichever was written last', async () => {
    const dir = await tempDir();
    const origin = [record({ type: 'session', version: 3, id: 'nightly', timestamp: '2026-10-17T09:00:00.000Z', cwd: '/work/one' }), ...turn('a', '2026-10-17', null, 'A first prompt')];
    for (const [folder, lines, day] of [['one', origin, '20'], ['two', [...origin, ...turn('b', '2026-10-18', 'aa', 'B continued prompt')], '18']] as const) {
      await mkdir(join(dir, folder));
      const path = join(dir, folder, '2026-10-17T09-00-00-000Z_nightly.jsonl');
      await writeFile(path, lines.join('\n'));
      await utimes(path, new Date(`2026-10-${day}T12:00:00Z`), new Date(`2026-10-${day}T12:00:00Z`));
    }
    const { summary } = await buildOf([dir]);
    const row = (folder: string) => summary.sessions.find((s) => s.file.includes(`/${folder}/`));
    expect(row('one')).toMatchObject({ prompts: 1, origin: null });
    expect(row('two')).toMatchObject({ prompts: 1, origin: expect.stringContaining('/one/') });
  });

  it('still takes one holding another’s entries (an /import gone on with) for its copy', async () => {
    const dir = await tempDir();
    const origin = piFile('/work/one', '2026-10-17', 'm', 'Monday: update deps');
    await writeFile(join(dir, '2026-10-17T09-00-00-000Z_nightly.jsonl'), origin);
    const more = record({ type: 'message', id: 'x1', parentId: 'ma', timestamp: '2026-10-19T09:00:00.000Z', message: { role: 'user', content: [{ type: 'text', text: 'and go on' }] } });
    await writeFile(join(dir, '2026-10-19T09-00-00-000Z_nightly.jsonl'), `${origin}\n${more}`);
    const { summary } = await buildOf([dir]);
    const copy = summary.sessions.find((s) => s.file.includes('10-19'));
    expect(copy?.origin).toContain('2026-10-17T09-00-00-000Z_nightly.jsonl');
    expect(summary.totals.tokens.input).toBe(1000);
  });
});

describe('a fork', () => {
  // Regression: every fork of a thread was titled by the thread's first prompt, which it copied.
  it('is titled by its first prompt of its own; one that added none keeps the copied one', async () => {
    const dir = await tempDir();
    const at = (s: number) => `2026-10-01T10:00:${String(s).padStart(2, '0')}.000Z`;
    const prompt = (id: string, parentId: string | null, text: string, s: number) => ({ type: 'message', id, parentId, timestamp: at(s), message: { role: 'user', content: text } });
    const parent = [{ type: 'session', version: 3, id: 'p1', timestamp: at(0), cwd: '/work/demo' }, prompt('u1', null, 'Explain main.py', 1), prompt('u2', 'u1', 'And the tests?', 2)];
    const fork = (id: string, own: string[]) => [
      { type: 'session', version: 3, id, timestamp: at(10), cwd: '/work/demo', parentSession: join(dir, 'parent.jsonl') },
      ...parent.slice(1, 2),
      ...own.map((text, i) => prompt(`${id}-${i}`, i === 0 ? 'u1' : `${id}-${i - 1}`, text, 11 + i)),
    ];
    const write = (name: string, lines: object[]) => writeFile(join(dir, name), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    await write('parent.jsonl', parent);
    await write('fork-a.jsonl', fork('fa', ['Now add argparse', 'and a --help']));
    await write('fork-b.jsonl', fork('fb', ['Rewrite it in Go']));
    await write('fork-c.jsonl', fork('fc', []));
    const { summary } = await buildOf([dir]);
    const titleOf = (name: string) => summary.sessions.find((s) => s.file === join(dir, name))?.title;
    expect([titleOf('parent.jsonl'), titleOf('fork-a.jsonl'), titleOf('fork-b.jsonl'), titleOf('fork-c.jsonl')]).toEqual([
      'Explain main.py',
      'Now add argparse',
      'Rewrite it in Go',
      'Explain main.py',
    ]);
    // Its origin not read: a Pi fork's copied history is older than its header.
    const alone = await buildOf([join(dir, 'fork-a.jsonl')]);
    expect(alone.summary.sessions[0]).toMatchObject({ originMissing: true, title: 'Now add argparse' });
  });

  it('says a sub-agent run it copied counts in its origin (regression: the run and its replies shown as counted in the fork)', async () => {
    const dir = await tempDir();
    const origin = (await readFile(join(FIXTURES, 'pi', 'subagent.jsonl'), 'utf8')).trimEnd().split('\n');
    await writeFile(join(dir, 'origin.jsonl'), `${origin.join('\n')}\n`);
    const header = { type: 'session', version: 3, id: 'fork1', timestamp: '2026-10-09T09:00:00.000Z', cwd: '/home/ana/projects/shop', parentSession: join(dir, 'origin.jsonl') };
    const own = { type: 'message', id: 'f0000001', parentId: 'i0000004', timestamp: '2026-10-09T09:00:01.000Z', message: { role: 'user', content: 'And the checkout?' } };
    await writeFile(join(dir, 'fork.jsonl'), `${[JSON.stringify(header), ...origin.slice(1), JSON.stringify(own)].join('\n')}\n`);
    const { summary, out } = await buildOf([dir]);
    const fork = summary.sessions.find((s) => s.file === join(dir, 'fork.jsonl'));
    expect(fork?.cost.bough ?? 0).toBe(0);
    const page = await readFile(join(out, fork?.page as string), 'utf8');
    const runs = page.split('<details class="subagent">').slice(1);
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      const summaryLine = run.slice(0, run.indexOf('</summary>'));
      expect(summaryLine).toMatch(/ bough · not counted here$/);
      const lines = [...run.slice(0, run.indexOf('</details>')).matchAll(/<p class="usage">([^<]*)<\/p>/g)].map((m) => m[1]);
      expect(lines.every((line) => line?.endsWith(' bough · not counted here'))).toBe(true);
    }
    // In its origin, where they count, they say nothing of the kind.
    const originPage = await readFile(join(out, summary.sessions.find((s) => s.file === join(dir, 'origin.jsonl'))?.page as string), 'utf8');
    expect(originPage).toContain('<details class="subagent">');
    expect(originPage).not.toContain('not counted here');
  });
});

describe('a Pi session shared with /share', () => {
  // Regression: the copy /share writes (the active path, and Pi's pi.share entry) was counted as a session of its own, an empty "fork".
  it('is listed with the session, not counted as one', async () => {
    const dir = await tempDir();
    const at = (s: number) => `2026-10-22T08:00:0${s}.000Z`;
    const entry = (id: string, parentId: string | null, s: number, message: object) => ({ type: 'message', id, parentId, timestamp: at(s), message });
    const user = (text: string) => ({ role: 'user', content: text });
    const reply = (input: number) => ({ role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', usage: { input, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: input } });
    const origin = [
      { type: 'session', version: 3, id: '0196llll-0000-7000-8000-000000000001', timestamp: at(0), cwd: '/home/u/L' },
      entry('u0000001', null, 1, user('L first')),
      entry('a0000001', 'u0000001', 2, reply(1)),
      { type: 'label', id: 'lb000001', parentId: 'a0000001', timestamp: at(3), targetId: 'u0000001', label: 'start' },
      entry('u0000002', 'lb000001', 4, user('L second')),
      entry('a0000002', 'u0000002', 5, reply(2)),
    ];
    const [header, u1, a1, , u2, a2] = origin as [object, object, object, object, object, object];
    const shared = [
      { ...header, timestamp: '2026-10-25T08:00:00.000Z' },
      u1,
      a1,
      { ...u2, parentId: 'a0000001' },
      a2,
      { type: 'custom', id: 'sh000001', parentId: 'a0000002', timestamp: '2026-10-25T08:01:00.000Z', customType: 'pi.share', data: { systemPrompt: 'You are pi', tools: [] } },
    ];
    await mkdir(join(dir, 'sessions'), { recursive: true });
    await mkdir(join(dir, 'exports'), { recursive: true });
    const write = (path: string, lines: object[]) => writeFile(join(dir, path), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    await write('sessions/2026-10-22T08-00-00-000Z_0196llll-0000-7000-8000-000000000001.jsonl', origin);
    await write('exports/x.jsonl', shared);
    const { summary } = await buildOf([dir]);
    expect(summary.totals.sessions).toBe(1);
    expect(summary.sessions[0]?.duplicateFiles).toEqual([join(dir, 'exports', 'x.jsonl')]);
  });
});

describe('a Pi clone that copies a label', () => {
  // Regression: Pi writes the labels a clone copies again, with new ids and their first times
  // (pi.md §12); the clone, all of whose work is on 20 November, was said to start on 15 October
  // (page, summary.json, `stats --by session`) and to last 36 days.
  it('starts when its own work does, not at the copied label’s time', async () => {
    const dir = join(await tempDir(), 'in');
    await mkdir(dir, { recursive: true });
    const origin = join(dir, '2026-10-15T10-00-00-000Z_s18.jsonl');
    const reply = (id: string, parent: string, at: string) =>
      ({ type: 'message', id, parentId: parent, timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: 'r' }], provider: 'anthropic', model: 'claude-haiku-4-5', usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110, cost: { total: 0.00015 } }, stopReason: 'stop', timestamp: 0 } });
    const prompt = (id: string, parent: string | null, at: string, text: string) => ({ type: 'message', id, parentId: parent, timestamp: at, message: { role: 'user', content: [{ type: 'text', text }], timestamp: 0 } });
    const history = [prompt('u1', null, '2026-10-15T10:00:02.000Z', 'October prompt'), reply('a1', 'u1', '2026-10-15T10:00:03.000Z')];
    const lines = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    await writeFile(origin, lines([
      { type: 'session', version: 3, id: 's18', timestamp: '2026-10-15T10:00:00.000Z', cwd: '/proj/month' },
      ...history,
      { type: 'label', id: 'l1', parentId: 'a1', timestamp: '2026-10-15T10:00:04.000Z', targetId: 'u1', label: 'oct-label' },
    ]));
    await writeFile(join(dir, '2026-11-20T10-00-00-000Z_c18.jsonl'), lines([
      { type: 'session', version: 3, id: 'c18', timestamp: '2026-11-20T10:00:00.000Z', cwd: '/proj/month', parentSession: origin },
      ...history,
      { type: 'label', id: 'Lnew', parentId: 'a1', timestamp: '2026-10-15T10:00:04.000Z', targetId: 'u1', label: 'oct-label' },
      prompt('n1', 'Lnew', '2026-11-20T10:00:01.000Z', 'November prompt'),
      reply('na', 'n1', '2026-11-20T10:00:02.000Z'),
    ]));
    const { json } = await stats({ inputs: [dir], scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, by: 'session', cache: false });
    const clone = json.rows.find((row) => row.label.includes('November prompt'));
    expect(clone?.startedAt).toBe('2026-11-20T10:00:01.000Z');
  });

  // Regression (a hostile look at 34e05ab): the rule was applied to every file, and a Claude Code
  // session whose first line is timed after a command the user typed next began at that line.
  it('keeps an uncopied file’s bookkeeping timed before its first line in its span', async () => {
    const dir = join(await tempDir(), 'projects', '-home-ana-shop');
    await mkdir(dir, { recursive: true });
    const id = '88888888-8888-4888-8888-888888888881';
    const line = (record: object) => JSON.stringify({ sessionId: id, cwd: '/home/ana/shop', version: '2.0.55', ...record });
    await writeFile(join(dir, `${id}.jsonl`), [
      line({ type: 'user', uuid: 'c0', parentUuid: null, isMeta: true, timestamp: '2026-03-10T10:00:02.000Z', message: { role: 'user', content: 'Caveat: the messages below were generated by the user while running local commands.' } }),
      line({ type: 'user', uuid: 'c1', parentUuid: 'c0', timestamp: '2026-03-10T10:00:00.000Z', message: { role: 'user', content: '<command-name>/context</command-name>' } }),
      line({ type: 'user', uuid: 'u1', parentUuid: 'c1', timestamp: '2026-03-10T10:00:05.000Z', message: { role: 'user', content: 'go' } }),
    ].join('\n'));
    const { json } = await stats({ inputs: [dir], scope: ALL_UTC, environment: { env: {}, home: await tempDir() }, by: 'session', cache: false });
    expect(json.rows.map((row) => row.startedAt)).toEqual(['2026-03-10T10:00:00.000Z']);
  });

  // Regression: of two files that name each other as their origin (hand-edited), one was said to be
  // copied from a file "not among the files read", the other listed as its copy on the same page.
  it('says no file is missing when two files name each other as origin', async () => {
    const dir = join(await tempDir(), 'in');
    await mkdir(dir, { recursive: true });
    const a = join(dir, 'cyA.jsonl');
    const b = join(dir, 'cyB.jsonl');
    const head = (id: string, parent: string) => ({ type: 'session', version: 3, id, timestamp: '2026-10-15T10:00:00.000Z', cwd: '/proj/cycle', parentSession: parent });
    const line = (id: string, parent: string | null, role: 'user' | 'assistant', at: string) =>
      role === 'user'
        ? { type: 'message', id, parentId: parent, timestamp: at, message: { role, content: [{ type: 'text', text: `prompt ${id}` }], timestamp: 0 } }
        : { type: 'message', id, parentId: parent, timestamp: at, message: { role, content: [{ type: 'text', text: 'r' }], provider: 'anthropic', model: 'claude-haiku-4-5', usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110, cost: { total: 0.00015 } }, stopReason: 'stop', timestamp: 0 } };
    const shared = [line('cu', null, 'user', '2026-10-15T10:00:01.000Z'), line('ca', 'cu', 'assistant', '2026-10-15T10:00:02.000Z')];
    const lines = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    await writeFile(a, lines([head('cyA', b), ...shared]));
    await writeFile(b, lines([head('cyB', a), ...shared, line('du', 'ca', 'user', '2026-10-15T10:01:01.000Z'), line('da', 'du', 'assistant', '2026-10-15T10:01:02.000Z')]));
    const { summary } = await buildOf([dir]);
    expect(summary.sessions.map((s) => s.originMissing)).toEqual([false, false]);
    expect(summary.totals).toMatchObject({ prompts: 2, tokens: { input: 200 } });
  });

  // Regression (a review of Pi's trees): its page said "Copied from <its own path>, which is not
  // among the files read", of a file that is, and the index marked it a fork.
  it('takes a parentSession naming the file itself for none', async () => {
    const dir = join(await tempDir(), 'in');
    await mkdir(dir, { recursive: true });
    const path = join(dir, '2026-10-15T10-00-00-000Z_self.jsonl');
    const records = [
      { type: 'session', version: 3, id: 'self', timestamp: '2026-10-15T10:00:00.000Z', cwd: '/proj/self', parentSession: path },
      { type: 'message', id: 'u', parentId: null, timestamp: '2026-10-15T10:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'hello' }] } },
    ];
    await writeFile(path, records.map((r) => JSON.stringify(r)).join('\n'));
    // And by its name alone, as recorded on another machine.
    const moved = join(dir, '2026-10-16T10-00-00-000Z_moved.jsonl');
    await writeFile(moved, [{ ...records[0], id: 'moved', parentSession: '/Users/ana/.pi/agent/sessions/--x--/2026-10-16T10-00-00-000Z_moved.jsonl' }, { ...records[1], id: 'v', message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } }].map((r) => JSON.stringify(r)).join('\n'));
    const { summary, out } = await buildOf([dir]);
    expect(summary.sessions.map((s) => [s.originMissing, s.origin])).toEqual([
      [false, null],
      [false, null],
    ]);
    for (const session of summary.sessions) expect(await readFile(join(out, session.page), 'utf8')).not.toContain('Copied from');
  });

  // Regression: `"parentSession": ""` made summary.json say the session was copied from a file missing.
  it('takes an empty parentSession for none', async () => {
    const dir = join(await tempDir(), 'in');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'emp.jsonl'), [
      { type: 'session', version: 3, id: 'emp', timestamp: '2026-10-15T10:00:00.000Z', cwd: '/proj/imp', parentSession: '' },
      { type: 'message', id: 'u', parentId: null, timestamp: '2026-10-15T10:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 0 } },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { summary } = await buildOf([dir]);
    expect(summary.sessions[0]).toMatchObject({ originMissing: false, parentFile: null });
  });
});


// Regression (a review of what a folder holds): a report for one project or period named a fork
// outside it by its own first prompt ("Forked or copied into: Draft the layoff list…"), and a
// copy's origin outside it by its title: text from outside what the report was asked for.
describe('a copy or origin outside the report', () => {
  const LINEAGE = join(FIXTURES, 'pi', 'lineage');
  const pageOf = async (day: string, file: string) => {
    const out = join(await tempDir(), 'report');
    const scope: Scope = { ...ALL_UTC, period: parsePeriod({ since: day, until: day }, 'UTC') };
    const { summary } = await build({ inputs: [LINEAGE], out, scope, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const session = summary.sessions.find((s) => s.file.endsWith(file));
    return { page: await readFile(join(out, session?.page as string), 'utf8'), origin: session?.origin, parentFile: session?.parentFile };
  };

  it('is said to be outside it, not named', async () => {
    const { page: origin } = await pageOf('2026-10-10', '0196a000-0000-7000-8000-000000000021.jsonl');
    expect(origin).toContain('Forked or copied into:</p>\n  <ul><li>A session outside this report’s period or filters</li></ul>');
    expect(origin).not.toContain('Port the checkout to v2.');
    const { page: fork, origin: forkOrigin, parentFile } = await pageOf('2026-10-11', '0196a000-0000-7000-8000-000000000022.jsonl');
    expect(fork).toContain('Copied from a session outside this report’s period or filters.');
    // Regression (a hostile look): the fold of its copied entries still named it.
    expect(fork).toContain('copied from a session outside this report’s period or filters, counted where first recorded</summary>');
    expect(fork).not.toContain('copied from “');
    // summary.json names no session the report does not show either (regression, a review of
    // sharing: its parentFile did, the path its header gives).
    expect(forkOrigin).toBeNull();
    expect(parentFile).toBeNull();
  });
});

describe('a Codex fork of a fork, from a build before 0.169', () => {
  const id = (n: number) => `019a1111-0000-7000-8000-00000000000${n}`;
  const meta = (n: number, at: string) => ({ timestamp: at, type: 'session_meta', payload: { id: id(n), timestamp: at, cwd: '/work/shop', originator: 'codex_cli_rs', cli_version: '0.125.0', source: 'cli', model_provider: 'openai' } });
  const turn = (n: string, at: string) => [
    { timestamp: at, type: 'turn_context', payload: { turn_id: n, cwd: '/work/shop', model: 'gpt-5' } },
    { timestamp: at, type: 'event_msg', payload: { type: 'user_message', message: `prompt ${n}` } },
    { timestamp: at, type: 'event_msg', payload: { type: 'agent_message', message: `answer ${n}` } },
  ];
  const count = (input: number, at: string) => ({ timestamp: at, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: input / 10, reasoning_output_tokens: 0, total_tokens: input * 1.1 }, last_token_usage: { input_tokens: 1000, cached_input_tokens: 0, output_tokens: 100, reasoning_output_tokens: 0, total_tokens: 1100 } } } });
  /** Lines copied into another rollout: written again at the time of the copy, as builds before 0.169 do. */
  const copied = (lines: object[], at: string) => lines.map((line) => ({ ...line, timestamp: at }));
  const origin = [meta(1, '2026-11-20T10:00:00.000Z'), ...turn('p1', '2026-11-20T10:00:01.000Z'), count(1000, '2026-11-20T10:00:02.000Z')];
  const fork = [meta(4, '2026-11-20T10:05:00.000Z'), ...copied(origin, '2026-11-20T10:05:00.001Z'), ...turn('f1', '2026-11-20T10:06:00.000Z'), count(2000, '2026-11-20T10:06:01.000Z')];
  const forkOfFork = [meta(5, '2026-11-20T10:20:00.000Z'), ...copied(fork, '2026-11-20T10:20:00.001Z'), ...turn('g1', '2026-11-20T10:21:00.000Z'), count(3000, '2026-11-20T10:21:01.000Z')];
  /** A sibling that copied the origin before the fork did. */
  const sibling = [meta(3, '2026-11-20T10:01:00.000Z'), ...copied(origin, '2026-11-20T10:01:00.001Z'), ...turn('s1', '2026-11-20T10:02:00.000Z'), count(2000, '2026-11-20T10:02:01.000Z')];

  // Regression (a review of sub-agents and forks): the fork of a fork started at its copy (10:20),
  // its mark of the copied history counted as its own entry, where the fork started at its first
  // prompt (10:06), its own mark taken by a sibling that copied the same origin first; without
  // the sibling, the fork started at its copy too.
  it('starts each fork at its own first prompt, whatever else copied its origin', async () => {
    for (const withSibling of [true, false]) {
      const dir = join(await tempDir(), 'sessions', '2026', '11', '20');
      await mkdir(dir, { recursive: true });
      const files: [number, object[]][] = [[1, origin], [4, fork], [5, forkOfFork], ...(withSibling ? [[3, sibling] as [number, object[]]] : [])];
      for (const [n, lines] of files) await writeFile(join(dir, `rollout-2026-11-20T10-00-0${n}-${id(n)}.jsonl`), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      const { summary } = await buildOf([dir]);
      const started = Object.fromEntries(summary.sessions.map((s) => [s.id.slice(-1), s.startedAt]));
      expect({ withSibling, fork: started['4'], forkOfFork: started['5'] }).toEqual({ withSibling, fork: '2026-11-20T10:06:00.000Z', forkOfFork: '2026-11-20T10:21:00.000Z' });
    }
  });
});
