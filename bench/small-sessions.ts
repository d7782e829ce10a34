// Many small Pi sessions, for the bench rows "a history of N small sessions": a prompt and a
// reply each, in 100 projects, one file per session (a heavy Claude Code or Pi user's years). The
// generated corpus of `--mb` has a few hundred files, so the cost bough pays per file (reading,
// the cache, a page and its archive files) shows only here.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const START = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;
const PROJECTS = 100;

/** Writes `count` sessions under `folder`; returns their size in bytes. */
export async function writeSmallPiSessions(folder: string, count: number): Promise<number> {
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const project = `proj${i % PROJECTS}`;
    const dir = join(folder, `--home-ana-src-${project}--`);
    if (i < PROJECTS) await mkdir(dir, { recursive: true });
    const started = START + (i % 330) * DAY_MS + (i % 24) * 3_600_000;
    const at = (seconds: number) => new Date(started + seconds * 1000).toISOString();
    const id = `01b00000-0000-7000-8000-${String(i).padStart(12, '0')}`;
    // Entry ids of their own, as Pi's random ones are: with the same ids and start times (1,320
    // of them here), unrelated sessions would read as copies of one another.
    const [promptId, replyId] = [2 * i, 2 * i + 1].map((n) => n.toString(16).padStart(8, '0'));
    const usage = { input: 100 + (i % 7), output: 50, cacheRead: 1000, cacheWrite: 10, totalTokens: 1160 + (i % 7), cost: { input: 0.0003, output: 0.00075, cacheRead: 0.0003, cacheWrite: 0.0000375, total: 0.0013875 } };
    const records = [
      { type: 'session', version: 3, id, timestamp: at(0), cwd: `/home/ana/src/${project}` },
      { type: 'message', id: promptId, parentId: null, timestamp: at(1), message: { role: 'user', content: `task number ${i} please` } },
      {
        type: 'message',
        id: replyId,
        parentId: promptId,
        timestamp: at(2),
        message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', api: 'anthropic-messages', content: [{ type: 'text', text: `done with task ${i}` }], stopReason: 'stop', usage, timestamp: started + 2000 },
      },
    ];
    const text = `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
    await writeFile(join(dir, `${at(0).replace(/[:.]/g, '-')}_${id}.jsonl`), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}
