// A long session's archived ledger is written and read in pieces: whole, its JSON was longer
// than a string can be, and a build of a session of a million branches failed with "Invalid
// string length" (regression), every other session's report with it.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { archivedLedgerOf, archiveFiles, parsedLedgerJson, pathHash } from '../src/archive.js';
import { unpackEntries } from '../src/ledger/packed-entries.js';
import { collect } from '../src/reading/collect.js';
import { tempDir } from './support/fixtures.js';

/** A Pi session of `replies` replies to one prompt, each its own branch, their texts full of JSON's own characters. */
async function sessionOfBranches(replies: number): Promise<string> {
  const path = join(await tempDir(), 'branches.jsonl');
  const tricky = 'a "quoted", [bracketed] {braced} \\\\ back-slashed "entries":[ text';
  const lines = [
    JSON.stringify({ type: 'session', version: 3, id: 's1', timestamp: '2026-11-30T11:00:00.000Z', cwd: '/w/p' }),
    JSON.stringify({ type: 'message', id: 'root', parentId: null, timestamp: '2026-11-30T11:00:01.000Z', message: { role: 'user', content: tricky } }),
  ];
  for (let i = 0; i < replies; i++) {
    lines.push(JSON.stringify({ type: 'message', id: `b${i},"x"]`, parentId: 'root', timestamp: '2026-11-30T11:00:02.000Z', message: { role: 'assistant', content: [{ type: 'text', text: tricky }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1, output: 1 }, stopReason: 'stop' } }));
  }
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

describe('an archived ledger of a long session', () => {
  it('is written in pieces and reads back the same, whole or in pieces', async () => {
    const path = await sessionOfBranches(50_500);
    const [ledger] = (await collect([path], { keepContent: false })).ledgers;
    if (!ledger) throw new Error('not read');
    const files = await archiveFiles({ ledger, pages: [], search: [], fingerprint: null, source: 'x', place: 'y', lastSeen: 0, sharing: 'plain' });
    const json = gunzipSync(files.ledger.content);
    expect(parsedLedgerJson(json, 0)).toEqual(JSON.parse(json.toString('utf8')));
    const back = archivedLedgerOf(Buffer.from(files.ledger.content), pathHash(ledger.key));
    expect(back?.entries.count).toBe(50_501);
    expect(unpackEntries(back?.entries ?? ledger.entries)).toEqual(unpackEntries(ledger.entries));
  });

  it('reads a short one in pieces too, and refuses one cut inside its entries', () => {
    const json = Buffer.from(JSON.stringify({ format: 1, ledger: { title: '"entries":[ in a title', entries: [{ key: 'a,]', n: [1, { b: '}' }] }, { key: 'b' }] } }));
    expect(parsedLedgerJson(json, 0)).toEqual(JSON.parse(json.toString('utf8')));
    const empty = Buffer.from(JSON.stringify({ format: 1, ledger: { entries: [] } }));
    expect(parsedLedgerJson(empty, 0)).toEqual({ format: 1, ledger: { entries: [] } });
    expect(() => parsedLedgerJson(json.subarray(0, json.length - 20), 0)).toThrow();
  });
});
