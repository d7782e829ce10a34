import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionData } from '../src/report/data.js';
import { resolvePiPath } from '../src/sources/pi/tools.js';
import { shellCommits } from '../src/sources/tool-output.js';
import { piFixture, reportOf, tempDir } from './support/fixtures.js';

async function sessionOf(name: string): Promise<SessionData> {
  return (await reportOf([piFixture(name)])).sessions[0] as SessionData;
}

describe('Pi tool paths', () => {
  it.each([
    ['src/a.ts', '/home/ana/shop', 'src/a.ts'],
    ['./src/../src/a.ts', '/home/ana/shop', 'src/a.ts'],
    ['@src/b.ts', '/home/ana/shop', 'src/b.ts'],
    ['/home/ana/shop/src/c.ts', '/home/ana/shop/', 'src/c.ts'],
    ['file:///home/ana/shop/My%20Notes.md', '/home/ana/shop', 'My Notes.md'],
    ['../other/x.ts', '/home/ana/shop', '/home/ana/other/x.ts'],
    ['/etc/hosts', '/home/ana/shop', '/etc/hosts'],
    ['~/notes.md', '/home/ana/shop', '~/notes.md'],
    ['Screen\u202fShot 1.png', '/home/ana/shop', 'Screen Shot 1.png'],
    ['/c/Users/Ana/Shop/src/x.ts', 'C:\\Users\\Ana\\Shop', 'src/x.ts'],
    ['C:\\Users\\Ana\\Shop\\README.md', 'C:\\Users\\Ana\\Shop', 'README.md'],
    ['c:/users/ana/shop/src/x.ts', 'C:\\Users\\Ana\\Shop', 'src/x.ts'],
    ['/mnt/c/Users/Ana/Other/y.txt', 'C:\\Users\\Ana\\Shop', 'C:/Users/Ana/Other/y.txt'],
    ['/cygdrive/d/data/z.csv', 'C:\\Users\\Ana\\Shop', 'D:/data/z.csv'],
    ['file:///C:/Users/Ana/Shop/a.txt', 'C:\\Users\\Ana\\Shop', 'a.txt'],
    ['src\\win.ts', 'C:\\Users\\Ana\\Shop', 'src/win.ts'],
    // Regression: a POSIX path a tool wrote in a Windows session lost its root, below the cwd.
    ['/home/ana/proj/.env', 'C:\\Users\\Ana\\Shop', '/home/ana/proj/.env'],
    // Regression (a review of sessions from other machines): a name written decomposed, as macOS
    // names files, was another file than the same name composed, and outside the working folder.
    ['/Users/hana/Cafe\u0301 app/re\u0301sume\u0301.md', '/Users/hana/Café app', 'résumé.md'],
    // Regression (a review of histories from Windows): a network path lost one of its two leading
    // slashes, naming another file, and one in a working folder on a share was not made relative.
    ['\\\\fileserver\\team\\spec.md', 'C:\\Users\\Ana\\Shop', '//fileserver/team/spec.md'],
    ['\\\\wsl.localhost\\Ubuntu\\home\\ana\\app\\README.md', '\\\\wsl.localhost\\Ubuntu\\home\\ana\\app', 'README.md'],
    ['src\\main.ts', '\\\\wsl.localhost\\Ubuntu\\home\\ana\\app', 'src/main.ts'],
    ['src/main.ts', '\\\\wsl.localhost\\Ubuntu\\home\\ana\\app', 'src/main.ts'],
    // A hostile look at that: a long path's `\\?\` was another file, and `..` went past a share's root.
    ['\\\\?\\C:\\Users\\Ana\\Shop\\src\\a.ts', 'C:\\Users\\Ana\\Shop', 'src/a.ts'],
    ['\\\\?\\UNC\\server\\share\\spec.md', 'C:\\Users\\Ana\\Shop', '//server/share/spec.md'],
    ['\\\\server\\share\\docs\\..\\..\\..\\spec.md', 'C:\\Users\\Ana\\Shop', '//server/share/spec.md'],
    ['..\\..\\..\\..\\notes.md', '\\\\server\\share\\app', '//server/share/notes.md'],
  ])('%s in %s is %s', (raw, cwd, resolved) => {
    expect(resolvePiPath(raw, cwd)).toBe(resolved);
  });
});

describe('tool work of a session', () => {
  it('lists files touched with reads, writes, edits and the lines each edit changed', async () => {
    const { tools } = await sessionOf('tools.jsonl');
    expect(tools.files).toEqual([
      { path: '/etc/hosts', reads: 1, writes: 0, edits: 0, added: 0, removed: 0 },
      { path: 'docs/CART.md', reads: 0, writes: 1, edits: 0, added: 0, removed: 0 },
      { path: 'shots/Screen Shot.png', reads: 1, writes: 0, edits: 0, added: 0, removed: 0 },
      { path: 'src/a.ts', reads: 2, writes: 0, edits: 1, added: 3, removed: 1 },
      { path: 'src/b.ts', reads: 1, writes: 0, edits: 1, added: 1, removed: 1 },
      // Its edit failed (Pi refused its arguments): it was read, not edited.
      { path: 'src/c.ts', reads: 1, writes: 0, edits: 0, added: 0, removed: 0 },
      { path: '~/notes.md', reads: 1, writes: 0, edits: 0, added: 0, removed: 0 },
    ]);
    expect(tools).toMatchObject({ calls: 16, failures: 2, added: 4, removed: 2 });
    expect(tools.byTool.slice(0, 3)).toEqual([
      { name: 'read', calls: 7 },
      { name: 'bash', calls: 3 },
      { name: 'edit', calls: 3 },
    ]);
  });

  // Regression (a review that ran the agents): a write the user denied, or an edit whose text was
  // not in the file, was listed among the files touched as written or edited.
  it('lists no file a failed call named as written or edited', async () => {
    const id = '50505050-0000-4000-8000-000000000050';
    const env = (uuid: string, parentUuid: string | null, second: number, more: object) => ({ parentUuid, isSidechain: false, cwd: '/w', sessionId: id, version: '2.1.332', uuid, timestamp: `2026-11-10T10:00:${String(second).padStart(2, '0')}.000Z`, ...more });
    const call = (uuid: string, parent: string, second: number, name: string, input: object) =>
      env(uuid, parent, second, { type: 'assistant', requestId: `req_${uuid}`, message: { id: `msg_${uuid}`, role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'tool_use', id: `toolu_${uuid}`, name, input }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } } });
    const result = (uuid: string, parent: string, second: number, callUuid: string, text: string, isError: boolean) =>
      env(uuid, parent, second, { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${callUuid}`, content: text, is_error: isError }] } });
    const folder = await tempDir();
    const records = [
      env('u1', null, 0, { type: 'user', message: { role: 'user', content: 'Tidy the config' } }),
      call('a1', 'u1', 1, 'Write', { file_path: '/w/secret.env', content: 'x' }),
      result('r1', 'a1', 2, 'a1', 'The user doesn’t want to proceed with this tool use.', true),
      call('a2', 'r1', 3, 'Edit', { file_path: '/w/config.ts', old_string: 'nope', new_string: 'yes' }),
      result('r2', 'a2', 4, 'a2', '<tool_use_error>String to replace not found in file.</tool_use_error>', true),
      call('a3', 'r2', 5, 'Edit', { file_path: '/w/app.ts', old_string: 'a', new_string: 'b' }),
      result('r3', 'a3', 6, 'a3', 'The file /w/app.ts has been updated.', false),
    ];
    await writeFile(join(folder, `${id}.jsonl`), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const { tools } = (await reportOf([join(folder, `${id}.jsonl`)])).sessions[0] as SessionData;
    expect(tools.files.map((f) => [f.path, f.writes, f.edits])).toEqual([['app.ts', 0, 1]]);
    expect(tools).toMatchObject({ calls: 3, failures: 2 });
  });

  // Regression (a hostile look at that): with the ids a Kimi model repeats (`functions.edit:0`),
  // a failed result whose own call's line was damaged was taken for another call of the same id,
  // and a good edit of b.js went missing from the files touched.
  it('takes a call for failed only where every result found for it failed', async () => {
    const message = (id: string, parentId: string | null, second: number, body: object) => ({ type: 'message', id, parentId, timestamp: `2026-11-30T11:32:${String(second).padStart(2, '0')}.000Z`, message: { timestamp: 1796038324000 + second, ...body } });
    const usage = { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 30, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const edit = (id: string, parentId: string, second: number, path: string) => message(id, parentId, second, { role: 'assistant', content: [{ type: 'toolCall', id: 'functions.edit:0', name: 'edit', arguments: { path, edits: [{ oldText: 'a', newText: 'b' }] } }], provider: 'moonshot', model: 'kimi-k2', usage, stopReason: 'toolUse' });
    const result = (id: string, parentId: string, second: number, failed: boolean) => message(id, parentId, second, { role: 'toolResult', toolCallId: 'functions.edit:0', toolName: 'edit', content: [{ type: 'text', text: failed ? 'Could not find the exact text.' : 'Successfully replaced 1 block(s).' }], isError: failed });
    const lost = JSON.stringify(edit('r3', 'r2', 10, 'c.js'));
    const lines = [
      JSON.stringify({ type: 'session', version: 3, id: '01a22c39-f1c3-71fd-b2b4-c9b07a8e0001', timestamp: '2026-11-30T11:32:00.000Z', cwd: '/work/app' }),
      ...[message('u1', null, 1, { role: 'user', content: 'fix a and b' }), edit('r1', 'u1', 2, 'a.js'), result('t1', 'r1', 3, false), edit('r2', 't1', 4, 'b.js'), result('t2', 'r2', 5, false)].map((r) => JSON.stringify(r)),
      lost.slice(0, lost.length / 2),
      JSON.stringify(result('t3', 'r3', 11, true)),
    ];
    const path = join(await tempDir(), '2026-11-30T11-32-00-000Z_01a22c39-f1c3-71fd-b2b4-c9b07a8e0001.jsonl');
    await writeFile(path, `${lines.join('\n')}\n`);
    const { tools } = (await reportOf([path])).sessions[0] as SessionData;
    expect(tools.files.map((f) => [f.path, f.edits])).toEqual([['a.js', 1], ['b.js', 1]]);
  });

  it('finds git commits in shell results, landed or failed by the result’s error flag', async () => {
    const { tools } = await sessionOf('tools.jsonl');
    expect(tools.commits.map(({ message, landed, line }) => ({ message, landed, line }))).toEqual([
      { message: 'Initial', landed: true, line: '[main (root-commit) 1a2b3c4] Initial' },
      { message: 'Add cart', landed: true, line: '[main 85fd4d9] Add cart' },
      { message: 'WIP', landed: false, line: null },
    ]);
  });

  it('resolves Git-Bash, WSL and drive paths against a Windows working directory', async () => {
    const { tools } = await sessionOf('windows-tools.jsonl');
    expect(tools.files.map((f) => [f.path, f.reads])).toEqual([
      ['C:/Users/Ana/Other/y.txt', 1],
      ['D:/data/z.csv', 1],
      ['README.md', 1],
      ['src/x.ts', 2],
    ]);
    expect(tools.commits.map((c) => c.line)).toEqual(['[master 0badc0d] Windows']);
  });

  // Regression (an outside review of Pi's format): on Windows one file written in two cases was
  // two rows of "Files touched" (pi.md §16: compare Windows paths without case).
  it('counts a Windows file named in another case as the same file', async () => {
    const lines = (await readFile(piFixture('windows-tools.jsonl'), 'utf8')).trimEnd().split('\n');
    const call = { type: 'toolCall', id: 'x9', name: 'read', arguments: { path: 'C:\\USERS\\ana\\shop\\SRC\\X.TS' } };
    const more = { type: 'message', id: 'w0000009', parentId: 'w0000003', timestamp: '2026-10-15T09:00:09.000Z', message: { role: 'assistant', content: [call], timestamp: 0 } };
    const path = join(await tempDir(), 'cased.jsonl');
    await writeFile(path, `${[...lines, JSON.stringify(more)].join('\n')}\n`);
    const { tools } = (await reportOf([path])).sessions[0] as SessionData;
    expect(tools.files.map((f) => [f.path, f.reads])).toEqual([
      ['C:/Users/Ana/Other/y.txt', 1],
      ['D:/data/z.csv', 1],
      ['README.md', 1],
      ['src/x.ts', 3],
    ]);
  });
});

// Regression (an outside review of Pi's format): tool call ids repeat across replies (Kimi's
// `functions.edit:0`, pi.md §6 ties a result to the reply before it); the ledger paired every
// result with the last call of its id, and the lines an edit of a.ts changed were b.ts's.
describe('tool results paired with their calls', () => {
  it('pairs a result with the call of its id in the reply it answers, not a later one', async () => {
    const at = (n: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, n)).toISOString();
    const reply = (id: string, parentId: string, n: number, path: string, newText: string) => ({
      type: 'message', id, parentId, timestamp: at(n),
      message: { role: 'assistant', provider: 'moonshotai', model: 'kimi-k2-0905-preview', stopReason: 'toolUse', content: [{ type: 'toolCall', id: 'functions.edit:0', name: 'edit', arguments: { path, edits: [{ oldText: 'a', newText }] } }] },
    });
    const result = (id: string, parentId: string, n: number, path: string, patch: string) => ({
      type: 'message', id, parentId, timestamp: at(n),
      message: { role: 'toolResult', toolCallId: 'functions.edit:0', toolName: 'edit', content: [{ type: 'text', text: `Successfully replaced 1 block(s) in ${path}.` }], isError: false, details: { patch } },
    });
    const lines = [
      { type: 'session', version: 3, id: 'dup-calls', timestamp: at(0), cwd: '/home/u/proj' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'edit two files' } },
      reply('r1', 'u1', 2, 'src/a.ts', 'b\nc\nd'),
      result('t1', 'r1', 3, 'src/a.ts', '--- src/a.ts\n+++ src/a.ts\n@@ -1,1 +1,3 @@\n-a\n+b\n+c\n+d\n'),
      reply('r2', 't1', 4, 'src/b.ts', 'y'),
      result('t2', 'r2', 5, 'src/b.ts', '--- src/b.ts\n+++ src/b.ts\n@@ -1,1 +1,1 @@\n-a\n+y\n'),
    ];
    const path = join(await tempDir(), 'dup-calls.jsonl');
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const { tools } = (await reportOf([path])).sessions[0] as SessionData;
    expect(tools.files.map((f) => [f.path, f.edits, f.added, f.removed])).toEqual([
      ['src/a.ts', 1, 3, 1],
      ['src/b.ts', 1, 1, 1],
    ]);
  });
});

describe('commits a shell call made', () => {
  it('reads "[branch hash] message" lines, and a quiet commit by the log line of its message', () => {
    expect(shellCommits('git commit -m "Fix"', '[main 4c1e9b2] Fix\n 1 file changed', false)).toEqual([{ branch: 'main', hash: '4c1e9b2', message: 'Fix', landed: true, line: '[main 4c1e9b2] Fix' }]);
    // Regression: "git commit -q -m 'Initial commit' && git log --oneline" printed "1c0eda3 Initial commit", and the page said "git printed no commit line".
    expect(shellCommits("git init -q && git add -A && git commit -q -m 'Initial commit' && git log --oneline", '1c0eda3 Initial commit\n', false)).toEqual([
      { branch: null, hash: '1c0eda3', message: 'Initial commit', landed: true, line: '1c0eda3 Initial commit' },
    ]);
    expect(shellCommits("git commit -q -m 'WIP'", '', false)).toEqual([{ branch: null, hash: null, message: 'WIP', landed: true, line: null }]);
  });
});
