// Sub-agents written to files of their own count in the session that ran them, shown apart; a
// response held by several files counts once, by its agent's rule. Built from typed builders,
// so these hold for any reader that fills `subagentOf` and `claim`.

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { archiveFiles, cutShortSessions } from '../src/archive.js';
import { claimEntries, type UsageClaimRule } from '../src/ledger/claims.js';
import { ledgerOf } from '../src/ledger/ledger.js';
import { ALL_TIME } from '../src/ledger/scope.js';
import { withEntryTitles } from '../src/ledger/titles.js';
import { createPricer } from '../src/pricing/price.js';
import { parsePriceTable } from '../src/pricing/table.js';
import { buildReportData, type ReportData } from '../src/report/data.js';
import { rowsOf, totalsJson } from '../src/report/json.js';
import { usageCsv } from '../src/report/usage-csv.js';
import type { Entry, SessionFile, Source } from '../src/types.js';
import { tempDir } from './support/fixtures.js';
import { prompt, reply, sessionFile } from './support/session-builders.js';

const M = 1e-6;
const PRICES = createPricer(
  parsePriceTable(
    { 'claude-sonnet-4-5': { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 3 * M, output_cost_per_token: 15 * M } },
    { origin: 'bundled', label: 'test', date: '2026-01-01' },
  ),
  { subscriptionsAtApiPrices: false, hints: () => ({ prefixes: [''], subscription: false, local: false }) },
);

/** Claude's rule for these tests: the copy with the most output counts; the rest first-holder. */
const rules = (source: Source): UsageClaimRule => (source === 'claude' ? 'most-output' : 'first');

function report(files: SessionFile[]): ReportData {
  const ledgers = files.map(ledgerOf);
  return buildReportData(ledgers, claimEntries(ledgers, { usage: rules }), PRICES, { timeZone: 'UTC', period: ALL_TIME, project: null, sources: null });
}

const main = sessionFile({ path: '/p/s1.jsonl', source: 'claude', sessionId: 's1' }, [
  prompt('u1', '2026-11-01T10:00:00Z', 'Plan the release'),
  reply('a1', '2026-11-01T10:00:05Z', { input: 100, output: 10 }, { parentId: 'u1' }),
]);
const explorer = sessionFile({ path: '/p/s1/subagents/agent-x.jsonl', source: 'claude', sessionId: 's1', subagentOf: 's1', subagentLabel: 'Explore the code' }, [
  prompt('x1', '2026-11-01T10:00:06Z', 'Find the release script'),
  reply('x2', '2026-11-01T10:00:09Z', { input: 2000, output: 200 }, { parentId: 'x1' }),
]);
const warmup = sessionFile({ path: '/p/agent-w.jsonl', source: 'claude', sessionId: 's1', subagentOf: 's1', subagentLabel: 'warmup' }, [
  prompt('w1', '2026-11-01T09:59:00Z', 'Warmup'),
  reply('w2', '2026-11-01T09:59:01Z', { input: 1000, output: 0 }, { parentId: 'w1' }),
]);

describe('sub-agents in files of their own', () => {
  it('count in the session that ran them: usage in its totals, shown apart, no prompts of theirs', () => {
    const data = report([main, explorer, warmup]);
    expect(data.sessions).toHaveLength(1);
    const [session] = data.sessions;
    expect(session?.subagents.map((s) => s.label)).toEqual(['warmup', 'Explore the code']);
    expect(totalsJson(data)).toMatchObject({ sessions: 1, prompts: 1, replies: 1, tokens: { input: 3100, output: 210 } });
    expect(session?.tally.subagents.tokens).toMatchObject({ input: 3000, output: 200 });
    expect(session?.subagents[1]?.tally.tokens).toMatchObject({ input: 2000, output: 200 });
    // The session starts with its earliest counted work, the warmup.
    expect(new Date(session?.startedAt ?? 0).toISOString()).toBe('2026-11-01T09:59:00.000Z');
    expect(data.available.sessions).toBe(1);
  });

  it('still count when the main file is missing: the oldest sub-agent file but a warmup stands for the session', () => {
    const data = report([explorer, warmup]);
    expect(data.sessions.map((s) => s.ledger.path)).toEqual(['/p/s1/subagents/agent-x.jsonl']);
    expect(data.sessions[0]?.subagents.map((s) => s.ledger.path)).toEqual(['/p/agent-w.jsonl']);
    expect(totalsJson(data).tokens).toMatchObject({ input: 3000, output: 200 });
  });

  // A second hostile look: the warmup rules read a label only Claude Code gives; a Codex thread
  // nicknamed "warmup" is no Claude Code start-up.
  it('titles a session of warmups alone as such, a Claude Code one only', () => {
    expect(report([warmup]).sessions.map((s) => s.ledger.title)).toEqual(['Warmup only (Claude Code started, never given a prompt)']);
    const codex = sessionFile({ path: '/p/rollout-w.jsonl', source: 'codex', sessionId: 'c1', subagentOf: 'c0', subagentLabel: 'warmup' }, [
      prompt('c1', '2026-11-01T09:59:00Z', 'go'),
      reply('c2', '2026-11-01T09:59:01Z', { input: 10, output: 1 }, { parentId: 'c1' }),
    ]);
    expect(report([codex]).sessions.map((s) => s.ledger.title)).toEqual(['Sub-agent: warmup (no main transcript)']);
  });

  it('are never taken for copies of their parent, though they carry its session id', () => {
    const data = report([main, explorer]);
    expect(data.sessions[0]?.origin).toBeNull();
    expect(data.sessions[0]?.copies).toEqual([]);
  });

  it('land in usage.csv with their session', () => {
    const csv = [...usageCsv(report([main, explorer]), PRICES)].join('').trim().split('\n');
    expect(csv).toHaveLength(3);
    expect(csv.filter((row) => row.includes(',subagent,'))).toHaveLength(1);
  });

  // Regression: a sub-agent that ran in a worktree of its own had that worktree as its rows'
  // project, where every page counts it in its session's project.
  it('land in usage.csv under their session\'s project, wherever they ran', () => {
    const inWorktree = { ...explorer, cwd: '/home/ana/shop/.claude/worktrees/agent-x' };
    const csv = [...usageCsv(report([main, inWorktree]), PRICES)].join('').trim().split('\r\n').slice(1);
    expect(csv.map((row) => row.split(',')[2])).toEqual(['/home/ana/shop', '/home/ana/shop']);
  });

  it('regression: usage.csv of one long session comes in pieces of about 64 kB, not as one string', () => {
    const replies = Array.from({ length: 3000 }, (_, n) => reply(`r${n}`, new Date(Date.UTC(2026, 10, 1, 10, 0, n)).toISOString(), { input: 100 + n, output: 10 }));
    const long = sessionFile({ path: '/p/long.jsonl', source: 'claude', sessionId: 'long' }, replies);
    const pieces = [...usageCsv(report([long]), PRICES)];
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces) expect(piece.length).toBeLessThan(64 * 1024 + 500);
    const rows = pieces.join('').trim().split('\r\n');
    expect(rows).toHaveLength(3001);
    expect(rows.slice(1).map((row) => row.split(',')[10])).toEqual(replies.map((_, n) => String(100 + n)));
  });

  it('of sub-agents count in the top session (Codex threads spawning threads)', () => {
    const root = sessionFile({ path: '/c/root.jsonl', source: 'codex', sessionId: 'r' }, [reply('r1', '2026-11-01T10:00:00Z', { input: 1 })]);
    const child = sessionFile({ path: '/c/child.jsonl', source: 'codex', sessionId: 'c', subagentOf: 'r' }, [reply('c1', '2026-11-01T10:01:00Z', { input: 10 })]);
    const grandchild = sessionFile({ path: '/c/grand.jsonl', source: 'codex', sessionId: 'g', subagentOf: 'c' }, [reply('g1', '2026-11-01T10:02:00Z', { input: 100 })]);
    const data = report([grandchild, child, root]);
    expect(data.sessions.map((s) => s.ledger.path)).toEqual(['/c/root.jsonl']);
    expect(data.sessions[0]?.tally.tokens.input).toBe(111);
  });

  // Regression: a Codex child thread's rows named the child's thread id, a session neither
  // summary.json nor `stats --by session` has; Claude Code's and Pi's named their session's.
  it('land in usage.csv under the id of the session they count in, each row with the file it was read from', () => {
    const root = sessionFile({ path: '/c/root.jsonl', source: 'codex', sessionId: 'r' }, [reply('r1', '2026-11-01T10:00:00Z', { input: 1 })]);
    const child = sessionFile({ path: '/c/child.jsonl', source: 'codex', sessionId: 'c', subagentOf: 'r' }, [reply('c1', '2026-11-01T10:01:00Z', { input: 10 })]);
    const rows = [...usageCsv(report([child, root]), PRICES)].join('').trim().split('\r\n').slice(1);
    expect(rows.map((row) => row.split(',').slice(3, 5))).toEqual([
      ['r', '/c/root.jsonl'],
      ['r', '/c/child.jsonl'],
    ]);
  });
});

describe('usage claims', () => {
  const streamed = (path: string, output: number, time: string) =>
    sessionFile({ path, source: 'claude', sessionId: path }, [
      reply(`${path}-a`, time, { input: 50, output, claim: 'msg_1\0req_1' }),
    ]);

  it('count one response held by several files once, in the copy with the most output (Claude)', () => {
    const data = report([streamed('/p/a.jsonl', 8, '2026-11-01T10:00:00Z'), streamed('/p/b.jsonl', 120, '2026-11-02T10:00:00Z')]);
    expect(totalsJson(data).tokens).toMatchObject({ input: 50, output: 120 });
    expect(rowsOf(data, 'session').find((r) => r.key.endsWith('/p/b.jsonl'))).toMatchObject({ tokens: { output: 120 } });
  });

  it('count it in the first holder under the first-holder rule, however the copies differ', () => {
    const first = sessionFile({ path: '/p/a.jsonl', source: 'pi', sessionId: 'a' }, [reply('a', '2026-11-01T10:00:00Z', { input: 5, output: 1, claim: 'k' })]);
    const later = sessionFile({ path: '/p/b.jsonl', source: 'pi', sessionId: 'b' }, [reply('b', '2026-11-02T10:00:00Z', { input: 5, output: 9, claim: 'k' })]);
    expect(totalsJson(report([later, first])).tokens).toMatchObject({ input: 5, output: 1 });
  });

  it('leave out a sub-agent’s replay of a main thread’s response (same response, new request), and count its own', () => {
    const parent = sessionFile({ path: '/p/s2.jsonl', source: 'claude', sessionId: 's2' }, [
      reply('m1', '2026-11-01T10:00:00Z', { input: 10, output: 5, claim: 'msg_1\0req_1', responseId: 's2\0msg_1' }),
    ]);
    const aside = sessionFile({ path: '/p/s2/subagents/agent-btw.jsonl', source: 'claude', sessionId: 's2', subagentOf: 's2' }, [
      reply('b1', '2026-11-01T10:01:00Z', { input: 10, output: 5, cacheRead: 90_000, claim: 'msg_1\0req_9', responseId: 's2\0msg_1' }),
      reply('b2', '2026-11-01T10:02:00Z', { input: 20, output: 7, claim: 'msg_2\0req_2', responseId: 's2\0msg_2' }),
    ]);
    const data = report([parent, aside]);
    expect(totalsJson(data).tokens).toMatchObject({ input: 30, output: 12, cacheRead: 0 });
    expect(data.sessions[0]?.subagents[0]?.tally.tokens).toMatchObject({ input: 20, output: 7 });
  });

  it('never match across agents', () => {
    const pi = sessionFile({ path: '/p/a.jsonl', source: 'pi', sessionId: 'a' }, [reply('a', '2026-11-01T10:00:00Z', { input: 5, claim: 'k' })]);
    const claude = sessionFile({ path: '/p/b.jsonl', source: 'claude', sessionId: 'b' }, [reply('b', '2026-11-01T10:00:00Z', { input: 7, claim: 'k' })]);
    expect(totalsJson(report([pi, claude])).tokens.input).toBe(12);
  });
});

describe('copies that name no origin (a resume written under a new session id)', () => {
  // A resumed into B, B resumed into C: each copies the whole conversation, then adds a turn.
  const turn1 = [prompt('u1', '2026-11-01T10:00:00Z', 'Plan'), reply('a1', '2026-11-01T10:00:05Z', { input: 100, output: 10 }, { parentId: 'u1' })];
  const turn2 = [prompt('u2', '2026-11-02T10:00:00Z', 'Build', 'a1'), reply('a2', '2026-11-02T10:00:05Z', { input: 200, output: 20 }, { parentId: 'u2' })];
  const turn3 = [prompt('u3', '2026-11-03T10:00:00Z', 'Ship', 'a2'), reply('a3', '2026-11-03T10:00:05Z', { input: 400, output: 40 }, { parentId: 'u3' })];
  const resumed = (name: string, entries: Entry[], mtime: string) =>
    sessionFile({ path: `/p/${name}.jsonl`, source: 'claude', sessionId: name, mtime: Date.parse(mtime) }, entries);
  const originOf = (data: ReportData, name: string) => data.sessions.find((s) => s.ledger.path === `/p/${name}.jsonl`)?.origin?.path ?? null;

  it.each([
    ['written in order', '2026-11-01T11:00:00Z', '2026-11-02T11:00:00Z', '2026-11-03T11:00:00Z'],
    ['newest copy oldest on disk', '2026-11-03T11:00:00Z', '2026-11-02T11:00:00Z', '2026-11-01T11:00:00Z'],
  ])('link each file to the one it copied, each turn counted in the file that added it (%s)', (_, a, b, c) => {
    const data = report([resumed('a', turn1, a), resumed('b', [...turn1, ...turn2], b), resumed('c', [...turn1, ...turn2, ...turn3], c)]);
    expect([originOf(data, 'a'), originOf(data, 'b'), originOf(data, 'c')]).toEqual([null, '/p/a.jsonl', '/p/b.jsonl']);
    expect(rowsOf(data, 'session').map((r) => [r.key, r.prompts, r.tokens.input]).sort()).toEqual([
      ['claude:/p/a.jsonl', 1, 100],
      ['claude:/p/b.jsonl', 1, 200],
      ['claude:/p/c.jsonl', 1, 400],
    ]);
  });

  it('take the file counted first for the origin when both went on after the copy', () => {
    const data = report([resumed('a', [...turn1, ...turn2], '2026-11-02T11:00:00Z'), resumed('b', [...turn1, ...turn3], '2026-11-03T11:00:00Z')]);
    expect([originOf(data, 'a'), originOf(data, 'b')]).toEqual([null, '/p/a.jsonl']);
    expect(totalsJson(data)).toMatchObject({ sessions: 2, prompts: 3, tokens: { input: 700 } });
  });
});

// Regression (a hostile look): a claim holding U+0001 (made of ids a file gives) was read as
// ending in a Codex turn, so that a record claimed by what came before it was taken for a copy.
describe('usage claims holding the byte that parts a turn', () => {
  it('count each record of its own', () => {
    const odd = sessionFile({ path: '/p/odd.jsonl', source: 'pi', sessionId: 'odd' }, [
      prompt('u1', '2026-11-01T10:00:00Z', 'hello'),
      reply('r1', '2026-11-01T10:00:01Z', { input: 100, output: 10, claim: 'msg_1\u0001' }, { parentId: 'u1' }),
      reply('r2', '2026-11-01T10:00:02Z', { input: 200, output: 20, claim: 'msg_1' }, { parentId: 'r1' }),
    ]);
    expect(totalsJson(report([odd]))).toMatchObject({ usageRecords: 2, tokens: { input: 300, output: 30 } });
  });
});

describe('titles given by other files', () => {
  const titled = (ledgers: ReturnType<typeof ledgerOf>[]) => withEntryTitles(ledgers, claimEntries(ledgers, { usage: () => 'first' }));
  it('name the session holding the summarised entry, never the file the summary sits in, nor a session the user named', () => {
    const earlier = sessionFile({ path: '/p/old.jsonl', source: 'claude', sessionId: 'old' }, [prompt('u1', '2026-11-01T10:00:00Z', 'hello there')]);
    const later = { ...sessionFile({ path: '/p/new.jsonl', source: 'claude', sessionId: 'new' }, [prompt('u2', '2026-11-02T10:00:00Z', 'next task')]), entryTitles: [{ entryId: 'u1', title: 'Greeting the agent' }] };
    const [old, next] = titled([earlier, later].map(ledgerOf));
    expect(old?.title).toBe('Greeting the agent');
    expect(next?.title).toBe('next task');
  });

  it('find the entry by any id it was recorded under (a response written as several lines, merged)', () => {
    const merged = { ...reply('r1', '2026-11-01T10:00:05Z', null), aliases: ['r1-line2', 'r1-line3'] };
    const earlier = sessionFile({ path: '/p/old.jsonl', source: 'claude', sessionId: 'old' }, [prompt('u1', '2026-11-01T10:00:00Z', 'hello there'), merged]);
    const later = { ...sessionFile({ path: '/p/new.jsonl', source: 'claude', sessionId: 'new' }, []), entryTitles: [{ entryId: 'r1-line3', title: 'Greeting the agent' }] };
    expect(titled([earlier, later].map(ledgerOf))[0]?.title).toBe('Greeting the agent');
  });

  // Regression (a review of Claude Code's files): a resumed copy holding the summarised entry as
  // copied history took its origin's summary for its own title.
  it('name the session that counts the summarised entry, not a copy holding it too', () => {
    const history = [prompt('u1', '2026-11-01T10:00:00Z', 'first prompt'), reply('a1', '2026-11-01T10:00:05Z', null, { parentId: 'u1' })];
    const origin = sessionFile({ path: '/p/a.jsonl', source: 'claude', sessionId: 'a' }, history);
    const copy = {
      ...sessionFile({ path: '/p/b.jsonl', source: 'claude', sessionId: 'b' }, [...history, prompt('u3', '2026-11-02T10:00:00Z', 'third prompt', 'a1')]),
      parentSessionId: 'a',
      entryTitles: [{ entryId: 'a1', title: 'Summary of A work' }],
    };
    const [a, b] = titled([origin, copy].map(ledgerOf));
    expect([a?.title, b?.title]).toEqual(['Summary of A work', 'first prompt']);
  });
});

describe('projects', () => {
  // Regression: /a/app and /b/app were both "app", in the report and in stats --by project.
  it('are told apart by as much of their folder as it takes when their names are the same', () => {
    const at = (path: string, cwd: string) => sessionFile({ path, cwd }, [prompt(`${path}-u`, '2026-11-01T10:00:00Z', 'go'), reply(`${path}-r`, '2026-11-01T10:00:01Z', { input: 10, output: 1 }, { parentId: `${path}-u` })]);
    const data = report([at('/s/1.jsonl', '/home/ana/a/app'), at('/s/2.jsonl', '/home/ana/b/app'), at('/s/3.jsonl', '/srv/b/app'), at('/s/4.jsonl', '/home/ana/shop')]);
    expect(data.projects.map((p) => p.name).sort()).toEqual(['a/app', 'ana/b/app', 'shop', 'srv/b/app']);
    expect(rowsOf(data, 'project').map((r) => r.label).sort()).toEqual(['a/app', 'ana/b/app', 'shop', 'srv/b/app']);
  });
});

describe('a session an earlier build archived, its file gone, that a file read now holds', () => {
  const at = (s: number) => `2026-11-02T10:00:0${s}Z`;
  // As an older bough read a response written as two lines, each its own entry and claim.
  const archived = {
    ...ledgerOf(
      sessionFile({ path: '/home/ana/.claude/projects/-shop/s9.jsonl', source: 'claude', sessionId: 's9' }, [
        prompt('u1', at(0), 'Read the files'),
        reply('a1', at(1), { input: 10, output: 5, cacheRead: 1000, claim: 's9\0msg\0one' }, { parentId: 'u1' }),
        reply('a2', at(2), { input: 10, output: 50, cacheRead: 1000, claim: 's9\0msg\0two' }, { parentId: 'a1' }),
      ]),
    ),
    lastSeen: Date.parse('2026-11-03T00:00:00Z'),
  };
  // As bough reads it now, moved to the second config root: the two lines one response, naming the other.
  const moved = sessionFile({ path: '/home/ana/.config/claude/projects/-shop/s9.jsonl', source: 'claude', sessionId: 's9' }, [
    prompt('u1', at(0), 'Read the files'),
    { ...reply('a1', at(1), { input: 10, output: 50, cacheRead: 1000, claim: 's9\0msg\0one' }, { parentId: 'u1' }), aliases: ['a2'] },
  ]);

  // Regression (an upgrade over a report folder): the archived reading was a second session, its
  // second line's usage counted again, at every build after.
  it('is that file’s session, its usage counted once, as the file reads now', () => {
    const ledgers = [ledgerOf(moved), archived];
    const claims = claimEntries(ledgers, { usage: rules });
    expect(claims.duplicateOf.get(archived.key)).toBe(ledgers[0]?.key);
    const data = buildReportData(ledgers, claims, PRICES, { timeZone: 'UTC', period: ALL_TIME, project: null, sources: null });
    expect(totalsJson(data)).toMatchObject({ sessions: 1, replies: 1, usageRecords: 1, tokens: { input: 10, output: 50, cacheRead: 1000 } });
  });

  it('stays a session of its own when the file read now holds less of it (an older copy put back)', () => {
    const shorter = sessionFile({ path: '/home/ana/.config/claude/projects/-shop/s9.jsonl', source: 'claude', sessionId: 's9' }, [prompt('u1', at(0), 'Read the files')]);
    const claims = claimEntries([ledgerOf(shorter), archived], { usage: rules });
    expect(claims.duplicateOf.has(archived.key)).toBe(false);
  });

  // Regressions (a hostile look at the fix): a copy cut inside a response (its fuller line lost)
  // replaced the archived session's cost with its own, five times less; a copy of the same id that
  // went on otherwise took the archived session's last prompt with it, from the archive too.
  it('stays a session of its own when the file read now holds a response with fewer tokens, or went on otherwise', () => {
    const whole = { ...ledgerOf(sessionFile({ path: '/a/s8.jsonl', source: 'claude', sessionId: 's8' }, [prompt('u1', at(0), 'go'), { ...reply('a1', at(1), { input: 10, output: 3000, claim: 'm\0r' }, { parentId: 'u1' }), aliases: ['a1b'] }])), lastSeen: Date.parse('2026-11-03T00:00:00Z') };
    const cutInside = sessionFile({ path: '/b/s8.jsonl', source: 'claude', sessionId: 's8' }, [prompt('u1', at(0), 'go'), reply('a1', at(1), { input: 10, output: 5, claim: 'm\0r' }, { parentId: 'u1' })]);
    expect(claimEntries([ledgerOf(cutInside), whole], { usage: rules }).duplicateOf.has(whole.key)).toBe(false);
    const unanswered = { ...ledgerOf(sessionFile({ path: '/a/s7.jsonl', source: 'claude', sessionId: 's7' }, [prompt('u1', at(0), 'go'), reply('a1', at(1), { input: 10, output: 5 }, { parentId: 'u1' }), prompt('u2', at(2), 'gamma', 'a1')])), lastSeen: Date.parse('2026-11-03T00:00:00Z') };
    const wentOn = sessionFile({ path: '/b/s7.jsonl', source: 'claude', sessionId: 's7' }, [prompt('u1', at(0), 'go'), reply('a1', at(1), { input: 10, output: 5 }, { parentId: 'u1' }), prompt('u3', at(7), 'delta', 'a1'), reply('a3', at(8), { input: 10, output: 5 }, { parentId: 'u3' })]);
    expect(claimEntries([ledgerOf(wentOn), unanswered], { usage: rules }).duplicateOf.has(unanswered.key)).toBe(false);
  });
});

describe('a session file archived as an older bough read it, unchanged since', () => {
  const at = (s: number) => `2026-11-02T10:00:0${s}Z`;
  const path = '/home/ana/.claude/projects/-shop/s9.jsonl';
  const olderReading = ledgerOf(
    sessionFile({ path, source: 'claude', sessionId: 's9' }, [
      prompt('u1', at(0), 'Read the files'),
      reply('a1', at(1), { input: 10, output: 5 }, { parentId: 'u1' }),
      reply('a2', at(2), { input: 10, output: 50 }, { parentId: 'a1' }),
    ]),
  );
  const cutShort = async (now: SessionFile) => {
    const out = await tempDir();
    const files = await archiveFiles({ ledger: olderReading, pages: [], search: [], fingerprint: null, source: 'x', place: 'y', lastSeen: 0, sharing: 'plain', entries: olderReading.entries.count });
    await mkdir(join(out, dirname(files.ledger.path)), { recursive: true });
    await writeFile(join(out, files.ledger.path), files.ledger.content);
    return cutShortSessions(out, [{ ...JSON.parse(files.record), lastSeen: 0 }], [ledgerOf(now)], null);
  };

  // Regression (an upgrade over a report folder): read now as one response where the older bough
  // read each of its lines, it held fewer entries, and was kept as archived, "cut short", its
  // older reading's count in the totals at every build after.
  it('is not taken for cut short when it reads lines as one entry that names the others', async () => {
    const merged = sessionFile({ path, source: 'claude', sessionId: 's9' }, [prompt('u1', at(0), 'Read the files'), { ...reply('a1', at(1), { input: 10, output: 50 }, { parentId: 'u1' }), aliases: ['a2'] }]);
    expect(await cutShort(merged)).toEqual({ cut: [], rewritten: [] });
    const cut = sessionFile({ path, source: 'claude', sessionId: 's9' }, [prompt('u1', at(0), 'Read the files')]);
    expect((await cutShort(cut)).cut).toEqual([olderReading.key]);
  });
});

describe('a session file cut inside a response written as several lines', () => {
  // Regression (a hostile look): read as as many entries as archived, the response's with less
  // output (its fuller line cut off), it was taken for unchanged, and the archived usage was lost.
  it('is taken for cut short', async () => {
    const at = (s: number) => `2026-11-02T10:00:0${s}Z`;
    const path = '/home/ana/.claude/projects/-shop/s6.jsonl';
    const whole = ledgerOf(sessionFile({ path, source: 'claude', sessionId: 's6' }, [prompt('u1', at(0), 'go'), { ...reply('a1', at(1), { input: 10, output: 3000 }, { parentId: 'u1' }), aliases: ['a1b'] }]));
    const out = await tempDir();
    const files = await archiveFiles({ ledger: { ...whole, size: 9000 }, pages: [], search: [], fingerprint: null, source: 'x', place: 'y', lastSeen: 0, sharing: 'plain', entries: whole.entries.count, ownEntries: whole.entries.count, fileBytes: 9000 });
    await mkdir(join(out, dirname(files.ledger.path)), { recursive: true });
    await writeFile(join(out, files.ledger.path), files.ledger.content);
    const cutInside = ledgerOf(sessionFile({ path, source: 'claude', sessionId: 's6' }, [prompt('u1', at(0), 'go'), reply('a1', at(1), { input: 10, output: 5 }, { parentId: 'u1' })]));
    expect(await cutShortSessions(out, [{ ...JSON.parse(files.record), lastSeen: 0 }], [{ ...cutInside, size: 4000 }], null)).toEqual({ cut: [whole.key], rewritten: [] });
  });
});

describe('a Codex rollout archived while it ended on the words sent, before their event', () => {
  // Regression (a hostile look): grown since and moved to archived_sessions, it was a session of
  // its own beside the moved file: its last prompt, read from the words' first line, is held by
  // the moved file as the prompt read from their event, a moment later.
  it('is the moved file’s session; a copy whose last prompt another, later, took the place of is not', () => {
    const at = (s: number, ms = 0) => new Date(Date.UTC(2026, 2, 2, 10, 0, s, ms)).toISOString();
    const cut = {
      ...ledgerOf(
        sessionFile({ path: '/h/.codex/sessions/2026/03/02/rollout-a.jsonl', source: 'codex', sessionId: 'c1' }, [
          prompt('p1', at(0), 'first'),
          reply('r1', at(2), { input: 100, output: 10 }, { parentId: 'p1' }),
          { ...prompt('item3', at(27), 'second', 'r1'), key: 'item-key' },
        ]),
      ),
      lastSeen: Date.parse('2026-03-03T00:00:00Z'),
    };
    const grown = (time: string) =>
      sessionFile({ path: '/h/.codex/archived_sessions/rollout-a.jsonl', source: 'codex', sessionId: 'c1' }, [
        prompt('p1', at(0), 'first'),
        reply('r1', at(2), { input: 100, output: 10 }, { parentId: 'p1' }),
        { ...prompt('event3', time, 'second', 'r1'), key: 'event-key' },
        reply('r3', at(40), { input: 200, output: 20 }, { parentId: 'event3' }),
      ]);
    // Codex's files of one thread are mirrors (a live rollout and its archived copy), as its reader says.
    const codexRules = { usage: rules, mirrors: (source: string) => source === 'codex' };
    expect(claimEntries([ledgerOf(grown(at(27, 1))), cut], codexRules).duplicateOf.has(cut.key)).toBe(true);
    expect(claimEntries([ledgerOf(grown(at(50))), cut], codexRules).duplicateOf.has(cut.key)).toBe(false);
  });
});

describe('a Claude Code file that went on after a model fallback', () => {
  // Regression (a hostile look): a response's kept line after a fallback may give its prompt fewer
  // tokens than its first line did (claude.md §9.2); the file that only went on was said rewritten.
  it('is not taken for cut short or rewritten', async () => {
    const at = (s: number) => `2026-11-02T10:00:0${s}Z`;
    const path = '/home/ana/.claude/projects/-shop/s5.jsonl';
    const first = ledgerOf(sessionFile({ path, source: 'claude', sessionId: 's5' }, [prompt('u1', at(0), 'go'), reply('a1', at(1), { input: 3, cacheRead: 80_000, output: 5 }, { parentId: 'u1' })]));
    const out = await tempDir();
    const files = await archiveFiles({ ledger: { ...first, size: 4000 }, pages: [], search: [], fingerprint: null, source: 'x', place: 'y', lastSeen: 0, sharing: 'plain', entries: first.entries.count, ownEntries: first.entries.count, fileBytes: 4000 });
    await mkdir(join(out, dirname(files.ledger.path)), { recursive: true });
    await writeFile(join(out, files.ledger.path), files.ledger.content);
    const wentOn = ledgerOf(sessionFile({ path, source: 'claude', sessionId: 's5' }, [prompt('u1', at(0), 'go'), { ...reply('a1', at(1), { input: 3, cacheWrite: 10_000, output: 400 }, { parentId: 'u1' }), aliases: ['a2'] }, prompt('u2', at(3), 'more', 'a1'), reply('a3', at(4), { input: 3, output: 50 }, { parentId: 'u2' })]));
    expect(await cutShortSessions(out, [{ ...JSON.parse(files.record), lastSeen: 0 }], [{ ...wentOn, size: 9000 }], null)).toEqual({ cut: [], rewritten: [] });
  });
});
