// Usage that a session counts is shown where it was spent. Regressions from a review of Pi's rarer
// entries: a compaction's and a branch summary's own model call (Pi 0.81+), and a sub-agent run
// whose result gives only its total usage, were counted but shown nowhere on the page.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { tempDir } from './support/fixtures.js';

const at = (s: number) => new Date(Date.parse('2026-10-05T10:00:00.000Z') + s * 1000).toISOString();
const usage = (input: number, output: number, total: number) => ({ input, output, cacheRead: 0, cacheWrite: 0, cost: { total } });

async function exported(records: readonly object[]): Promise<string> {
  const dir = await tempDir();
  const input = join(dir, 's.jsonl');
  await writeFile(input, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const out = join(dir, 's.html');
  expect((await runCli(['export', input, '-o', out, '--tz', 'UTC'])).code).toBe(0);
  return readFile(out, 'utf8');
}

describe('usage spent outside replies', () => {
  it('is shown on the compaction and the branch summary that made it', async () => {
    const page = await exported([
      { type: 'session', version: 3, id: 's', timestamp: at(0), cwd: '/p' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'hi' } },
      { type: 'message', id: 'r1', parentId: 'u1', timestamp: at(2), message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', usage: usage(10, 20, 0.001) } },
      { type: 'compaction', id: 'c1', parentId: 'r1', timestamp: at(3), summary: 'SUMMARY', firstKeptEntryId: 'r1', tokensBefore: 5000, usage: usage(1000, 200, 0.006) },
      { type: 'branch_summary', id: 'b1', parentId: 'u1', timestamp: at(4), fromId: 'c1', summary: 'BRANCH', usage: usage(300, 30, 0.00135) },
    ]);
    expect(page).toContain('5,000 tokens summarised · summariser: in 1,000 · out 200');
    expect(page).toContain('(summariser: in 300 · out 30');
  });

  it('is shown on a sub-agent run whose result gives only its total', async () => {
    const page = await exported([
      { type: 'session', version: 3, id: 's', timestamp: at(0), cwd: '/p' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'scout it' } },
      { type: 'message', id: 'r1', parentId: 'u1', timestamp: at(2), message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'subagent', arguments: { agent: 'scout', task: 'TASK' } }], provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'toolUse', usage: usage(10, 20, 0.001) } },
      {
        type: 'message', id: 't1', parentId: 'r1', timestamp: at(3),
        message: { role: 'toolResult', toolCallId: 'c1', toolName: 'subagent', content: [{ type: 'text', text: 'done' }], isError: false, details: { mode: 'single', results: [{ agent: 'scout', task: 'TASK', status: 'completed', exitCode: 0, messages: [], usage: { input: 700, output: 70, cacheRead: 0, cacheWrite: 0, cost: 0.007 }, model: 'claude-haiku-4-5' }] } },
      },
    ]);
    expect(page).toMatch(/completed · in 700 · out 70 · cache read 0 · cache write 0 · \$0\.0070 recorded/);
  });
});
