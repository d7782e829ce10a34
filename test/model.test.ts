import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitBranches } from '../src/model/branches.js';
import { buildTree } from '../src/model/tree.js';
import type { SessionData } from '../src/report/data.js';
import { readSessionFile } from '../src/sources/read.js';
import { ALL_UTC, piFixture, readPiFixture, reportOf, sessionAt, tempDir } from './support/fixtures.js';

const LINEAGE = 'lineage/--home-ana-projects-shop--';
const ORIGIN = `${LINEAGE}/2026-10-10T09-00-00-000Z_0196a000-0000-7000-8000-000000000020.jsonl`;
const FORK = `${LINEAGE}/2026-10-10T10-00-00-000Z_0196a000-0000-7000-8000-000000000021.jsonl`;
const FULL_COPY = 'lineage/--home-ana-projects-shop-v2--/2026-10-11T09-00-00-000Z_0196a000-0000-7000-8000-000000000022.jsonl';
const ORPHAN_CLONE = `${LINEAGE}/2026-10-12T09-00-00-000Z_0196a000-0000-7000-8000-000000000023.jsonl`;
const IMPORTED = `${LINEAGE}/imported-checkout.jsonl`;

const numbers = (s: SessionData) => ({
  prompts: s.tally.prompts,
  replies: s.tally.replies,
  input: s.tally.tokens.input,
  output: s.tally.tokens.output,
  recorded: Number(s.tally.cost.recorded?.toFixed(10)),
});

async function sessionOf(name: string): Promise<SessionData> {
  const data = await reportOf([piFixture(name)]);
  return data.sessions[0] as SessionData;
}

async function treeOf(name: string) {
  return buildTree((await readPiFixture(name)).entries);
}

describe('session model', () => {
  it('counts every branch of the tree, abandoned ones included', async () => {
    const session = await sessionOf('tree-branches.jsonl');
    expect(numbers(session)).toEqual({ prompts: 4, replies: 4, input: 1500, output: 150, recorded: 0.00225 });
    expect(session.ledger.branches).toBe(3);
    expect(session.ledger.title).toBe('Renaming the cart');
  });

  it('takes the active path from the root to the last entry in the file, even on an older branch', async () => {
    const tree = await treeOf('tree-branches.jsonl');
    expect(tree.activePath.map((e) => e.id)).toEqual(['b0000001', 'b0000002', 'b0000006', 'b0000007', 'b0000008', 'b0000009', 'b0000012', 'b0000013']);
    expect(tree.branchPoints.map((e) => e.id)).toEqual(['b0000002']);
  });

  it('shows every entry exactly once across the branches', async () => {
    const branches = splitBranches(await treeOf('tree-branches.jsonl'));
    expect(branches.map((b) => [b.number, b.forkPoint?.id ?? null, b.entries.map((e) => e.id)])).toEqual([
      [1, null, ['b0000001', 'b0000002', 'b0000006', 'b0000007', 'b0000008', 'b0000009', 'b0000012', 'b0000013']],
      [2, 'b0000002', ['b0000003', 'b0000004', 'b0000005']],
      [3, 'b0000002', ['b0000010', 'b0000011']],
    ]);
  });

  // Regression (a trees review): a label set while /tree had moved Pi's leaf back to an earlier
  // reply, the conversation then gone on from the latest one, was a leaf of its own: counted as a
  // second branch, holding nothing but the label, and drawn as none.
  it('takes a label set off the conversation for a bookmark on the way, not a branch', async () => {
    const at = (s: number) => `2026-11-27T10:00:${String(s).padStart(2, '0')}.000Z`;
    const message = (id: string, parentId: string | null, s: number, role: 'user' | 'assistant', text: string) => ({
      type: 'message', id, parentId, timestamp: at(s),
      message: role === 'user' ? { role, content: text } : { role, content: [{ type: 'text', text }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 100, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 150 }, stopReason: 'stop' },
    });
    const records = [
      { type: 'session', version: 3, id: 'label-off', timestamp: at(0), cwd: '/work/labels' },
      message('u1', null, 1, 'user', 'turn 1'), message('a1', 'u1', 2, 'assistant', 'reply 1'),
      message('u2', 'a1', 3, 'user', 'turn 2'), message('a2', 'u2', 4, 'assistant', 'reply 2'),
      { type: 'label', id: 'l1', parentId: 'a1', timestamp: at(5), targetId: 'a1', label: 'checkpoint' },
      { type: 'label', id: 'l2', parentId: 'l1', timestamp: at(6), targetId: 'u1', label: 'start' },
      message('u3', 'a2', 7, 'user', 'turn 3'), message('a3', 'u3', 8, 'assistant', 'reply 3'),
    ];
    const path = join(await tempDir(), 'label-off.jsonl');
    await writeFile(path, records.map((r) => JSON.stringify(r)).join('\n'));
    const outcome = await readSessionFile(path);
    if (outcome.kind !== 'session') throw new Error('not read as a session');
    const tree = buildTree(outcome.file.entries);
    expect(tree.leaves.map((e) => e.id)).toEqual(['a3']);
    expect(tree.branchPoints).toEqual([]);
    expect(splitBranches(tree).map((b) => [b.number, b.entries.map((e) => e.id)])).toEqual([[1, ['u1', 'a1', 'l1', 'l2', 'u2', 'a2', 'u3', 'a3']]]);
    expect((await reportOf([path])).sessions[0]?.ledger.branches).toBe(1);
    // Set as the file's last line, the leaf stays there: what came after the reply it hangs from
    // is a branch left, as Pi would go on from the label.
    await writeFile(path, [...records.slice(0, 5), records[7], records[8], records[5], records[6]].map((r) => JSON.stringify(r)).join('\n'));
    const left = await readSessionFile(path);
    if (left.kind !== 'session') throw new Error('not read as a session');
    expect(splitBranches(buildTree(left.file.entries)).map((b) => [b.number, b.entries.map((e) => e.id)])).toEqual([
      [1, ['u1', 'a1', 'l1', 'l2']],
      [2, ['u2', 'a2', 'u3', 'a3']],
    ]);
    // A label whose parent's line is lost stays a root of its own, counted as the page shows it
    // (a hostile look: "1 branch" in the header, "2 branches" above the tree).
    const orphan = { type: 'label', id: 'l9', parentId: 'lost', timestamp: at(9), targetId: 'a1', label: 'kept' };
    await writeFile(path, [...records.slice(0, 3), orphan, ...records.slice(3)].map((r) => JSON.stringify(r)).join('\n'));
    const rooted = await readSessionFile(path);
    if (rooted.kind !== 'session') throw new Error('not read as a session');
    const rootedTree = buildTree(rooted.file.entries);
    expect(splitBranches(rootedTree).length).toBe(rootedTree.leaves.length);
  });

  it('turns orphans and self-parented entries into roots', async () => {
    const tree = await treeOf('multiple-roots.jsonl');
    expect(tree.roots.map((e) => e.id)).toEqual(['c0000001', 'c0000003', 'c0000005', 'c0000006']);
    expect(tree.orphans.map((e) => e.id)).toEqual(['c0000005']);
    const session = await sessionOf('multiple-roots.jsonl');
    expect(session.ledger.branches).toBe(4);
    expect(numbers(session)).toEqual({ prompts: 4, replies: 2, input: 30, output: 3, recorded: 0.0000675 });
  });

  it('counts error and aborted replies, and what their usage says they cost', async () => {
    const session = await sessionOf('errors.jsonl');
    expect(session.tally).toMatchObject({ prompts: 3, replies: 5, errorReplies: 2, abortedReplies: 2 });
    expect(numbers(session)).toMatchObject({ input: 1350, output: 4401, recorded: 0.023355 });
  });

  it('counts sub-agent spend in the session and apart', async () => {
    const session = await sessionOf('subagent.jsonl');
    expect(session.tally.tokens).toMatchObject({ input: 3300, output: 330, cacheRead: 300 });
    expect(session.tally.subagents.tokens).toMatchObject({ input: 3000, output: 300, cacheRead: 300 });
    expect(session.tally.cost.recorded).toBeCloseTo(0.00585, 12);
    expect(session.tally.subagents.cost.recorded).toBeCloseTo(0.0045, 12);
  });

  it('counts usage of tool results, summaries and usage entries; reasoning and 1h writes stay inside their totals', async () => {
    const session = await sessionOf('usage-kinds.jsonl');
    expect(session.tally.tokens).toEqual({ input: 548, output: 1266, cacheRead: 179775, cacheWrite: 611, cacheWrite1h: 100, reasoning: 300 });
    expect(session.tally.cost.recorded).toBeCloseTo(0.12809625, 12);
  });

  it('names a session by its latest /name, else by the words typed, never by a skill body', async () => {
    expect((await sessionOf('skills.jsonl')).ledger.title).toBe('/skill:review the checkout code');
    expect((await sessionOf('minimal-v3.jsonl')).ledger.title).toBe('What does cart.ts export?');
  });

  it('groups sessions by working directory, whatever the spelling of a Windows path', async () => {
    const data = await reportOf([piFixture('windows-cwd.jsonl'), piFixture('windows-cwd-other-spelling.jsonl')]);
    expect(data.projects).toHaveLength(1);
    expect(data.projects[0]?.sessions).toHaveLength(2);
    // And --project takes it by either slash (a review of sessions from other machines: only a
    // spelling some session wrote).
    for (const project of ['C:/Users/Ana/Shop', 'c:\\users\\ana\\shop', 'users/ana']) {
      const chosen = await reportOf([piFixture('windows-cwd.jsonl'), piFixture('windows-cwd-other-spelling.jsonl')], { ...ALL_UTC, project });
      expect({ project, sessions: chosen.sessions.length }).toEqual({ project, sessions: 2 });
    }
  });
});

describe('lineage across files', () => {
  const all = [ORIGIN, FORK, FULL_COPY, ORPHAN_CLONE, IMPORTED].map(piFixture);

  it('counts copied entries once, in the oldest file holding them', async () => {
    const data = await reportOf(all);
    const byFile = new Map(data.sessions.map((s) => [s.ledger.path, numbers(s)]));
    expect(byFile.get(piFixture(ORIGIN))).toEqual({ prompts: 3, replies: 3, input: 600, output: 60, recorded: 0.006 });
    expect(byFile.get(piFixture(FORK))).toEqual({ prompts: 1, replies: 1, input: 400, output: 40, recorded: 0.004 });
    expect(byFile.get(piFixture(FULL_COPY))).toEqual({ prompts: 1, replies: 1, input: 500, output: 50, recorded: 0.005 });
    // A byte copy of the origin with nothing more (an /import never gone on with) is no session of its own.
    expect(byFile.has(piFixture(IMPORTED))).toBe(false);
    expect(byFile.get(piFixture(ORPHAN_CLONE))).toEqual({ prompts: 2, replies: 2, input: 1500, output: 150, recorded: 0.015 });
    expect(data.totals).toMatchObject({ prompts: 7, replies: 7, tokens: { input: 3000, output: 300 } });
  });

  it('links a copy to its origin by path or file name, lists a byte copy with nothing more with its origin, and notes a missing origin', async () => {
    const data = await reportOf(all);
    const session = (name: string) => sessionAt(data, piFixture(name));
    expect(session(FORK).origin?.key).toBe(session(ORIGIN).key);
    expect(session(FULL_COPY).origin?.key).toBe(session(FORK).key);
    expect(session(ORPHAN_CLONE)).toMatchObject({ origin: null, originMissing: true });
    expect(session(ORIGIN).copies.map((s) => s.path)).toEqual([piFixture(FORK)]);
    expect(session(ORIGIN).duplicates.map((s) => s.path)).toEqual([piFixture(IMPORTED)]);
  });

  it('puts a full copy into the project of its own working directory', async () => {
    const data = await reportOf(all);
    expect(data.projects.map((p) => [p.cwd, p.sessions.length]).sort()).toEqual([
      ['/home/ana/projects/shop', 3],
      ['/home/ana/projects/shop-v2', 1],
    ]);
  });

  it('counts history once when the middle of a chain of copies is missing', async () => {
    const data = await reportOf([piFixture(ORIGIN), piFixture(FULL_COPY)]);
    const fullCopy = sessionAt(data, piFixture(FULL_COPY));
    expect(fullCopy).toMatchObject({ origin: null, originMissing: true });
    // The origin's two entries count in the origin; the lost fork's new work counts in the copy.
    expect(numbers(fullCopy)).toEqual({ prompts: 2, replies: 2, input: 900, output: 90, recorded: 0.009 });
  });

  it('counts the copies themselves when the origin is not among the inputs', async () => {
    const data = await reportOf([piFixture(FORK)]);
    expect(numbers(data.sessions[0] as SessionData)).toEqual({ prompts: 2, replies: 2, input: 500, output: 50, recorded: 0.005 });
  });
});
