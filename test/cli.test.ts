import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../src/cli.js';
import { exportName } from '../src/export.js';
import { FIXTURES, tempDir } from './support/fixtures.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(args: string[], env: Record<string, string> = {}, home?: string): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
    home: home ?? (await tempDir()),
    isTty: false,
    now: () => new Date('2026-11-30T12:00:00Z'),
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** A Pi session of one prompt (and `more` records after it) in a file of a folder of its own: its path. */
async function onePromptSession(cwd: string, prompt: string, more: readonly object[] = []): Promise<string> {
  const input = join(await tempDir(), 'a.jsonl');
  const at = '2026-10-05T10:00:00.000Z';
  const records = [
    { type: 'session', version: 3, id: 'one', timestamp: at, cwd },
    { type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: prompt } },
    ...more,
  ];
  await writeFile(input, records.map((r) => JSON.stringify(r)).join('\n'));
  return input;
}

/** Runs `work` with `dir` as the working folder (what a command given no path writes or reads). */
async function inFolder<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    return await work();
  } finally {
    process.chdir(cwd);
  }
}

describe('what bough could not do, said', () => {
  it('lists links it did not follow on the data-quality page and in summary.json', async () => {
    const inputs = await tempDir();
    await writeFile(join(inputs, 'a.jsonl'), await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    await mkdir(join(inputs, 'nested'));
    await symlink(inputs, join(inputs, 'nested', 'back-up'));
    await symlink(join(inputs, 'gone'), join(inputs, 'nowhere'));
    const out = join(await tempDir(), 'report');
    expect((await run(['build', inputs, '--out', out, '-q'])).code).toBe(0);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { diagnostics: { items: { reason: string; file: string; detail: string }[] } };
    const links = summary.diagnostics.items.filter((d) => d.reason === 'skipped-link');
    expect(links.map((d) => d.file.slice(inputs.length)).sort()).toEqual(['/nested/back-up', '/nowhere']);
    expect(await readFile(join(out, 'data-quality.html'), 'utf8')).toContain('skipped-link');
  });

  // Regression (a review of the command line): a compressed session named itself was said to be
  // "not a session file … See its first lines", where one in a folder was said compressed, with
  // how to read it; so was a session gzipped under its own name.
  it('says a compressed session file named itself is compressed, and how to read it', async () => {
    const dir = await tempDir();
    const session = await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl'));
    await writeFile(join(dir, 'old.jsonl.gz'), gzipSync(session));
    await writeFile(join(dir, 'gzipped.jsonl'), gzipSync(session));
    for (const [name, command] of [['old.jsonl.gz', 'old.jsonl'], ['gzipped.jsonl', 'gzipped.jsonl']] as const) {
      const file = join(dir, name);
      const how = `is compressed (gzip), so not read: decompress a copy into a folder of its own and give bough that folder too (gzip -dc '${file}' > FOLDER/'${command}').\n`;
      expect(await run(['stats', file])).toEqual({ code: 1, stdout: '', stderr: `bough: ${file} ${how}` });
      // Export takes one file, not a folder (a review: it was told to give a folder it refuses).
      const exportHow = `is compressed (gzip), so not read: decompress a copy and export that (gzip -dc '${file}' > COPY.jsonl, then bough export COPY.jsonl).\n`;
      expect(await run(['export', file, '-o', join(dir, 'x.html')])).toEqual({ code: 1, stdout: '', stderr: `bough: ${file} ${exportHow}` });
    }
    // Two named together: each said (a hostile look: the first was taken for a folder, unsaid).
    const both = await run(['stats', join(dir, 'old.jsonl.gz'), join(dir, 'gzipped.jsonl')]);
    expect(both.stderr).toBe(`bough: ${join(dir, 'gzipped.jsonl')} is compressed (gzip), so not read: decompress a copy into a folder of its own and give bough that folder too (gzip -dc '${join(dir, 'gzipped.jsonl')}' > FOLDER/'gzipped.jsonl'). Not read either, being compressed: ${join(dir, 'old.jsonl.gz')}.\n`);
    // A Claude Code session that is none, its sub-agent compressed beside it: not said to be that
    // compressed file (a hostile look: its command decompressed the sub-agent).
    const id = 'a1b2c3d4-0000-4000-8000-00000000c1a1';
    await mkdir(join(dir, 'proj', id, 'subagents'), { recursive: true });
    await writeFile(join(dir, 'proj', id, 'subagents', 'agent-a1.jsonl.gz'), gzipSync(session));
    await writeFile(join(dir, 'proj', `${id}.jsonl`), '{"type":"x"}\n');
    const exported = await run(['export', join(dir, 'proj', `${id}.jsonl`), '-o', join(dir, 'y.html')]);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain(`${id}.jsonl is not a session file bough can read`);
    expect(exported.stderr).not.toContain('agent-a1');
  });

  // Regression (a review of what bough says of bad input): a compressed session found in a folder
  // beside a plain one was left out without a word: stats said nothing on stderr, the build "0
  // skipped lines" only, and the data-quality page "1 file read · 0 files skipped" above it.
  it('counts a compressed session found beside plain ones as a file skipped, and names it', async () => {
    const dir = await tempDir();
    const session = await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl'));
    await writeFile(join(dir, 'new.jsonl'), session);
    await writeFile(join(dir, 'old.jsonl.gz'), gzipSync(session));
    const gz = join(dir, 'old.jsonl.gz');
    const how = `compressed (gzip), so not read: decompress a copy into a folder of its own and give bough that folder too (gzip -dc '${gz}' > FOLDER/'old.jsonl')`;
    const stats = await run(['stats', dir, '--no-cache']);
    expect(stats.code).toBe(0);
    expect(stats.stderr).toBe(`bough: 1 file skipped; \`bough build\` lists it on its data-quality page.\nbough: skipped: ${gz} (${how}).\n`);
    const json = JSON.parse((await run(['stats', dir, '--no-cache', '--json'])).stdout) as { diagnostics: object };
    expect(json.diagnostics).toMatchObject({ files: 2, sessionFiles: 1, skippedFiles: 1, byReason: { 'compressed-file': 1 } });
    const out = join(await tempDir(), 'report');
    const built = await run(['build', dir, '--no-cache', '--out', out]);
    expect(built.stdout).toContain(' · 1 file skipped (see the data-quality page) · ');
    expect(await readFile(join(out, 'data-quality.html'), 'utf8')).toContain('2 files found · 1 session file · 1 file skipped · 0 lines skipped · 1 note in all');
  });

  // Regression (a review of the command line): `link/..` was dropped as text, as path.resolve
  // does, so that bough read the folder beside the link (or said no such folder) where `ls`, the
  // system, goes up from where the link leads; a report's folder too.
  it('goes up from where a link leads for `link/..`, as the system does', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'data', 'pi', 'real'), { recursive: true });
    await mkdir(join(root, 'data', 'pi', 'sessions'));
    await cp(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), join(root, 'data', 'pi', 'sessions', 'a.jsonl'));
    await mkdir(join(root, 'view', 'sessions'), { recursive: true });
    await symlink(join(root, 'data', 'pi', 'real'), join(root, 'view', 'current'));
    // Joined as text: join() too drops `current/..`.
    const stats = await run(['stats', `${join(root, 'view', 'current')}/../sessions`, '--json']);
    expect([stats.code, (JSON.parse(stats.stdout) as { totals: { sessions: number } }).totals.sessions]).toEqual([0, 1]);
    const out = `${join(root, 'view', 'current')}/../report`;
    expect((await run(['build', `${join(root, 'view', 'current')}/../sessions/a.jsonl`, '-o', out, '-q'])).code).toBe(0);
    expect([existsSync(join(root, 'data', 'pi', 'report', 'index.html')), existsSync(join(root, 'view', 'report'))]).toEqual([true, false]);
    const exported = join(root, 'one.html');
    expect((await run(['export', `${join(root, 'view', 'current')}/../sessions/a.jsonl`, '-o', exported, '-q'])).code).toBe(0);
    expect(existsSync(exported)).toBe(true);
    // A hostile look: a part missing, a loop of links, a link to a file were still dropped as text.
    // Missing: as `mkdir -p` goes, from where the link leads; the others the system cannot go through.
    expect((await run(['build', join(root, 'data', 'pi', 'sessions'), '-o', `${join(root, 'view', 'current')}/new/../../report2`, '-q'])).code).toBe(0);
    expect([existsSync(join(root, 'data', 'pi', 'report2', 'index.html')), existsSync(join(root, 'view', 'report2'))]).toEqual([true, false]);
    await symlink(join(root, 'view', 'loop'), join(root, 'view', 'loop'));
    await symlink(join(root, 'data', 'pi', 'sessions', 'a.jsonl'), join(root, 'view', 'file'));
    // A second look: a part missing, then a link, is walked on through the link; a link to
    // nowhere is said (the folder beside it was read).
    expect((await run(['build', join(root, 'data', 'pi', 'sessions'), '-o', `${join(root, 'view')}/new/../current/../report3`, '-q'])).code).toBe(0);
    expect(existsSync(join(root, 'data', 'pi', 'report3', 'index.html'))).toBe(true);
    await symlink(join(root, 'nowhere', 'x'), join(root, 'view', 'dangling'));
    for (const [name, why] of [['loop', 'a loop of symbolic links'], ['file', 'it is a file, not a folder'], ['dangling', 'a link to nowhere']] as const) {
      const through = `${join(root, 'view', name)}/../sessions`;
      expect(await run(['stats', through])).toEqual({ code: 1, stdout: '', stderr: `bough: Cannot go up through ${join(root, 'view', name)} in ${through}: ${why}.\n` });
    }
  });

  // Regression (a review of the monthly workflow): --forget-missing dropped the sessions the
  // archive held, their only copy, without a word.
  it('says how many sessions --forget-missing dropped from the archive', async () => {
    const input = await tempDir();
    for (const name of ['minimal-v3.jsonl', 'tools.jsonl']) await cp(join(FIXTURES, 'pi', name), join(input, name));
    const out = join(await tempDir(), 'report');
    const line = async (...more: string[]) => {
      const { code, stdout, stderr } = await run(['build', input, '--out', out, '--tz', 'UTC', ...more]);
      expect(code).toBe(0);
      return `${stdout}${stderr}`;
    };
    await line();
    await rm(join(input, 'tools.jsonl'));
    expect(await line()).toContain('1 file kept from an earlier build');
    const forgot = await line('--forget-missing');
    expect(forgot).toContain('bough: 1 session from 1 file ·');
    expect(forgot).toContain(' · 1 session the archive kept dropped (--forget-missing) · ');
    expect(await line('--forget-missing')).not.toContain('dropped');
  });

  it('warns when a file of the user’s is where a new page must go, and keeps the file', async () => {
    const out = join(await tempDir(), 'report');
    const one = join(FIXTURES, 'pi', 'minimal-v3.jsonl');
    const two = join(FIXTURES, 'pi', 'errors.jsonl');
    expect((await run(['build', one, '--out', out, '-q'])).code).toBe(0);
    // Where the second session's page will go, learnt from a build elsewhere.
    const elsewhere = join(await tempDir(), 'report');
    await run(['build', one, two, '--out', elsewhere, '-q']);
    const pages = (JSON.parse(await readFile(join(elsewhere, 'summary.json'), 'utf8')) as { sessions: { file: string; page: string }[] }).sessions;
    const page = pages.find((s) => s.file === two)?.page as string;
    await writeFile(join(out, page), 'my own notes');
    const result = await run(['build', one, two, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('bough: warning:');
    expect(result.stderr).toContain(page.split('/').pop());
    expect(await readFile(join(out, page), 'utf8')).toBe('my own notes');
  });

  it('warns when the cache folder cannot be written, and still gives the numbers and the report', async () => {
    const input = join(FIXTURES, 'pi', 'minimal-v3.jsonl');
    const blocked = join(await tempDir(), 'not-a-folder');
    await writeFile(blocked, 'a file where the cache folder should be');
    const env = { BOUGH_CACHE_DIR: blocked };
    const warning = `bough: warning: the cache folder ${blocked} cannot be written (a file is in the way of it), so every run reads again every file it does not hold. Set BOUGH_CACHE_DIR to a folder bough may write, or pass --no-cache.\n`;
    const fresh = await run(['stats', input, '--json', '--no-cache'], env);
    expect(fresh.stderr).toBe('');
    const statsRun = await run(['stats', input, '--json'], env);
    expect(statsRun).toEqual({ code: 0, stdout: fresh.stdout, stderr: warning });
    expect((await run(['stats', input, '--json', '-q'], env)).stderr).toBe('');
    const out = join(await tempDir(), 'report');
    const buildRun = await run(['build', input, '--out', out], env);
    expect(buildRun.code).toBe(0);
    expect(buildRun.stderr).toBe(warning);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(await readFile(blocked, 'utf8')).toBe('a file where the cache folder should be');
  });
});

describe('bough command line', () => {
  // Regression (a README audit): with --quiet, a page not written because a file of the user's is
  // where it goes was never said, and the report linked to that file as the session's page.
  it('says a page it did not write for a file of yours in its place, even with --quiet', async () => {
    const first = join(FIXTURES, 'pi', 'minimal-v3.jsonl');
    const second = await onePromptSession('/work/second', 'a second session');
    // Where the second session's page goes, as a build of it alone names it.
    const alone = join(await tempDir(), 'alone');
    expect((await run(['build', second, '--out', alone, '-q', '--tz', 'UTC'])).code).toBe(0);
    const page = (JSON.parse(await readFile(join(alone, 'summary.json'), 'utf8')) as { sessions: { page: string }[] }).sessions[0]?.page as string;
    const out = join(await tempDir(), 'report');
    expect((await run(['build', first, '--out', out, '-q', '--tz', 'UTC'])).code).toBe(0);
    await mkdir(join(out, 'sessions'), { recursive: true });
    await writeFile(join(out, page), 'MINE');
    const again = await run(['build', first, second, '--out', out, '-q', '--tz', 'UTC']);
    expect(again.stderr).toBe(`bough: warning: Your file ${join(out, page)} is where the report's ${page} goes; bough left yours in place and did not write that page. Move or rename your file and build again.\n`);
    expect(await readFile(join(out, page), 'utf8')).toBe('MINE');
  });

  // Regression (a README audit): a session file emptied or garbled since the last build was kept
  // from the archive without a warning, and the index called it "file gone" though it is there.
  it('warns of a session file still there that no longer reads as the session, and does not call it gone', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    await writeFile(join(input, 's1.jsonl'), await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    await writeFile(join(input, 's2.jsonl'), await readFile(join(FIXTURES, 'pi', 'errors.jsonl')));
    const out = join(await tempDir(), 'report');
    expect((await run(['build', input, '--out', out, '--tz', 'UTC'])).code).toBe(0);
    await writeFile(join(input, 's1.jsonl'), '');
    const emptied = await run(['build', input, '--out', out, '--tz', 'UTC']);
    expect(emptied.stderr).toContain(`bough: warning: 1 session file is still there but no longer reads as the session ${out} archived (emptied, damaged or unreadable: the data-quality page says why): its pages are kept as archived, and say so.`);
    const index = await readFile(join(out, 'index.html'), 'utf8');
    expect(index).toContain('>file unread</span>');
    expect(index).not.toContain('>file gone</span>');
    expect(index).toContain('with 1 session file gone or no longer read since an earlier build kept from it');
    // A report into the folder that does not show it says nothing of it (a hostile look).
    const narrower = await run(['build', input, '--out', out, '--tz', 'UTC', '--month', '2020-01']);
    expect(narrower.code).toBe(0);
    expect(narrower.stderr).not.toContain('no longer reads');
    await rm(join(input, 's1.jsonl'));
    expect((await run(['build', input, '--out', out, '--tz', 'UTC'])).stderr).toBe('');
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('>file gone</span>');
  });

  // Regression (a README audit): "8 sessions from no file read and 19 kept from an earlier build"
  // read as 19 sessions kept: they were files, sub-agents' among them.
  it('counts the files an earlier build kept as files', async () => {
    const input = join(await tempDir(), 'in');
    await mkdir(input);
    const file = join(input, 'minimal.jsonl');
    await writeFile(file, await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    const out = join(await tempDir(), 'report');
    expect((await run(['build', input, '--out', out, '--tz', 'UTC'])).code).toBe(0);
    await rm(file);
    const again = await run(['build', input, '--out', out, '--tz', 'UTC']);
    expect(again.stdout).toMatch(/^bough: 1 session from no file read and 1 file kept from an earlier build \(gone or no longer read\) · /);
  });

  it('builds a report from the given inputs and ends with a one-line summary', async () => {
    const out = join(await tempDir(), 'report');
    const result = await run(['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out', out, '--tz', 'UTC']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^bough: 1 session from 1 file · 0 skipped lines · \$0\.0050 by bough \(\$0\.0050 recorded\) · report in .*index\.html\n$/);
    // Outside the working folder, the whole path (regression: "../../../tmp/…" from a deep folder).
    expect(result.stdout).toContain(` · report in ${join(out, 'index.html')}\n`);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
  });

  // Regression: an empty period ended "0 sessions from 1 file · … · — by bough (— recorded)".
  it('says when the period or filters leave no session', async () => {
    const file = join(FIXTURES, 'pi', 'minimal-v3.jsonl');
    const month = await run(['build', file, '--out', join(await tempDir(), 'r'), '--month', '2020-01', '--tz', 'UTC']);
    expect(month.stdout).toMatch(/^bough: January 2020: no session falls in this report's period \(1 file read\) · 0 skipped lines · report in /);
    const project = await run(['build', file, '--out', join(await tempDir(), 'r'), '--project', 'zzz', '--tz', 'UTC']);
    expect(project.stdout).toMatch(/^bough: no session falls in this report's filters \(1 file read\) · 0 skipped lines · report in /);
  });

  // Regression (a review of the command line): `--out=~/rep`, which no shell expands, made a folder
  // named "~" in the working folder, said as "report in ~/rep".
  it('reads ~ at the start of an option\'s path as the home', async () => {
    const home = await tempDir();
    const work = await tempDir();
    const result = await inFolder(work, () => run(['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out=~/rep', '--tz', 'UTC'], {}, home));
    expect(result.code).toBe(0);
    expect(existsSync(join(home, 'rep', 'index.html'))).toBe(true);
    expect(await readdir(work)).toEqual([]);
    // Another user's home is not bough's to find (a hostile look: it made a folder "~root").
    const other = await inFolder(work, () => run(['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out=~root/rep'], {}, home));
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('give that path in full, or as ~/… for your own home (got "~root/rep")');
    expect(await readdir(work)).toEqual([]);
  });

  // Regression (a review of the command line): "$1.50 by bough (— recorded)" where no agent
  // recorded a cost; commander's own messages printed an argument's escape codes as they were.
  it('says "none recorded", and shows no escape code of an argument', async () => {
    const dir = await tempDir();
    const line = (record: object) => JSON.stringify({ timestamp: '2026-10-21T09:00:01.000Z', ...record });
    await writeFile(join(dir, 's.jsonl'), [
      line({ type: 'session', version: 3, id: 's', cwd: '/w' }),
      line({ type: 'message', id: 'u1', parentId: null, message: { role: 'user', content: 'go' } }),
      line({ type: 'message', id: 'a1', parentId: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-haiku-4-5', usage: { input: 1000, output: 100 }, stopReason: 'stop' } }),
    ].join('\n'));
    const built = await run(['build', dir, '--out', join(await tempDir(), 'r'), '--tz', 'UTC']);
    expect(built.stdout).toMatch(/ by bough \(none recorded\) · /);
    for (const args of [['stats', '--tz', '\u001b[2J'], ['stats', '--\u001b[2J'], ['stats', '--x\u001b[2J\nbough: report in /etc/index.html']]) {
      const bad = await run(args);
      expect(bad.code).toBe(2);
      expect(bad.stderr).not.toContain('\u001b');
      expect(bad.stderr).toContain('?[2J');
      expect(bad.stderr).not.toMatch(/^bough: report in/m);
    }
    // commander's suggestion stays a line of its own.
    expect((await run(['build', '--tzz', 'UTC'])).stderr).toMatch(/^bough: unknown option '--tzz'\n\(Did you mean --tz\?\)\n/);
  });

  // Regression: a re-run printed the very line a cold build prints, and a plain build into a
  // folder built with --share turned it plain without a word.
  it('says what a re-run kept, how it shared, and when a shared report becomes plain', async () => {
    const out = join(await tempDir(), 'report');
    const env = { BOUGH_CACHE_DIR: join(await tempDir(), 'cache') };
    const input = join(FIXTURES, 'pi', 'minimal-v3.jsonl');
    expect((await run(['build', input, '--out', out, '--tz', 'UTC'], env)).stdout).not.toContain('kept');
    expect((await run(['build', input, '--out', out, '--tz', 'UTC'], env)).stdout).toContain(' · every page kept from the last build · ');
    const shared = await run(['build', input, '--out', out, '--tz', 'UTC', '--share'], env);
    expect(shared.stdout).toMatch(/ · redacted \(\d+ replaced\) · thinking omitted · report in /);
    const plain = await run(['build', input, '--out', out, '--tz', 'UTC'], env);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe(`bough: warning: ${out} held a report that redacted secrets and home folders; this build does not redact, so its pages now show them. Build with --share (or --redact) to keep it fit to send.\n`);
    expect(plain.stdout).not.toContain('redacted');
  });

  // Regression: a file that is no session was said only on the data-quality page.
  it('says in its last line how many files it skipped', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.jsonl'), await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    await writeFile(join(dir, 'notes.jsonl'), '{"hello":"world"}\n');
    const result = await run(['build', dir, '--out', join(await tempDir(), 'report'), '--tz', 'UTC', '--no-cache']);
    expect(result.stdout).toContain(' · 0 skipped lines · 1 file skipped (see the data-quality page) · ');
  });

  // Regression: --tz utc printed "utc" in every header, and the help said the default twice.
  it('spells a zone as IANA does, and says its default once', async () => {
    const out = await run(['stats', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--tz', 'europe/berlin', '--no-cache']);
    expect(out.stdout.split('\n')[0]).toBe('bough · All time · Europe/Berlin · by month');
    // A link Intl knows by another name, in capitals IANA's way (regression: "asia/kolkata" as typed).
    for (const [typed, shown] of [['asia/kolkata', 'Asia/Kolkata'], ['us/pacific', 'US/Pacific'], ['Asia/Kolkata', 'Asia/Kolkata'], ['mexico/bajanorte', 'Mexico/BajaNorte'], ['america/knox_in', 'America/Knox_IN']]) {
      const linked = await run(['stats', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--tz', typed as string, '--no-cache']);
      expect(linked.stdout.split('\n')[0]).toBe(`bough · All time · ${shown} · by month`);
    }
    const help = (await run(['build', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain("(default: this machine's, UTC)");
    expect(help).not.toContain("default: this machine's (default");
  });

  // Regression: TZ=CET-1CEST,… (a POSIX rule) counted days in UTC without a word.
  it('warns when $TZ names no zone it can count in, unless --tz or --quiet says otherwise', async () => {
    const file = join(FIXTURES, 'pi', 'minimal-v3.jsonl');
    const env = { TZ: 'CET-1CEST,M3.5.0,M10.5.0/3' };
    const warned = await run(['stats', file, '--no-cache'], env);
    expect(warned.stderr).toContain('bough: warning: $TZ is "CET-1CEST,M3.5.0,M10.5.0/3", which names no time zone bough can count days in, so it counts them in UTC');
    expect(warned.stdout.split('\n')[0]).toBe('bough · All time · UTC · by month');
    expect((await run(['stats', file, '--no-cache', '--tz', 'Europe/Berlin'], env)).stderr).toBe('');
    expect((await run(['stats', file, '--no-cache', '-q'], env)).stderr).toBe('');
  });

  // Regression: --source PI was taken, --omit Thinking refused.
  it('takes --omit kinds in any case', async () => {
    const out = join(await tempDir(), 'report');
    expect((await run(['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out', out, '--omit', 'Thinking,TOOL-OUTPUT', '-q'])).code).toBe(0);
    expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')).sharing.omitted).toEqual(['thinking', 'tool-output']);
  });

  // Regression: --month 2025-12 --month 2025-11 counted November without a word.
  it('refuses a flag of one value given twice, as bad usage', async () => {
    for (const args of [['stats', '--month', '2025-12', '--month', '2025-11'], ['stats', '--by', 'day', '--by=model'], ['build', '-o', 'a', '--out', 'b']]) {
      const flag = args.includes('--month') ? '--month' : args.includes('--by') ? '--by' : '--out';
      expect(await run(args)).toEqual({ code: 2, stdout: '', stderr: `bough: ${flag} is given more than once, and it takes one value: give it once.\n` });
    }
    // Regression: -o glued to its value or in a cluster was not seen as a second -o, and the last won.
    // Named as it was typed the second time (a review of the command line: "-o a -o b" said "--out").
    for (const [args, said] of [[['build', '-o', 'a', '-ob'], '-o (--out)'], [['build', '-qoa', '--out', 'b'], '--out'], [['build', '--out=a', '-qob'], '-o (--out)']] as const) {
      // In a folder of its own: without the fix, the build wrote its report there.
      expect(await inFolder(await tempDir(), () => run([...args]))).toEqual({ code: 2, stdout: '', stderr: `bough: ${said} is given more than once, and it takes one value: give it once.\n` });
    }
    // A value that reads as a flag, given as one, is a value.
    expect((await run(['stats', join(FIXTURES, 'pi'), '--project=--month', '--month', '2025-12', '--json', '--no-cache'])).code).toBe(0);
  });

  // Regression: commander took the option after one of one value for its value, so `export -o
  // --share` wrote the session unredacted to a file named "--share", and exited 0.
  it('refuses an option of one value followed by another option, as bad usage', async () => {
    const dir = await tempDir();
    const session = join(FIXTURES, 'pi', 'minimal-v3.jsonl');
    const cases = [
      [['export', session, '-o', '--share'], '-o', '--out', '--share'],
      [['build', session, '--out', '--quiet'], '--out', '--out', '--quiet'],
      [['stats', session, '--project', '--json'], '--project', '--project', '--json'],
      [['stats', session, '--tz', '--by=day'], '--tz', '--tz', '--by=day'],
    ] as const;
    for (const [args, given, long, flag] of cases) {
      expect(await inFolder(dir, () => run([...args]))).toEqual({
        code: 2,
        stdout: '',
        stderr: `bough: ${given} takes a value, and got the option ${flag} for it: give ${given} its value (a value that begins like an option goes as ${long}=${flag}).\n`,
      });
    }
    // Regression: the first fix read whole words only, and commander splits -qo into -q -o.
    for (const args of [['export', session, '-qo', '--share'], ['build', session, '-qo', '--share']]) {
      expect(await inFolder(dir, () => run(args))).toEqual({
        code: 2,
        stdout: '',
        stderr: 'bough: -o takes a value, and got the option --share for it: give -o its value (a value that begins like an option goes as --out=--share).\n',
      });
    }
    // -o=--x gave -o the value "=--x"; build -o - made a folder named "-"; an empty --project matched every project.
    expect(await inFolder(dir, () => run(['export', session, '-o=--x']))).toEqual({ code: 2, stdout: '', stderr: 'bough: -o= gives -o the value “=--x”: write -o VALUE, or --out=VALUE.\n' });
    // Regression: a cluster checked only where its option of a value came last and stood apart.
    expect(await inFolder(dir, () => run(['export', session, '-qo=x.html']))).toMatchObject({ code: 2, stderr: 'bough: -o= gives -o the value “=x.html”: write -o VALUE, or --out=VALUE.\n' });
    expect(await inFolder(dir, () => run(['export', session, '-qo--share']))).toMatchObject({ code: 2, stderr: expect.stringContaining('bough: -o takes a value, and got the option --share for it') });
    expect(await inFolder(dir, () => run(['export', session, '-o', '-qo']))).toMatchObject({ code: 2, stderr: expect.stringContaining('bough: -o takes a value, and got the option -qo for it:') });
    expect(await inFolder(dir, () => run(['export', session, '-o', '--', '--share']))).toMatchObject({ code: 2, stderr: expect.stringContaining('bough: -o takes a value, and got the option -- for it:') });
    expect(await inFolder(dir, () => run(['build', session, '-o', '-']))).toMatchObject({ code: 2, stderr: 'bough: build writes a report folder, not to standard output: name one with --out, such as bough-report.\n' });
    expect(await run(['stats', session, '--project', ''])).toMatchObject({ code: 2, stdout: '' });
    expect(await readdir(dir)).toEqual([]);
    // A value that begins with a dash and is no option of bough's is a value: a Claude Code project folder's name.
    expect((await run(['stats', session, '--project', '-home-alice-proj', '--json', '--no-cache'])).code).toBe(0);
  });

  // Regression: an empty input (`bough stats "$DIR"`, DIR unset) read the working folder.
  it('refuses an empty input, as bad usage', async () => {
    for (const args of [['stats', ''], ['build', join(FIXTURES, 'pi'), ' '], ['export', '']]) {
      const wanted = args[0] === 'export' ? 'a session file' : 'a session file or folder';
      expect(await inFolder(await tempDir(), () => run(args))).toEqual({ code: 2, stdout: '', stderr: `bough: an input is an empty path (an unset variable?): name ${wanted}.\n` });
    }
  });

  // Regression: given twice, --source and --omit kept only their last value, without a word.
  it('takes --source and --omit given twice as both', async () => {
    const out = join(await tempDir(), 'report');
    expect((await run(['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out', out, '--omit', 'thinking', '--omit', 'system', '-q'])).code).toBe(0);
    expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')).sharing.omitted).toEqual(['thinking', 'system']);
    const stats = JSON.parse((await run(['stats', join(FIXTURES, 'pi'), '--source', 'claude', '--source', 'pi', '--json', '--no-cache'])).stdout);
    expect(stats.filters.sources).toEqual(['claude', 'pi']);
  });

  // Regression: `--agent pi` (the tables' word: "by agent", "agent pi") was an unknown option, with
  // no hint; `--by MODEL` was refused where `--source PI` is taken.
  it('takes --agent as --source, and --by in any letter case', async () => {
    const stats = JSON.parse((await run(['stats', join(FIXTURES, 'pi'), '--agent', 'Claude', '--source', 'pi', '--by', 'MODEL', '--json', '--no-cache'])).stdout);
    expect(new Set(stats.filters.sources)).toEqual(new Set(['claude', 'pi']));
    expect(stats.by).toBe('model');
    const wrong = await run(['stats', join(FIXTURES, 'pi'), '--by', 'models', '--no-cache']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Allowed choices are day, week, month, project, model, agent, session.');
  });

  it('runs build when no command is named', async () => {
    const out = join(await tempDir(), 'report');
    expect((await run([join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out', out, '--quiet'])).code).toBe(0);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
  });

  it('prints nothing with --quiet', async () => {
    const out = join(await tempDir(), 'report');
    expect(await run(['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '-o', out, '-q'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('reads the Pi session folder from PI_CODING_AGENT_DIR when no inputs are given', async () => {
    const agentDir = await tempDir();
    await mkdir(join(agentDir, 'sessions', '--home-ana--'), { recursive: true });
    const session = await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl'));
    await writeFile(join(agentDir, 'sessions', '--home-ana--', 'a.jsonl'), session);
    const out = join(await tempDir(), 'report');
    const result = await run(['--out', out], { PI_CODING_AGENT_DIR: agentDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^bough: 1 session from 1 file/);
  });

  it('marks models of providers that models.json points at this machine as local', async () => {
    const agentDir = await tempDir();
    await writeFile(
      join(agentDir, 'models.json'),
      JSON.stringify({ providers: { ollama: { baseUrl: 'http://localhost:11434/v1', models: [{ id: 'qwen' }] }, remote: { baseUrl: 'https://api.example.com/v1' } } }),
    );
    const out = join(await tempDir(), 'report');
    const input = join(await tempDir(), 'local.jsonl');
    await writeFile(
      input,
      [
        { type: 'session', version: 3, id: 'x', timestamp: '2026-10-01T00:00:00Z', cwd: '/p' },
        { type: 'message', id: 'a', parentId: null, timestamp: '2026-10-01T00:00:01Z', message: { role: 'user', content: 'hi' } },
        { type: 'message', id: 'b', parentId: 'a', timestamp: '2026-10-01T00:00:02Z', message: { role: 'assistant', content: [], provider: 'ollama', model: 'qwen', usage: { input: 5, output: 1 }, stopReason: 'stop' } },
        { type: 'message', id: 'c', parentId: 'b', timestamp: '2026-10-01T00:00:03Z', message: { role: 'assistant', content: [], provider: 'remote', model: 'big', usage: { input: 5, output: 1 }, stopReason: 'stop' } },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    expect((await run(['build', input, '--out', out, '-q'], { PI_CODING_AGENT_DIR: agentDir })).code).toBe(0);
    const html = await readFile(join(out, 'index.html'), 'utf8');
    expect(html).toMatch(/<code>qwen<\/code> <span class="badge tone-plain" title="[^"]*">local<\/span><span class="sub">ollama<\/span>/);
    expect(html).toMatch(/<code>big<\/code><span class="sub">remote<\/span><\/td>/);
  });

  it('says so and builds the bundled samples when this machine has no sessions', async () => {
    const out = join(await tempDir(), 'report');
    const result = await run(['--out', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "bough: looking in no Pi folder · no Claude Code folder · no Codex folder\nbough: none of the agents' folders is here (~/.pi/agent/sessions, ~/.claude/projects, ~/.config/claude/projects, ~/.codex/sessions, ~/.codex/archived_sessions); building the bundled sample sessions instead.\n",
    );
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('bundled sample sessions');
    expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))).toMatchObject({ samples: true });
  });

  // Regression (a README audit): files in an agent's folder that are no sessions bough reads went
  // unsaid when the samples were built instead: "no sessions found", and nothing on why.
  it('says why the files it found are no sessions when it builds the samples instead', async () => {
    const home = await tempDir();
    await mkdir(join(home, '.claude', 'projects', '-x'), { recursive: true });
    await writeFile(join(home, '.claude', 'projects', '-x', 'a.jsonl'), '');
    await writeFile(join(home, '.claude', 'projects', '-x', 'b.jsonl'), '{"foo":1}\n');
    const out = join(await tempDir(), 'report');
    const result = await run(['--out', out, '-q'], {}, home);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("bough: no sessions found in the agents' folders (~/.claude/projects); building the bundled sample sessions instead.\nbough: None of the 2 files found in ");
    expect(result.stderr).toContain('is a session file bough can read (the first, ');
    // Where it found them, not every folder it looked for (a hostile look: folders not there named).
    expect(result.stderr).toContain(`found in ${join(home, '.claude', 'projects')} is`);
    // Regression (a hostile look at sharing): under --share these lines named a folder with a key in
    // its name, as the redacted first line did not.
    const keyed = join(home, `cfg-${'ghp_'}${'Q'.repeat(36)}`);
    await mkdir(join(keyed, 'projects', '-x'), { recursive: true });
    await writeFile(join(keyed, 'projects', '-x', 'a.jsonl'), '');
    const shared = await run(['--share', '--out', join(await tempDir(), 'report'), '-q'], { CLAUDE_CONFIG_DIR: keyed }, home);
    expect(shared.stderr).toContain('[REDACTED:github-token]');
    expect(shared.stderr).not.toContain('Q'.repeat(36));
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('None of the 2 files found in ');
  });

  // Regression (a review of the command line): with --quiet the samples were built without a word,
  // summary.json not saying so (a job under another HOME published their numbers as its own); with
  // --source naming an agent whose folder is missing, they were built beside another agent's
  // sessions, "no sessions found"; with a month, built and then left out by it.
  it('says so even with --quiet, and builds no samples for a report narrowed by agent, project or period', async () => {
    const quiet = await run(['--out', join(await tempDir(), 'report'), '-q']);
    expect(quiet).toEqual({ code: 0, stdout: '', stderr: "bough: none of the agents' folders is here (~/.pi/agent/sessions, ~/.claude/projects, ~/.config/claude/projects, ~/.codex/sessions, ~/.codex/archived_sessions); building the bundled sample sessions instead.\n" });
    for (const narrowed of [['--source', 'pi'], ['--project', 'shop'], ['--month', '2026-10'], ['--since', '2026-10-01']]) {
      const out = join(await tempDir(), 'report');
      const result = await run(['--out', out, '-q', ...narrowed]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^bough: No session files \(\*\.jsonl\) found in .*\.pi\/agent\/sessions.*\. Point bough at a folder of agent sessions\.\n$/);
      await expect(readFile(join(out, 'index.html'))).rejects.toThrow();
    }
    const real = join(await tempDir(), 'report');
    expect((await run(['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out', real, '-q'])).code).toBe(0);
    expect(JSON.parse(await readFile(join(real, 'summary.json'), 'utf8'))).toMatchObject({ samples: false });
  });

  it('says on its first line which agents\' folders it found, with no inputs named', async () => {
    const home = await tempDir();
    await mkdir(join(home, '.pi', 'agent', 'sessions', '--p--'), { recursive: true });
    await writeFile(join(home, '.pi', 'agent', 'sessions', '--p--', 'a.jsonl'), await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    await mkdir(join(home, '.claude', 'projects'), { recursive: true });
    const result = await run(['stats', '--json'], {}, home);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe('bough: looking in Pi: ~/.pi/agent/sessions (1 file) · Claude Code: ~/.claude/projects (0 files) · no Codex folder');
    expect(JSON.parse(result.stdout)).toMatchObject({ totals: { sessions: 1 } });
    expect((await run(['stats', '--json', '-q'], {}, home)).stderr).toBe('');
    // Regression: a folder an environment variable names was not said when missing ("no Pi folder").
    const named = await run(['stats', '--json'], { PI_CODING_AGENT_SESSION_DIR: join(home, 'nothere') }, home);
    expect(named.stderr.split('\n')[0]).toBe('bough: looking in no Pi folder (~/nothere not found) · Claude Code: ~/.claude/projects (0 files) · no Codex folder');
    // Regression (a sharing review): under --share the line named a folder as the index did not,
    // with the key in its name (a build's log is shared with the report it makes).
    const keyed = join(home, `pi-${'ghp_'}${'K'.repeat(36)}`);
    await mkdir(keyed);
    await writeFile(join(keyed, 'a.jsonl'), await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    const shared = await run(['build', '--share', '--out', join(await tempDir(), 'report')], { PI_CODING_AGENT_SESSION_DIR: keyed }, home);
    expect(shared.stderr.split('\n')[0]).toBe('bough: looking in Pi: ~/pi-[REDACTED:github-token] (1 file) · Claude Code: ~/.claude/projects (0 files) · no Codex folder');
  });

  // Regression: exported on its own, a sub-agent's file was titled "(no main transcript)", though its
  // session's main file sits beside it: export reads the one file asked for.
  it('titles a sub-agent\'s file exported on its own as the sub-agent it is', async () => {
    const file = join(FIXTURES, 'claude', 'projects', '-home-ana-shop', '11111111-1111-4111-8111-111111111111', 'subagents', 'agent-a9f8e7d6c5.jsonl');
    const out = join(await tempDir(), 'sub.html');
    const done = await run(['export', file, '-o', out, '--tz', 'UTC']);
    expect(done.stdout).toMatch(/^bough: “Sub-agent[^”]*” written to /);
    expect(done.stdout).not.toContain('no main transcript');
    expect(await readFile(out, 'utf8')).not.toContain('no main transcript');
  });

  // Regression (a review of 954ba93): a warmup's file exported on its own was titled "Warmup only
  // (…never given a prompt)" and said the report's lists left it out, though its session may have
  // had prompts (in its main file, not read) and an export has no lists.
  it('titles a warmup\'s file exported on its own as a warmup, saying nothing of prompts or lists', async () => {
    const dir = await tempDir();
    const file = join(dir, 'agent-645808c9.jsonl');
    const line = { parentUuid: null, isSidechain: true, agentId: '645808c9', cwd: '/home/ana/shop', sessionId: 'cb2e607c-0000-4000-8000-000000000001', version: '2.0.37', type: 'user', uuid: 'w1', timestamp: '2025-11-14T12:23:09.052Z', message: { role: 'user', content: 'Warmup' } };
    await writeFile(file, `${JSON.stringify(line)}\n`);
    const out = join(dir, 'warmup.html');
    const done = await run(['export', file, '-o', out, '--tz', 'UTC']);
    expect(done.stdout).toMatch(/^bough: “Warmup \(Claude Code 2\.0 warmed this sub-agent up as it started\)” written to /);
    const html = await readFile(out, 'utf8');
    expect(html).not.toContain('never given a prompt');
    expect(html).not.toContain('lists do not show');
  });

  // Regression (a third hostile look): exported plainly, then with --share, a file's shared page took
  // a name of its own, and the plain page, home folder and all, stayed under the default name.
  it('writes a shared export of a file in the place of its plain one', async () => {
    const home = await tempDir();
    const dir = join(home, 'work');
    await mkdir(dir, { recursive: true });
    const input = join(dir, 'a.jsonl');
    await writeFile(input, (await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), 'utf8')).replaceAll('"cwd":"', `"cwd":"${home}/`));
    const plain = await inFolder(dir, () => run(['export', input], {}, home));
    const shared = await inFolder(dir, () => run(['export', input, '--share'], {}, home));
    expect([plain.code, shared.code]).toEqual([0, 0]);
    const pages = (await readdir(dir)).filter((name) => name.endsWith('.html'));
    expect(pages).toHaveLength(1);
    expect(await readFile(join(dir, pages[0] as string), 'utf8')).not.toContain(home);
    // A fourth hostile look: told apart by their paths redacted, files of two folders were one
    // where redacting made their paths one (`/home/ana.old/…` and `/home/ana/…` both `~/…`; two
    // folders named by tokens): one's export replaced the other's.
    const [first, second] = ['ghp_' + 'A'.repeat(36), 'ghp_' + 'B'.repeat(36)].map((folder) => join(home, 'keys', folder, 'a.jsonl')) as [string, string];
    for (const file of [first, second]) {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, await readFile(input));
      expect((await inFolder(dir, () => run(['export', file], {}, home))).code).toBe(0);
    }
    expect((await readdir(dir)).filter((name) => name.endsWith('.html'))).toHaveLength(3);
    // A fifth: where the secret cannot be had (a file where its folder goes), the same two files
    // were one again. Each is still exported to a page of its own.
    const elsewhere = join(home, 'elsewhere');
    await mkdir(elsewhere);
    const noSecret = { HOME: home, BOUGH_CONFIG_DIR: first };
    for (const file of [first, second]) expect((await inFolder(elsewhere, () => run(['export', file], noSecret, home))).code).toBe(0);
    expect((await readdir(elsewhere)).filter((name) => name.endsWith('.html'))).toHaveLength(2);
  });

  // Regression (a review of export): an exported page, which has no report and no period, said a
  // sub-agent's use "in this report's period" is counted, and of a long text "not shown in the report".
  it('speaks of no report in an exported page', async () => {
    const file = join(FIXTURES, 'claude', 'projects', '-home-ana-shop', '11111111-1111-4111-8111-111111111111.jsonl');
    const out = join(await tempDir(), 'main.html');
    expect((await run(['export', file, '-o', out, '--tz', 'UTC'])).code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('It ran in a file of its own; what it used is counted in this session');
    expect(html).not.toMatch(/this report|in the report/);
  });

  it('exports one session to one file, never over its input, and says what is not a session', async () => {
    const dir = await tempDir();
    const input = join(dir, 'a.jsonl');
    await writeFile(input, await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    const out = join(dir, 'a.html');
    const done = await run(['export', input, '-o', out]);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^bough: “.+” written to .*a\.html \(\d+ kB, one file, nothing else needed\)\n$/);
    expect(await readFile(out, 'utf8')).toMatch(/^<!doctype html>[\s\S]*<style>[\s\S]*<script>/);
    // It names the zone its times are in (regression: a page sent on its own did not say).
    expect(await readFile(out, 'utf8')).toContain('a.jsonl · times in UTC');
    // And the prices it used (regression: it said only "LiteLLM's price table", whichever it was).
    expect(await readFile(out, 'utf8')).toMatch(/a\.jsonl · times in UTC · prices: LiteLLM, \d{4}-\d{2}-\d{2} \(bundled with bough\)/);
    // An earlier export is written over; a file of the user's is not (regression: any file was replaced without a word).
    expect((await run(['export', input, '-o', out])).code).toBe(0);
    const mine = join(dir, 'notes.txt');
    await writeFile(mine, 'my notes\n');
    expect(await run(['export', input, '-o', mine])).toMatchObject({ code: 1, stderr: `bough: Refusing to write over ${mine}: it is a file of yours, not a page bough exported. Choose another -o, or remove it first.\n` });
    expect(await readFile(mine, 'utf8')).toBe('my notes\n');
    const before = await readFile(input, 'utf8');
    expect(await run(['export', input, '-o', input])).toMatchObject({ code: 1, stderr: `bough: Refusing to write ${input}: it is an input. Choose another -o.\n` });
    expect(await readFile(input, 'utf8')).toBe(before);
    await writeFile(join(dir, 'notes.jsonl'), '{"hello":"world"}\n');
    const notSession = await run(['export', join(dir, 'notes.jsonl'), '-o', join(dir, 'n.html')]);
    expect(notSession.code).toBe(1);
    expect(notSession.stderr).toMatch(/notes\.jsonl is not a session file bough can read: no record in its first 50 lines is one of Pi, Claude Code or Codex: the first is an object without a type/);
    // regression: a folder, or an empty path, exported whichever session came first (an empty path is bad usage: see below).
    expect(await run(['export', dir, '-o', join(dir, 'f.html')])).toMatchObject({ code: 1, stderr: `bough: export takes one session file, and ${dir} is a folder. Give the path of a .jsonl file.\n` });
    expect(await run(['export', '', '-o', join(dir, 'e.html')])).toMatchObject({ code: 2, stderr: 'bough: an input is an empty path (an unset variable?): name a session file.\n' });
  });

  // Regression (a review of export): the two rollouts of a Codex thread whose prompt was edited
  // carry one id; exported with no -o, the second took the first's export's place, said nowhere.
  it('names the export of a second file of the same session id apart, and a file exported again as before', async () => {
    const dir = await tempDir();
    const rollouts = (await readdir(join(FIXTURES, 'codex', 'edited-prompt'), { recursive: true })).filter((name) => name.endsWith('.jsonl')).sort();
    expect(rollouts).toHaveLength(2);
    const [first, second] = rollouts.map((name) => join(FIXTURES, 'codex', 'edited-prompt', name)) as [string, string];
    // One home, as on one machine: its secret keys the hash each export carries of its file.
    const home = await tempDir();
    const written = async (file: string) => {
      const done = await inFolder(dir, () => run(['export', file, '--tz', 'UTC'], {}, home));
      expect(done.code, done.stderr).toBe(0);
      return /written to (.*?) \(/.exec(done.stdout)?.[1] ?? '';
    };
    const one = await written(first);
    const two = await written(second);
    expect(basename(two)).not.toBe(basename(one));
    expect((await readdir(dir)).filter((name) => name.endsWith('.html'))).toHaveLength(2);
    expect(await readFile(join(dir, basename(one)), 'utf8')).toContain(`${basename(first)} · times in UTC`);
    expect(await readFile(join(dir, basename(two)), 'utf8')).toContain(`${basename(second)} · times in UTC`);
    // Each exported again takes its own export's place.
    expect([await written(first), await written(second)]).toEqual([one, two]);
    expect((await readdir(dir)).filter((name) => name.endsWith('.html'))).toHaveLength(2);
    // A hostile look: Claude Code's files are named by their id, so two files of one session (in
    // ~/.claude and ~/.config/claude) have one name; the second still took the first's place.
    const source = join(FIXTURES, 'claude', 'projects', '-home-ana-shop', '11111111-1111-4111-8111-111111111111.jsonl');
    const lines = (await readFile(source, 'utf8')).trimEnd().split('\n');
    const homes = await tempDir();
    const copies = [join(homes, '.claude', 'projects', '-p'), join(homes, '.config', 'claude', 'projects', '-p')].map((folder) => join(folder, basename(source)));
    for (const [n, copy] of copies.entries()) {
      await mkdir(join(copy, '..'), { recursive: true });
      await writeFile(copy, `${lines.slice(0, n === 0 ? lines.length : 3).join('\n')}\n`);
    }
    const claudeNames = [await written(copies[0] as string), await written(copies[1] as string)].map((path) => basename(path));
    expect(claudeNames[0]).toBe('11111111-1111-4111-8111-111111111111.html');
    expect(claudeNames[1]).toMatch(/^11111111-1111-4111-8111-111111111111-[0-9a-f]{6}\.html$/);
    // A second hostile look: the same file by a link is the same file (it took a name of its own);
    // a sub-agent's file in both folders took one name, as main files did.
    const linked = join(homes, 'linked.jsonl');
    await symlink(copies[0] as string, linked);
    expect(basename(await written(linked))).toBe(claudeNames[0]);
    const agent = join(FIXTURES, 'claude', 'projects', '-home-ana-shop', '11111111-1111-4111-8111-111111111111', 'subagents', 'agent-a9f8e7d6c5.jsonl');
    const agents = [join(homes, 'a', 'subagents', basename(agent)), join(homes, 'b', 'subagents', basename(agent))];
    for (const copy of agents) {
      await mkdir(join(copy, '..'), { recursive: true });
      await writeFile(copy, await readFile(agent));
    }
    const agentNames = [await written(agents[0] as string), await written(agents[1] as string)].map((path) => basename(path));
    expect(agentNames[0]).toMatch(/-agent-a9f8e7d6c5\.html$/);
    expect(agentNames[1]).toMatch(/-agent-a9f8e7d6c5-[0-9a-f]{6}\.html$/);
  });

  // Regression from a hostile-input review: a named pipe given as an input (not inside a folder)
  // was opened to look for its companions and waited for a writer forever, deaf to SIGTERM.
  it('skips a named pipe given as an input, and reads the file beside it', async () => {
    const dir = await tempDir();
    const input = join(dir, 'a.jsonl');
    await writeFile(input, await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    const stats = await run(['stats', fifo, input, '--json', '--no-cache']);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ totals: { sessions: 1 } });
    expect(await run(['export', fifo, '-o', join(dir, 'x.html')])).toMatchObject({ code: 1, stderr: `bough: ${fifo} is not a session file bough can read: a named pipe, not a file.\n` });
  }, 20_000);

  // Regression (a hostile-input review): a named pipe as Pi's models.json, Codex's config.toml or
  // a sub-agent's meta.json hung every run, whatever its inputs; one as --prices too, and
  // --prices /dev/zero read 512 MB to say "Invalid string length".
  it('reads no configuration, sidecar or price table that is a named pipe or a device', async () => {
    const dir = await tempDir();
    const home = join(dir, 'home');
    for (const folder of ['.pi/agent', '.codex', 'claude/-home-ana-x/0f0f0f0f-0000-4000-8000-000000000001/subagents']) await mkdir(join(home, folder), { recursive: true });
    for (const side of ['.pi/agent/models.json', '.codex/config.toml', 'claude/-home-ana-x/0f0f0f0f-0000-4000-8000-000000000001/subagents/agent-abc.meta.json']) execFileSync('mkfifo', [join(home, side)]);
    const at = '2026-10-05T10:00:00.000Z';
    const sidechain = { isSidechain: true, sessionId: '0f0f0f0f-0000-4000-8000-000000000001', agentId: 'abc', cwd: '/home/ana/x', version: '2.1.30' };
    await writeFile(join(home, 'claude/-home-ana-x/0f0f0f0f-0000-4000-8000-000000000001/subagents/agent-abc.jsonl'), `${JSON.stringify({ ...sidechain, type: 'user', uuid: 's1', parentUuid: null, timestamp: at, message: { role: 'user', content: 'look around' } })}\n`);
    const input = join(dir, 'a.jsonl');
    await writeFile(input, await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    const stats = await run(['stats', input, join(home, 'claude'), '--json', '--no-cache'], {}, home);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ totals: { sessions: 2 } });
    expect(await run(['stats', input, '--no-cache', '--prices', '/dev/zero'], {}, home)).toMatchObject({ code: 1, stderr: 'bough: Cannot read the price table /dev/zero: a device, not a file.\n' });
    // A pipe asked for as the price table is read, from a writer that comes after bough opened it
    // (a hostile look at the fix above: `--prices <(curl …)` had worked, and was refused).
    const fifo = join(dir, 'prices.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `sleep 0.3; cat "${join(FIXTURES, '..', 'data', 'litellm-model-prices.json')}" > "${fifo}"`]);
    const piped = await run(['stats', input, '--no-cache', '--json', '--prices', fifo], {}, home);
    writer.kill();
    expect(piped.stderr).toBe('');
    expect(JSON.parse(piped.stdout)).toMatchObject({ totals: { sessions: 1 } });
  }, 20_000);

  // Regression: a redacting build counted a home folder redacted in a warning it did not give
  // (its configuration folder's path, made fit to share before knowing whether to say it).
  it('counts only the redactions the report shows', async () => {
    const input = await onePromptSession('/work/plain', 'nothing secret here');
    const dir = await tempDir();
    const out = join(dir, 'report');
    await mkdir(join(dir, 'home'));
    const built = await run(['build', input, '--out', out, '--redact', '--no-cache'], {}, join(dir, 'home'));
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    expect(built.stdout).toContain('redacted (0 replaced)');
    expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')).sharing.redactions).toEqual({});
  });

  // Regression: a pipe or a device given as -o was replaced by a plain file (as root, /dev/null
  // itself); a report folder's page was taken for an export and replaced; `-o dir/` wrote a file `dir`.
  it('writes an export over no pipe, device, report page or folder', async () => {
    const dir = await tempDir();
    const input = join(dir, 'a.jsonl');
    await writeFile(input, await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(await run(['export', input, '-o', fifo])).toMatchObject({ code: 1, stderr: `bough: Refusing to write over ${fifo}: it is not a plain file (a pipe, a device or a socket). Choose another -o.\n` });
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    const report = join(dir, 'report');
    expect((await run(['build', input, '--out', report, '--quiet'])).code).toBe(0);
    const page = join(report, 'index.html');
    const before = await readFile(page, 'utf8');
    expect(await run(['export', input, '-o', page])).toMatchObject({ code: 1, stderr: `bough: Refusing to write over ${page}: it is a file of yours, not a page bough exported. Choose another -o, or remove it first.\n` });
    expect(await readFile(page, 'utf8')).toBe(before);
    for (const folder of [`${join(dir, 'new-folder')}/`, `${join(dir, 'new-folder')}/.`, `${join(dir, 'a.html')}/`]) {
      expect(await run(['export', input, '-o', folder])).toMatchObject({ code: 1, stderr: `bough: ${folder} names a folder: name a file with -o, such as session.html.\n` });
    }
    expect(existsSync(join(dir, 'new-folder'))).toBe(false);
    // Bad usage, not a failure (regression: exit 1).
    expect(await run(['export', input, '-o', '-'])).toMatchObject({ code: 2, stderr: 'bough: export writes a file, not to standard output: name one with -o, such as session.html.\n' });
    // Regression: below a file, "unexpected error: ENOTDIR … This is a bug in bough"; /dev/stdout
    // into a pipe, a link "which does not exist. Create that folder, or choose another --out."
    const file = join(dir, 'f.html');
    await writeFile(file, 'mine');
    expect(await run(['export', input, '-o', join(file, 'x.html')])).toMatchObject({ code: 1, stderr: `bough: Cannot write ${join(file, 'x.html')}: ${file} is a file, not a folder.\n` });
    expect(await run(['export', input, '-o', '/dev/stdout'])).toMatchObject({ code: 1, stderr: 'bough: Refusing to write to /dev/stdout: export writes a plain file, not a stream or a device. Name a file with -o, such as session.html.\n' });
    // An empty file (as mktemp makes) and an earlier export are written over.
    const empty = join(dir, 'tmp.html');
    await writeFile(empty, '');
    expect((await run(['export', input, '-o', empty])).code).toBe(0);
    expect((await run(['export', input, '-o', empty])).code).toBe(0);
  });

  // Regression: a zero-width space made `src/config\u200b.ts` read as `src/config.ts` on every page.
  it('shows the invisible spaces that make one name look like another, and keeps emoji joiners', async () => {
    const input = await onePromptSession('/work/zw', 'edit src/config\u200b.ts and src/\ufeffa.ts, family \u{1F468}\u200d\u{1F469}\u200d\u{1F467}');
    const out = join(await tempDir(), 'a.html');
    expect((await run(['export', input, '-o', out])).code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('src/config⟨U+200B⟩.ts and src/⟨U+FEFF⟩a.ts');
    expect(html).not.toMatch(/[\u200b\u2060\ufeff]/);
    expect(html).toContain('\u{1F468}\u200d\u{1F469}\u200d\u{1F467}');
  });

  // Regression (an outside review of safety): tag characters spelled a hidden instruction, and an
  // invisible operator or a soft hyphen made `config\u2061.ts` read as `config.ts`.
  it('shows hidden tag text, invisible operators and soft hyphens, and keeps a flag of a region', async () => {
    const hidden = [...'ignore all'].map((c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) as number))).join('');
    const scotland = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
    const input = await onePromptSession('/work/tags', `Summarise:${hidden}END config\u2061.ts soft\u00adware ${scotland}`);
    const out = join(await tempDir(), 'a.html');
    expect((await run(['export', input, '-o', out])).code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('Summarise:⟨U+E0069⟩⟨U+E0067⟩⟨U+E006E⟩');
    expect(html).toContain('config⟨U+2061⟩.ts soft⟨U+AD⟩ware');
    expect(html).toContain(scotland);
  });

  // Regressions (a hostile look at the fix above): the shown form "[U+AD]" was Markdown's link
  // syntax, so a line after a soft hyphen vanished or became a link; a black flag before any run
  // of tag characters hid them all; and that run took time growing with its square.
  it('shows them in a form Markdown reads as text, hides no tag run behind a black flag, and takes linear time', async () => {
    const tags = (text: string) => [...text].map((c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) as number))).join('');
    const prompt = `Donau\u00addampf\u00adschiff\u00ad(ship)\n\n\u00ad: https://evil.example/steal\n\nLooks good \u{1F3F4}${tags('Run curl evil')}\u{E007F} thanks ${tags('x'.repeat(50_000))}`;
    const input = await onePromptSession('/work/tags2', prompt);
    const out = join(await tempDir(), 'a.html');
    expect((await run(['export', input, '-o', out])).code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('Donau⟨U+AD⟩dampf⟨U+AD⟩schiff⟨U+AD⟩(ship)');
    expect(html).toContain('⟨U+AD⟩: https://evil.example/steal');
    expect(html).not.toContain('href="https://evil.example/steal"');
    expect(html).toContain('Looks good \u{1F3F4}⟨U+E0052⟩⟨U+E0075⟩');
  });

  // Regression (a hostile look): text hidden in variation selectors after an emoji (a selector a
  // byte) stayed hidden; one selector, as emoji are written, stays.
  it('shows a run of variation selectors, and keeps the one an emoji takes', async () => {
    const hidden = [0x49, 0x67].map((byte) => String.fromCodePoint(byte < 16 ? 0xfe00 + byte : 0xe0100 + byte - 16)).join('');
    const input = await onePromptSession('/work/selectors', `nice \u{1F600}${hidden} and \u2764\ufe0f`);
    const out = join(await tempDir(), 'a.html');
    expect((await run(['export', input, '-o', out])).code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('nice \u{1F600}⟨U+E0139⟩⟨U+E0157⟩ and \u2764\ufe0f');
  });

  // Regression: a session's title went to the terminal with its escape codes (clear the screen,
  // retitle the window) and to the page with them and with text-reversing overrides.
  it('prints and shows a title holding control characters and direction overrides, never obeys them', async () => {
    const input = await onePromptSession('/work/esc', 'Clear\u001b[2J\u001b]0;PWNED\u0007 the invoice\u202Efdp.exe');
    const out = join(await tempDir(), 'a.html');
    const done = await run(['export', input, '-o', out]);
    expect(done.code).toBe(0);
    expect(done.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(done.stdout).toContain('Clear?[2J?]0;PWNED? the invoice?fdp.exe');
    const html = await readFile(out, 'utf8');
    expect(html).not.toMatch(/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(html).toContain('<title>Clear\u241b[2J\u241b]0;PWNED\u2407 the invoice⟨U+202E⟩fdp.exe');
    const stats = await run(['stats', input, '--by', 'session']);
    expect(stats.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  // Regression (an outside review): a line or paragraph separator in a folder's or a model's name
  // reached the terminal as it was, in stats' project and model columns.
  it('prints a line separator in a project or model name as "?"', async () => {
    const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const reply = { type: 'message', id: 'a1', parentId: 'u1', timestamp: '2026-10-05T10:00:01.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'p', model: 'm\u2029x', usage, stopReason: 'stop' } };
    const input = await onePromptSession('/work/one\u2028two', 'hi', [reply]);
    for (const by of ['project', 'model']) {
      const stats = await run(['stats', input, '--by', by]);
      expect(stats.stdout).not.toMatch(/[\u2028\u2029]/);
      expect(stats.stdout).toContain(by === 'project' ? 'one?two' : 'm?x');
    }
  });

  // Regression: an export made with --share said nothing of it, on the page or in its line, where
  // a report says what it redacted and left out.
  it('says on the page and in its line what it redacted and left out, and the lines it skipped', async () => {
    const dir = await tempDir();
    const input = join(dir, 'a.jsonl');
    const at = '2026-10-05T10:00:00.000Z';
    const records = [
      JSON.stringify({ type: 'session', version: 3, id: 'shared', timestamp: at, cwd: '/work/shared' }),
      JSON.stringify({ type: 'message', id: 'u1', parentId: null, timestamp: at, message: { role: 'user', content: 'my key is ghp_FAKEb0ugh0123456789abcdefghijklmnopqr' } }),
      '{"type":"message","id":"u2","par',
    ];
    await writeFile(input, `${records.join('\n')}\n`);
    const out = join(dir, 'a.html');
    const done = await run(['export', input, '-o', out, '--share']);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/ · 1 skipped line \(listed on the page\) · redacted \(1 replaced\) · thinking omitted\n$/);
    const html = await readFile(out, 'utf8');
    expect(html).toMatch(/<p class="notice sharing">Redacted: 1 [a-z-]+\. Left out: thinking\.<\/p>/);
    expect(html).not.toContain('ghp_FAKEb0ugh');
  });

  // Regression: a Claude Code sub-agent's file carries its session's id, so its export, by
  // default, replaced the session's own export without a word.
  it('names the export of a sub-agent file after that file, apart from its session\'s', async () => {
    const dir = await tempDir();
    const project = join(FIXTURES, 'claude', 'projects', '-home-ana-shop');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const main = await run(['export', join(project, '11111111-1111-4111-8111-111111111111.jsonl')]);
      const sub = await run(['export', join(project, '11111111-1111-4111-8111-111111111111', 'subagents', 'agent-a9f8e7d6c5.jsonl')]);
      expect([main.code, sub.code]).toEqual([0, 0]);
    } finally {
      process.chdir(cwd);
    }
    expect((await readdir(dir)).sort()).toEqual(['11111111-1111-4111-8111-111111111111-agent-a9f8e7d6c5.html', '11111111-1111-4111-8111-111111111111.html']);
  });

  // Regression: a sub-agent's file given alone brought in its session's other sub-agents (those in
  // <session>/subagents/ and those beside it): its export held all of them, titled after the
  // oldest, and stats counted them all.
  it('exports and counts a sub-agent file given alone as that sub-agent only', async () => {
    const dir = await tempDir();
    const project = join(FIXTURES, 'claude', 'projects', '-home-ana-shop');
    const agent = join(project, 'agent-5e5e5e5e.jsonl');
    const out = join(dir, 'agent.html');
    expect((await run(['export', agent, '-o', out])).code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('List the files under src and say what each one does');
    // The other sub-agent of the same session (11111111-…/subagents/agent-a9f8e7d6c5.jsonl).
    expect(html).not.toContain('Find every caller of total()');
    const stats = JSON.parse((await run(['stats', agent, '--json', '--no-cache'])).stdout);
    expect([stats.diagnostics.files, stats.totals.usageRecords]).toEqual([1, stats.totals.subagents.usageRecords]);
    // Regression: told by its name, a sub-agent's file kept under another took in its session's sub-agents.
    const copy = join(dir, 'shop');
    await cp(project, copy, { recursive: true });
    await writeFile(join(copy, 'kept-agent.jsonl'), await readFile(agent));
    const kept = JSON.parse((await run(['stats', join(copy, 'kept-agent.jsonl'), '--json', '--no-cache'])).stdout);
    expect([kept.diagnostics.files, kept.totals]).toEqual([1, stats.totals]);
  });

  // Regression: the fix above went by name, so a session's own file kept as agent-….jsonl, given
  // alone, lost its sub-agents' spend.
  it('reads a session file given alone with its sub-agents whatever it is named', async () => {
    const project = join(FIXTURES, 'claude', 'projects', '-home-ana-shop');
    const copy = join(await tempDir(), 'shop');
    await cp(project, copy, { recursive: true });
    await rename(join(copy, '11111111-1111-4111-8111-111111111111.jsonl'), join(copy, 'agent-kept.jsonl'));
    const totalsOf = async (file: string) => JSON.parse((await run(['stats', file, '--json', '--no-cache'])).stdout).totals;
    const kept = await totalsOf(join(copy, 'agent-kept.jsonl'));
    expect(kept).toEqual(await totalsOf(join(project, '11111111-1111-4111-8111-111111111111.jsonl')));
    expect(kept.subagents.usageRecords).toBeGreaterThan(1);
    // Regression: told by its first lines alone, a session's file that opens with a warmup's
    // sidechain was taken for a sub-agent's, and lost its sub-agents too.
    const session = join(copy, '11111111-1111-4111-8111-111111111111.jsonl');
    const warmup = { parentUuid: null, isSidechain: true, userType: 'external', cwd: '/home/ana/shop', sessionId: '11111111-1111-4111-8111-111111111111', version: '2.0.37', type: 'user', uuid: 'w-1', timestamp: '2026-03-02T09:59:00.000Z', message: { role: 'user', content: 'Warmup' } };
    await writeFile(session, `${JSON.stringify(warmup)}\n${await readFile(join(copy, 'agent-kept.jsonl'), 'utf8')}`);
    expect((await totalsOf(session)).subagents).toEqual(kept.subagents);
  });

  // Regression (a hostile look): given through a link to it, a session's file looked for its
  // sub-agents beside the link, and lost their spend.
  it('reads a session file given through a link with the sub-agents beside the file itself', async () => {
    const session = join(FIXTURES, 'claude', 'projects', '-home-ana-shop', '11111111-1111-4111-8111-111111111111.jsonl');
    const link = join(await tempDir(), 'latest.jsonl');
    await symlink(session, link);
    const totalsOf = async (file: string) => JSON.parse((await run(['stats', file, '--json', '--no-cache'])).stdout).totals;
    const linked = await totalsOf(link);
    expect(linked).toEqual(await totalsOf(session));
    expect(linked.subagents.usageRecords).toBeGreaterThan(1);
  });

  // Regression: with its sub-agents read beside it, a session whose file sorts after theirs
  // ("c…" after "agent-…") was exported as one of them (named cccc…-agent-5e5e5e5e.html).
  it('exports the file asked for, wherever its sub-agents\' files sort beside it', async () => {
    const project = join(FIXTURES, 'claude', 'projects', '-home-ana-shop');
    const id = 'cccccccc-1111-4111-8111-111111111111';
    const folder = join(await tempDir(), 'shop');
    await mkdir(folder);
    const renamed = async (name: string) => (await readFile(join(project, name), 'utf8')).split('11111111-1111-4111-8111-111111111111').join(id);
    await writeFile(join(folder, `${id}.jsonl`), await renamed('11111111-1111-4111-8111-111111111111.jsonl'));
    await writeFile(join(folder, 'agent-5e5e5e5e.jsonl'), await renamed('agent-5e5e5e5e.jsonl'));
    const dir = await tempDir();
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect((await run(['export', join(folder, `${id}.jsonl`)])).code).toBe(0);
    } finally {
      process.chdir(cwd);
    }
    expect(await readdir(dir)).toEqual([`${id}.html`]);
  });

  // Regression: a loop of links (or a folder that could not be listed) was on the data-quality page
  // only; the last line counted the files it skipped, and not these.
  it('says how many folders or links it did not look into', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.jsonl'), await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl')));
    await symlink(dir, join(dir, 'loop'));
    const built = await run(['build', dir, '--out', join(await tempDir(), 'r')]);
    expect(built.stdout).toContain(' · 1 folder or link not looked into (see the data-quality page) · ');
    const counted = await run(['stats', dir, '--no-cache']);
    expect(counted.stderr).toContain('bough: 1 folder or link not looked into; `bough build` lists it on its data-quality page.');
    // Regression (a hostile-input review): stats named the files it skipped, not these.
    expect(counted.stderr).toMatch(new RegExp(`bough: not looked into: ${join(dir, 'loop').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(.+\\)\\.\n`));
  });

  it('names an export after its session id, never as a hidden file, an option or `..` (regression: ".bashrc.html", "-rf.html")', () => {
    expect(['0195aaaa-0000-7000', '.bashrc', '-rf', '..', '.', '/../../etc/passwd', '', 'a b/c'].map(exportName)).toEqual([
      '0195aaaa-0000-7000.html',
      'bashrc.html',
      'rf.html',
      'session.html',
      'session.html',
      'etc-passwd.html',
      'session.html',
      'a-b-c.html',
    ]);
  });

  it('exits 1 with a sentence when an input does not exist', async () => {
    const result = await run(['build', '/no/such/folder', '--out', join(await tempDir(), 'r')]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'bough: No such file or folder: /no/such/folder. Check the path and run again.\n' });
  });

  it('says a report folder given as the input is one', async () => {
    const out = join(await tempDir(), 'r');
    expect((await run(['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out', out, '-q'])).code).toBe(0);
    const result = await run(['stats', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("That is a bough report folder: point bough at the agents' session files, or give it none to read their own folders.");
  });

  it('exits 1 when the inputs hold no session', async () => {
    const result = await run(['build', join(FIXTURES, 'pi', 'not-a-session.jsonl'), '--out', join(await tempDir(), 'r')]);
    expect(result.code).toBe(1);
    // Regression: "None of the 1 file found in … is a session file"; then (a review of the command
    // line) "The one file found in <the file> is not …", naming neither it nor why.
    expect(result.stderr).toBe(
      `bough: ${join(FIXTURES, 'pi', 'not-a-session.jsonl')} is not a session file bough can read (no record in its first 50 lines is one of Pi, Claude Code or Codex: the first is an object without a type). See its first lines, or point bough at a folder of agent sessions.\n`,
    );
  });

  // Regression: "bough buidl" said only that no such file or folder exists, and exited 1 as for a
  // missing input, where a mistyped command is bad usage (2).
  it('says a mistyped command is no command either', async () => {
    const result = await run(['buidl', '--out', join(await tempDir(), 'r')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('It is no command either: bough has build, stats, export and prices.');
  });

  // Regression (a second hostile look): after options (`bough -q buidl`) a mistyped command was
  // taken for a missing input again (exit 1, no word of commands).
  it.each([[['-q', 'buidl']], [['--tz', 'UTC', 'buidl']]])('says a mistyped command after options is no command either: %j', async (args) => {
    const result = await inFolder(await tempDir(), () => run(args));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('It is no command either');
  });

  // Regression (an outside review of the command line): run from a working folder deleted since,
  // every path whole, build and export said "unexpected error … uv_cwd. This is a bug in bough".
  it('builds and exports from a working folder that no longer exists', async () => {
    const gone = await tempDir();
    const out = join(await tempDir(), 'report');
    const page = join(await tempDir(), 'one.html');
    const [built, exported] = await inFolder(gone, async () => {
      await rm(gone, { recursive: true });
      return [await run(['build', join(FIXTURES, 'pi'), '--out', out, '--tz', 'UTC']), await run(['export', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '-o', page])];
    });
    expect([built.code, built.stderr]).toEqual([0, '']);
    expect(built.stdout).toContain(`report in ${join(out, 'index.html')}`);
    expect(exported.code).toBe(0);
  });

  // Regression (an outside review of the command line): a command in capitals (`bough Stats x`)
  // was taken for a missing input (exit 1, no word of commands).
  it.each([['Stats'], ['BUILD'], ['Exprot']])('says a mistyped command in capitals is no command either: %s', async (word) => {
    const result = await inFolder(await tempDir(), () => run([word, 'x']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('It is no command either');
  });

  // Regression: with an option only the meant command takes (`bough Stats --json`), build's parser
  // said "unknown option '--json'" and nothing of the word.
  it.each([[['Stats', '--json']], [['stat', '--by', 'day']], [['Prices', 'show']]])('says a mistyped command before options it would take is no command either: %j', async (args) => {
    const folder = await tempDir();
    const result = await inFolder(folder, () => run(args));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`bough: No such file or folder: ${join(folder, args[0] as string)}. Check the path and run again. It is no command either: bough has build, stats, export and prices.\n`);
  });

  // Regression (the same review): an option's bad value was said in two sentences, the second in
  // lower case ("… is invalid. unknown time zone …").
  it('says an option value it cannot take in one sentence', async () => {
    const result = await run(['stats', FIXTURES, '--tz', 'Mars/Olympus']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`bough: option '--tz <zone>' argument 'Mars/Olympus' is invalid: unknown time zone "Mars/Olympus" (use an IANA name such as Europe/Berlin or UTC).`);
  });

  // Regression (the same review): `-` and a quoted pattern were said only to be no such file.
  it.each([
    ['-', 'not standard input'],
    ['logs/*.jsonl', 'does not expand patterns'],
  ])('says what %s is, given as an input', async (input, said) => {
    const result = await inFolder(await tempDir(), () => run(['stats', input]));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(said);
  });

  // Regression (a hostile look): a missing file in a folder named with brackets was said to be a pattern.
  it('takes a missing path with brackets for a missing path', async () => {
    const result = await inFolder(await tempDir(), () => run(['stats', 'dir [old]/x.jsonl']));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/No such file or folder: .*dir \[old\]\/x\.jsonl\. Check the path and run again\.\n$/);
  });

  // Regression (the same review): `prices show extra` named "extra" as a command prices has not.
  it('says `prices show` takes no argument, naming the word given', async () => {
    const result = await run(['prices', 'show', 'extra']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('bough: prices show takes no arguments (got “extra”): bough prices show --help says what it takes.\n');
    expect((await run(['prices', 'updte'])).stderr).toContain('prices has no command “updte”');
    // Regression (a hostile look): `show` given as --prices' value is no command named.
    expect((await run(['prices', '--prices', 'show', 'extra'])).stderr).toContain('prices has no command “extra”');
    // Regression (a second hostile look): `prices --prices FILE show` said show was no command.
    const table = join(await tempDir(), 'table.json');
    await writeFile(table, JSON.stringify({ 'claude-x': { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 } }));
    expect(await run(['prices', '--prices', table, 'show'])).toMatchObject({ code: 0 });
    expect((await run(['prices', 'show', 'show'])).stderr).toContain('prices show takes no arguments (got “show”)');
  });

  // Regression (the same review): an --out whose links loop was said in Node's words (ELOOP, realpath).
  it('says an --out whose symbolic links loop is a loop', async () => {
    const root = await tempDir();
    await symlink('loop', join(root, 'loop'));
    const result = await run(['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out', join(root, 'loop')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`bough: Cannot follow ${join(root, 'loop')}: its symbolic links lead round in a loop. Choose another --out.\n`);
  });

  // Regression (a review of the command line): `bough sessions` exited 2 as a mistyped command,
  // `bough my-sessions` 1 as a missing input: only a word near a command's name is one.
  it.each([['nope'], ['sessions'], ['logs']])('takes a missing word far from any command for a missing input: %s', async (word) => {
    const result = await inFolder(await tempDir(), () => run([word]));
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('no command');
    expect((await inFolder(await tempDir(), () => run(['stat']))).code).toBe(2);
  });

  it('takes a word after `build` for an input', async () => {
    const result = await inFolder(await tempDir(), () => run(['build', 'buidl']));
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('no command');
  });

  // Regression: after a command, a word that names nothing is a missing input (exit 1), not a
  // mistyped command (2, "It is no command either"): `bough stats logs` names no command.
  it('takes a missing bare word after a command for a missing input', async () => {
    const result = await inFolder(await tempDir(), () => run(['stats', 'logs']));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bough: No such file or folder: .*logs\. Check the path and run again\.\n$/);
  });

  // Regression (an outside review of the command line): `bough help prices update` printed the
  // help of prices, not of its update.
  it('gives the help of a command of prices asked for with help', async () => {
    const asked = await run(['help', 'prices', 'update']);
    expect(asked).toMatchObject({ code: 0, stderr: '' });
    expect(asked.stdout).toMatch(/^Usage: bough prices update \[options\]\n/);
    expect(asked.stdout).toContain('--url <url>');
    expect(asked.stdout).not.toContain('Commands:');
    expect(await run(['help', 'prices', 'updte'])).toEqual({ code: 2, stdout: '', stderr: 'bough: prices has no command “updte”: use bough prices show or bough prices update.\n' });
    // An option after it gives prices' help (regression, a hostile look: "unknown option '--url'").
    expect(await run(['help', 'prices', '--url', 'x'])).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^Usage: bough prices \[options\] \[command\]\n/) });
  });

  // Regression: "bough prices updte" said "too many arguments for 'show'".
  it('names a mistyped prices command', async () => {
    const result = await run(['prices', 'updte']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'bough: prices has no command “updte”: use bough prices show or bough prices update.\n' });
  });

  // Regression: an empty --out (an unset shell variable) meant this folder, and --prices '' a raw ENOENT.
  it.each([
    [['prices', 'update', '--url', 'notaurl'], 'give an http or https address (got "notaurl")'],
    [['prices', 'update', '--url', 'file:///etc/passwd'], 'give an http or https address'],
  ])('regression: a malformed --url failed as a download (exit 1); now it is bad usage: %j', async (args, said) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(said);
  });

  it.each([[['build', '--out', '']], [['stats', '--prices', ' ']], [['export', 'x.jsonl', '-o', '']]])('refuses an empty path: %j', async (args) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('give a path (got an empty one)');
  });

  it('refuses to write the report inside an input folder', async () => {
    const result = await run(['build', join(FIXTURES, 'pi'), '--out', join(FIXTURES, 'pi', 'report')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Refusing to write the report to .* it is inside the input/);
    expect(existsSync(join(FIXTURES, 'pi', 'report'))).toBe(false);
  });

  it.each([[['build', '--no-such-option']], [['build', '--tz', 'Mars/Olympus']], [['frobnicate', '--x']]])('exits 2 on bad usage: %j', async (args) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^bough: /);
  });

  // Regression: these ended in Node's own words ("EEXIST: file already exists, mkdir …").
  it('says why it cannot write --out or read --prices in words, not in Node error codes', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'afile'), 'x');
    const file = join(FIXTURES, 'pi', 'minimal-v3.jsonl');
    expect(await run(['build', file, '--out', join(dir, 'afile', 'report'), '-q'])).toEqual({ code: 1, stdout: '', stderr: `bough: Cannot create the folder ${join(dir, 'afile')} for the report: a file is in the way of it. Choose another --out.\n` });
    expect(await run(['stats', file, '--prices', join(dir, 'nope.json')])).toEqual({ code: 1, stdout: '', stderr: `bough: Cannot read the price table ${join(dir, 'nope.json')}: no such file.\n` });
  });

  // Regression: a --prices table of `{}` left every record unpriced without a word.
  it('refuses a --prices table that prices no model', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'empty.json'), '{}');
    const result = await run(['stats', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--prices', join(dir, 'empty.json')]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `bough: The price table ${join(dir, 'empty.json')} prices no model (no entry with input_cost_per_token and output_cost_per_token): every record would be unpriced.\n` });
  });

  // Regression: `bough ~/.pi stats` said "No such file or folder: …/stats … It is no command either".
  it('says a command typed after an input goes first, as bad usage', async () => {
    const result = await run([FIXTURES, 'stats']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `bough: “stats” is a command, and no file or folder here has that name: put the command first, as in bough stats ${FIXTURES}.\n` });
    // Regression: after a command given first, it suggested a line that dropped that command.
    for (const [command, other] of [['stats', 'build'], ['build', 'stats']]) {
      expect(await run([command as string, FIXTURES, other as string])).toEqual({
        code: 2,
        stdout: '',
        stderr: `bough: “${other}” is a command, and no file or folder here has that name: bough runs one command at a time, as in bough ${command} ${FIXTURES}.\n`,
      });
    }
  });

  // Regression: `bough help nosuch` printed the whole usage and said nothing of the word.
  it('says a command it does not have, asked for its help', async () => {
    expect(await run(['help', 'nosuch'])).toEqual({ code: 2, stdout: '', stderr: 'bough: there is no command “nosuch”: bough has build, stats, export, prices (bough --help says what each does).\n' });
    expect((await run(['help', 'stats'])).stdout).toContain('Usage: bough stats');
  });

  it('exits 0 for --help and --version', async () => {
    expect((await run(['--help'])).code).toBe(0);
    expect((await run(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

// Regression (a review of what a folder holds): a narrower --share build into a folder built for
// the whole history kept the other sessions' pages in it, said on the last line only, and with
// --quiet not at all.
describe('a report made to share into a folder whose archive keeps more', () => {
  it('warns that whoever is sent the folder gets those sessions too, even with --quiet', async () => {
    const out = join(await tempDir(), 'report');
    const input = join(FIXTURES, 'pi', 'lineage');
    const home = await tempDir();
    const cache = { BOUGH_CACHE_DIR: join(await tempDir(), 'cache'), BOUGH_CONFIG_DIR: join(await tempDir(), 'config') };
    expect((await run(['build', input, '--out', out, '--share', '--tz', 'UTC', '--quiet'], cache, home)).code).toBe(0);
    const narrower = await run(['build', input, '--out', out, '--share', '--tz', 'UTC', '--since', '2026-10-12', '--quiet'], cache, home);
    expect(narrower.code).toBe(0);
    expect(narrower.stderr).toMatch(/warning: .*also keeps 3 sessions this report does not show, with their pages, from an earlier build into it: whoever is sent the folder gets them too\. .*--forget-missing/);
    // Not a build for its owner, nor one that keeps nothing else.
    expect((await run(['build', input, '--out', out, '--tz', 'UTC', '--since', '2026-10-12', '--quiet', '--forget-missing'], cache, home)).stderr).not.toContain('also keeps');
  });
});
