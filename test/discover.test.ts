// Inputs → candidate files (issue 12, item 5): links to files and folders are followed and each
// real file counted once; loops are not walked; what cannot be read or listed is said in words.

import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { build, noSessionsSentence } from '../src/build.js';
import { fileIdentity } from '../src/cache/ledger-cache.js';
import { discover, placesLine, type Discovery, type DiscoveryFs } from '../src/discover.js';
import { whyUnreadable } from '../src/file-problems.js';
import { readSessionFile } from '../src/sources/read.js';
import { ALL_UTC, piFixture, tempDir } from './support/fixtures.js';
import { withoutRoot } from './support/permissions.js';

const NO_HOME = { env: {}, home: '/nonexistent' };
const SESSION = { copyOf: piFixture('minimal-v3.jsonl') };

type Spec = Record<string, string | { link: string } | { copyOf: string }>;

/** A new folder (readable by anyone) holding files, links and copies of fixtures at the given relative paths. */
async function tree(spec: Spec): Promise<string> {
  const root = await tempDir();
  await chmod(root, 0o755);
  for (const [path, what] of Object.entries(spec)) {
    const at = join(root, path);
    await mkdir(dirname(at), { recursive: true });
    if (typeof what === 'string') await writeFile(at, what);
    else if ('link' in what) await symlink(what.link, at);
    else await writeFile(at, await readFile(what.copyOf));
  }
  return root;
}

const shown = (root: string, discovery: Discovery) => discovery.files.map((file) => relative(root, file));
const notes = (root: string, discovery: Discovery) => discovery.diagnostics.map((d) => [d.reason, relative(root, d.file), d.detail]);

function errorWith(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: the system's own words`), { code });
}

/** Node's file system, with `fail` told of each call and deciding which throw which code. */
function fsFailing(fail: (call: keyof DiscoveryFs, path: string) => string | null): DiscoveryFs {
  const check = (call: keyof DiscoveryFs, path: string) => {
    const code = fail(call, path);
    if (code) throw errorWith(code);
  };
  return {
    readdir: async (path) => (check('readdir', path), readdir(path, { withFileTypes: true })),
    stat: async (path) => (check('stat', path), stat(path)),
    realpath: async (path) => (check('realpath', path), realpath(path)),
  };
}

describe('an unreadable file says why, never "not a session"', () => {
  it.each([
    ['EACCES', 'permission denied'],
    ['EPERM', 'permission denied'],
    ['EISDIR', 'a folder, not a file'],
    ['ENOENT', 'it vanished while being read (moved or deleted)'],
    ['ELOOP', 'a loop of symbolic links'],
    ['ENOTDIR', 'not a folder (or part of its path is not one)'],
    ['EIO', 'a read error from the disk'],
    ['EWHATEVER', "EWHATEVER: the system's own words"],
  ])('says %s as "%s"', (code, words) => {
    expect(whyUnreadable(errorWith(code))).toBe(words);
  });

  it('lists a file it may not open as unreadable-file, permission denied', async (context) => {
    const root = await tree({ 'locked.jsonl': SESSION });
    await chmod(join(root, 'locked.jsonl'), 0o000);
    const outcome = await withoutRoot(() => readSessionFile(join(root, 'locked.jsonl')));
    if (outcome === null) return context.skip('running as root without seteuid: chmod 000 cannot stop this process');
    expect(outcome).toMatchObject({ kind: 'skipped', diagnostics: [{ reason: 'unreadable-file', line: null, detail: 'permission denied' }] });
  });

  it('says a link to nothing and a folder named .jsonl for what they are', async () => {
    const root = await tree({ 'gone.jsonl': { link: 'nowhere.jsonl' }, 'folder.jsonl/x': 'x' });
    expect(await readSessionFile(join(root, 'gone.jsonl'))).toMatchObject({
      diagnostics: [{ reason: 'unreadable-file', detail: 'a symbolic link to nowhere.jsonl, which does not exist' }],
    });
    expect(await readSessionFile(join(root, 'folder.jsonl'))).toMatchObject({ diagnostics: [{ reason: 'unreadable-file', detail: 'a folder, not a file' }] });
  });

  it('says why when no file could be read at all (regression: "is not a session file … see the files’ first lines")', async () => {
    const root = await tree({ 'gone.jsonl': { link: 'nowhere.jsonl' } });
    const out = join(await tempDir(), 'report');
    await expect(build({ inputs: [root], out, scope: ALL_UTC, environment: NO_HOME, now: new Date('2026-11-30T12:00:00Z') })).rejects.toThrow(
      `${join(root, 'gone.jsonl')} could not be read (a symbolic link to nowhere.jsonl, which does not exist): nothing to report. Point bough at session files it may read.`,
    );
  });

  it('puts an unreadable file and a link to nothing in summary.json with their reasons, and reads the rest', async (context) => {
    const root = await tree({ 'ok.jsonl': SESSION, 'locked.jsonl': SESSION, 'gone.jsonl': { link: 'nowhere.jsonl' } });
    await chmod(join(root, 'locked.jsonl'), 0o000);
    const out = await tempDir();
    await chmod(out, 0o777);
    const result = await withoutRoot(() =>
      build({ inputs: [root], out: join(out, 'report'), scope: ALL_UTC, environment: NO_HOME, now: new Date('2026-11-30T12:00:00Z') }),
    );
    if (result === null) return context.skip('running as root without seteuid: chmod 000 cannot stop this process');
    expect(result.summary.diagnostics).toMatchObject({ files: 3, sessionFiles: 1, skippedFiles: 2 });
    expect(result.summary.diagnostics.items.map((d) => [relative(root, d.file), d.reason, d.detail])).toEqual([
      ['gone.jsonl', 'unreadable-file', 'a symbolic link to nowhere.jsonl, which does not exist'],
      ['locked.jsonl', 'unreadable-file', 'permission denied'],
    ]);
  });
});

// An outside review that ran Codex 0.169: its thread store compresses rollouts a week old with
// zstd (off by default for now); such a folder read as "No session files (*.jsonl) found".
it('says each compressed session file it does not read, and how to read it', async () => {
  const root = await tree({ 'a/rollout-1.jsonl.zst': 'x', 'b/old.jsonl.GZ': 'x', 'b/kept.jsonl': SESSION });
  const found = await discover([root], NO_HOME);
  expect(shown(root, found)).toEqual(['b/kept.jsonl']);
  expect(notes(root, found)).toEqual([
    ['compressed-file', 'a/rollout-1.jsonl.zst', `compressed (zstd), so not read: decompress a copy into a folder of its own and give bough that folder too (zstd -dc '${join(root, 'a/rollout-1.jsonl.zst')}' > FOLDER/'rollout-1.jsonl')`],
    ['compressed-file', 'b/old.jsonl.GZ', `compressed (gzip), so not read: decompress a copy into a folder of its own and give bough that folder too (gzip -dc '${join(root, 'b/old.jsonl.GZ')}' > FOLDER/'old.jsonl')`],
  ]);
  // Regression (a hostile look): the command named the file bare, so that a name holding $(…)
  // would run it, pasted; quoted, and by its whole path.
  const odd = await tree({ "it's $(touch x).jsonl.zst": 'x' });
  expect(notes(odd, await discover([odd], NO_HOME))[0]?.[2]).toContain(`zstd -dc '${join(odd, "it'\\''s $(touch x).jsonl.zst")}' > FOLDER/'it'\\''s $(touch x).jsonl'`);
  // With nothing else to read, the run says so, not "no session files".
  const only = await tree({ 'a/rollout-1.jsonl.zst': 'x' });
  expect(noSessionsSentence(await discover([only], NO_HOME))).toContain(`only one compressed (${join(only, 'a/rollout-1.jsonl.zst')}), which bough does not read: decompress a copy`);
});

// Regression (a review of pi.md): a session file a sub-agent extension keeps below a Pi project
// folder (`--<cwd>--/subagents/<id>/scout.jsonl`, its run already in its parent's tool result) was
// passed over from Pi's own places but read as a session given `~/.pi`: its spend counted twice.
it('reads a Pi project folder’s own session files and not those below it, however it is reached', async () => {
  const root = await tree({
    '.pi/agent/sessions/--tmp-p--/a.jsonl': SESSION,
    '.pi/agent/sessions/--tmp-p--/subagents/0199/scout.jsonl': SESSION,
    'elsewhere/deep/b.jsonl': SESSION,
  });
  await symlink(join(root, 'elsewhere'), join(root, '.pi/agent/sessions/--tmp-p--/linked'));
  for (const given of ['.pi', '.pi/agent/sessions', '.pi/agent/sessions/--tmp-p--']) {
    expect({ given, files: shown(root, await discover([join(root, given)], NO_HOME)) }).toEqual({ given, files: ['.pi/agent/sessions/--tmp-p--/a.jsonl'] });
  }
  // Any other folder is read at every depth.
  expect(shown(root, await discover([join(root, 'elsewhere')], NO_HOME))).toEqual(['elsewhere/deep/b.jsonl']);
  // Regression (a hostile look): so is a folder named so that is no Pi project's in its sessions
  // folder: Claude Code's of a Windows share's `c++` (its sub-agents were left out, their spend
  // with them), a backup given by such a name.
  const other = await tree({
    '.claude/projects/--wsl-localhost-Ubuntu-home-me-c--/s.jsonl': SESSION,
    '.claude/projects/--wsl-localhost-Ubuntu-home-me-c--/s/subagents/agent-a.jsonl': SESSION,
    '--old-laptop--/claude/projects/-home-me/t.jsonl': SESSION,
  });
  expect(shown(other, await discover([join(other, '.claude')], NO_HOME)).sort()).toEqual(['.claude/projects/--wsl-localhost-Ubuntu-home-me-c--/s.jsonl', '.claude/projects/--wsl-localhost-Ubuntu-home-me-c--/s/subagents/agent-a.jsonl']);
  expect(shown(other, await discover([join(other, '--old-laptop--')], NO_HOME))).toEqual(['--old-laptop--/claude/projects/-home-me/t.jsonl']);
});

// Regression (a hostile look): a compressed file was said (and counted as a file skipped) once
// for every way bough reached it (a folder given twice, with its subfolder, through a link to
// it), and not at all through a link to the file itself.
it('says each compressed session file once, however it is reached, a link to it too', async () => {
  const root = await tree({ 'd/kept.jsonl': SESSION, 'd/sub/old.jsonl.gz': 'x', 'elsewhere/far.jsonl.zst': 'x' });
  await symlink(join(root, 'd'), join(root, 'd2'));
  await symlink(join(root, 'elsewhere', 'far.jsonl.zst'), join(root, 'd', 'near.jsonl.zst'));
  // A link named as a session to the compressed file beside it (a second look): that file, once.
  await symlink(join(root, 'd', 'sub', 'old.jsonl.gz'), join(root, 'd', 'old-link.jsonl'));
  const inputs = [['d'], ['d', 'd'], ['d', 'd/sub'], ['d', 'd/sub/old.jsonl.gz'], ['d', 'd2']];
  for (const given of [...inputs, ['d/old-link.jsonl', 'd']]) {
    const found = await discover(given.map((path) => join(root, path)), NO_HOME);
    expect({ given, files: shown(root, found) }).toEqual({ given, files: ['d/kept.jsonl'] });
    expect({ given, notes: notes(root, found).map(([reason, file]) => [reason, file]).sort() }).toEqual({
      given,
      notes: [
        ['compressed-file', 'd/near.jsonl.zst'],
        ['compressed-file', 'd/sub/old.jsonl.gz'],
      ],
    });
  }
});

describe('symbolic links are followed, each real file counted once', () => {
  it('follows links to .jsonl files and to folders holding them', async () => {
    const elsewhere = await tree({ 'a.jsonl': 'a', 'deep/b.jsonl': 'b' });
    const root = await tree({ 'own.jsonl': 'o', 'linked.jsonl': { link: join(elsewhere, 'a.jsonl') }, 'more': { link: join(elsewhere, 'deep') } });
    const discovery = await discover([root], NO_HOME);
    expect(shown(root, discovery)).toEqual(['linked.jsonl', 'more/b.jsonl', 'own.jsonl']);
    expect(discovery.places).toEqual([{ source: null, path: root, files: 3, exists: true }]);
    expect(discovery.diagnostics).toEqual([]);
  });

  it('shows a file reachable with and without links once, by its path without links', async () => {
    const root = await tree({ 'real/a.jsonl': 'a', 'alias.jsonl': { link: 'real/a.jsonl' }, 'also': { link: 'real' } });
    const discovery = await discover([root], NO_HOME);
    expect(shown(root, discovery)).toEqual(['real/a.jsonl']);
    expect(discovery.diagnostics).toEqual([]);
  });

  it('keeps the path the user gave when the input itself is a link', async () => {
    const real = await tree({ 'a.jsonl': 'a' });
    const holder = await tree({ 'sessions': { link: real } });
    const discovery = await discover([join(holder, 'sessions'), join(real, 'a.jsonl')], NO_HOME);
    expect(discovery.files).toEqual([join(holder, 'sessions', 'a.jsonl')]);
  });

  it('knows the real path of every plain file it walked to, the one the system gives, so that identifying it need not ask again', async () => {
    const elsewhere = await tree({ 'a.jsonl': 'a', 'deep/b.jsonl': 'b' });
    const root = await tree({ 'own/c.jsonl': 'c', 'linked.jsonl': { link: join(elsewhere, 'a.jsonl') }, 'more': { link: join(elsewhere, 'deep') } });
    const holder = await tree({ 'sessions': { link: root } });
    const discovery = await discover([join(holder, 'sessions')], NO_HOME);
    expect(discovery.files).toHaveLength(3);
    // Through the linked input, the linked folder and a link to a file alike (the archive tells a
    // file read through a link by it).
    expect([...discovery.realPaths.keys()].map((file) => relative(holder, file)).sort()).toEqual(['sessions/linked.jsonl', 'sessions/more/b.jsonl', 'sessions/own/c.jsonl']);
    for (const [file, real] of discovery.realPaths) {
      expect(real).toBe(await realpath(file));
      expect(await fileIdentity(file, 'stamp', real)).toBe(await fileIdentity(file, 'stamp'));
    }
  });

  it('does not walk round a link to a folder it is in, and says so', async () => {
    const root = await tree({ 'a.jsonl': 'a', 'sub/b.jsonl': 'b', 'sub/up': { link: '..' }, 'here': { link: '.' } });
    const discovery = await discover([root], NO_HOME);
    expect(shown(root, discovery)).toEqual(['a.jsonl', 'sub/b.jsonl']);
    expect(notes(root, discovery)).toEqual([
      ['skipped-link', 'here', `a loop: it leads back to ${root}, a folder it is in`],
      ['skipped-link', 'sub/up', `a loop: it leads back to ${root}, a folder it is in`],
    ]);
  });

  it('ends on two folders that link to each other, each file once', async () => {
    const root = await tree({ 'x/a.jsonl': 'a', 'y/b.jsonl': 'b', 'x/to-y': { link: '../y' }, 'y/to-x': { link: '../x' } });
    const discovery = await discover([join(root, 'x')], NO_HOME);
    expect(shown(root, discovery)).toEqual(['x/a.jsonl', 'x/to-y/b.jsonl']);
    expect(notes(root, discovery)).toEqual([['skipped-link', 'x/to-y/to-x', `a loop: it leads back to ${join(root, 'x')}, a folder it is in`]]);
  });

  it('keeps a broken .jsonl link as a candidate (its reading says why) and lists a broken folder link', async () => {
    const root = await tree({ 'gone.jsonl': { link: 'nowhere.jsonl' }, 'self.jsonl': { link: 'self.jsonl' }, 'old': { link: '/nonexistent/sessions' } });
    const discovery = await discover([root], NO_HOME);
    expect(shown(root, discovery)).toEqual(['gone.jsonl', 'self.jsonl']);
    expect(notes(root, discovery)).toEqual([['skipped-link', 'old', 'a symbolic link to /nonexistent/sessions, which does not exist']]);
  });
});

describe('a folder that cannot be listed is reported, and the rest still read', () => {
  it('names the folder and why', async () => {
    const root = await tree({ 'a.jsonl': 'a', 'locked/b.jsonl': 'b', 'open/c.jsonl': 'c' });
    const fs = fsFailing((call, path) => (call === 'readdir' && path === join(root, 'locked') ? 'EACCES' : null));
    const discovery = await discover([root], NO_HOME, null, fs);
    expect(shown(root, discovery)).toEqual(['a.jsonl', 'open/c.jsonl']);
    expect(notes(root, discovery)).toEqual([['unreadable-folder', 'locked', 'permission denied']]);
  });

  it('does so on a real folder with its permissions taken away', async (context) => {
    const root = await tree({ 'a.jsonl': 'a', 'locked/b.jsonl': 'b' });
    await chmod(join(root, 'locked'), 0o000);
    onTestFinished(() => chmod(join(root, 'locked'), 0o755)); // so that the temporary folder can be removed
    const discovery = await withoutRoot(() => discover([root], NO_HOME));
    if (discovery === null) return context.skip('running as root without seteuid: chmod 000 cannot stop this process');
    expect(shown(root, discovery)).toEqual(['a.jsonl']);
    expect(notes(root, discovery)).toEqual([['unreadable-folder', 'locked', 'permission denied']]);
  });

  // Regression: with the agent's own folder locked, a build with no inputs made a report of the
  // bundled samples ("no sessions found") and `stats` said only "No session files found".
  it('says an agent folder it may not list holds sessions it cannot read, and builds no samples instead', async (context) => {
    const home = await tree({ '.claude/projects/-home-ana-shop/s.jsonl': SESSION });
    const projects = join(home, '.claude', 'projects');
    await chmod(projects, 0o000);
    onTestFinished(() => chmod(projects, 0o755));
    const out = join(await tempDir(), 'report');
    await chmod(dirname(out), 0o777);
    const environment = { env: {}, home };
    const failed = await withoutRoot(() => build({ inputs: [], out, scope: ALL_UTC, environment, now: new Date('2026-12-01T00:00:00Z'), cache: false }).then(() => 'built', (error: Error) => error.message));
    if (failed === null) return context.skip('running as root without seteuid: chmod 000 cannot stop this process');
    expect(failed).toContain(`: ${projects} could not be listed (permission denied). Let bough read it, or point it at another folder.`);
    await expect(readdir(out)).rejects.toThrow();
    const discovery = await withoutRoot(() => discover([], environment));
    expect(placesLine(discovery?.places ?? [], home, discovery?.diagnostics)).toBe('no Pi folder · Claude Code: ~/.claude/projects (not listed: permission denied) · no Codex folder');
  });

  // Regression: a default place below a folder bough may not enter (~/.codex locked) stopped the
  // build with "Cannot follow …: choose another --out", though --out was fine.
  it('builds what it can read when an agent folder lies below one it may not enter', async (context) => {
    const home = await tree({ '.claude/projects/-home-ana-shop/s.jsonl': SESSION, '.codex/sessions/x': 'x' });
    await chmod(join(home, '.codex'), 0o000);
    onTestFinished(() => chmod(join(home, '.codex'), 0o755));
    const out = join(await tempDir(), 'report');
    await chmod(dirname(out), 0o777);
    const built = await withoutRoot(() =>
      build({ inputs: [], out, scope: ALL_UTC, environment: { env: {}, home }, now: new Date('2026-12-01T00:00:00Z'), cache: false }).then((r) => r.summary, (error: Error) => error.message),
    );
    if (built === null) return context.skip('running as root without seteuid: chmod 000 cannot stop this process');
    expect(built).toMatchObject({ totals: { sessions: 1 } });
  });

  it('reports a default place it may not look into, and a missing one only as not found', async () => {
    const home = await tree({});
    const fs = fsFailing((call, path) => (call === 'stat' && path.includes('locked') ? 'EACCES' : null));
    const locked = await discover([], { env: { PI_CODING_AGENT_SESSION_DIR: join(home, 'locked') }, home }, null, fs);
    expect(locked.diagnostics.map((d) => [d.reason, d.file, d.detail])).toEqual([['unreadable-folder', join(home, 'locked'), 'permission denied']]);
    const missing = await discover([], { env: {}, home }, null, fs);
    expect(missing).toMatchObject({ files: [], diagnostics: [] });
    expect(missing.places).toContainEqual({ source: 'pi', path: join(home, '.pi', 'agent', 'sessions'), files: 0, exists: false });
    expect(missing.places.every((p) => !p.exists)).toBe(true);
  });
});

describe('explicit inputs and default places work as before', () => {
  it('takes a file as given, whatever its name', async () => {
    const root = await tree({ 'notes.txt': 'n' });
    expect((await discover([join(root, 'notes.txt')], NO_HOME)).files).toEqual([join(root, 'notes.txt')]);
  });

  it('refuses an input that does not exist, and says when it is a link to nothing', async () => {
    const root = await tree({ 'gone': { link: 'nowhere' } });
    await expect(discover([join(root, 'missing')], NO_HOME)).rejects.toThrow(`No such file or folder: ${join(root, 'missing')}. Check the path and run again.`);
    await expect(discover([join(root, 'gone')], NO_HOME)).rejects.toThrow(`No such file or folder: ${join(root, 'gone')} (a symbolic link to nowhere, which does not exist).`);
  });

  it('says why a name that is not UTF-8 cannot be opened (regression: "no such file", though it is there)', async () => {
    // Node decodes such an argument with U+FFFD in place of its bytes: `caf\xe9` arrives as `caf\uFFFD`.
    const root = await tree({});
    await mkdir(Buffer.from(`${root}/caf\xe9`, 'latin1'));
    await expect(discover([join(root, 'caf\uFFFD')], NO_HOME)).rejects.toThrow('is not valid UTF-8, which bough receives altered and cannot open by name: name a folder above it, or rename it.');
  });

  it('never reads a bough report found below an input (regression: its archive’s sessions.jsonl listed as not a session)', async () => {
    // Built from proj/s.jsonl alone, bough's default --out is ./bough-report: beside the session when run there.
    const report = { '.bough-manifest.json': '{}', 'archive/sessions.jsonl': '{}', 'archive/seen.jsonl': '{}' };
    const root = await tree({ 'proj/s.jsonl': SESSION, ...Object.fromEntries(Object.entries(report).map(([path, text]) => [`proj/bough-report/${path}`, text])) });
    const discovery = await discover([root], NO_HOME);
    expect(shown(root, discovery)).toEqual(['proj/s.jsonl']);
    expect(discovery.diagnostics).toEqual([]);
    // Given as the input itself, it is read as asked.
    expect(shown(root, await discover([join(root, 'proj', 'bough-report')], NO_HOME)).sort()).toEqual(['proj/bough-report/archive/seen.jsonl', 'proj/bough-report/archive/sessions.jsonl']);
  });

  it('searches the default place when no input is given', async () => {
    const home = await tree({ '.pi/agent/sessions/--p--/a.jsonl': 'a' });
    const discovery = await discover([], { env: {}, home });
    expect(discovery).toMatchObject({ usedDefaults: true, files: [join(home, '.pi/agent/sessions/--p--/a.jsonl')], diagnostics: [] });
  });
});

describe('Pi v0.30 sessions left loose in the agent folder (formats/pi.md §1)', () => {
  it('finds them with the default places, its top only, and only files that start as Pi sessions', async () => {
    const home = await tree({
      '.pi/agent/sessions/--p--/a.jsonl': SESSION,
      '.pi/agent/2025-10-20T10-00-00-000Z_d703a1a9.jsonl': { copyOf: piFixture('v1-linear.jsonl') },
      '.pi/agent/events.jsonl': { copyOf: piFixture('not-a-session.jsonl') },
      '.pi/agent/extensions/tool/log.jsonl': SESSION,
    });
    const discovery = await discover([], { env: {}, home });
    expect(shown(home, discovery)).toEqual(['.pi/agent/2025-10-20T10-00-00-000Z_d703a1a9.jsonl', '.pi/agent/sessions/--p--/a.jsonl']);
    expect(placesLine(discovery.places, home)).toBe('Pi: ~/.pi/agent/sessions (1 file), ~/.pi/agent (1 file) · no Claude Code folder · no Codex folder');
    // Read as the session it is, filed under its working folder.
    const { summary } = await build({ inputs: [], out: join(home, 'report'), scope: ALL_UTC, environment: { env: {}, home }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    expect(summary.sessions.map((session) => session.cwd)).toContain('/Users/ana/projects/shop');
    // The overview counts the places read, not the agents' folders this home has not (regression,
    // a new user's review: "Read from 5 places", two of them not found).
    const index = await readFile(join(home, 'report', 'index.html'), 'utf8');
    expect(index).toMatch(/Read from 2 places; \d more looked in, not found/);
  });

  it('says nothing of the agent folder when it holds none, nor when Pi is not asked for', async () => {
    const home = await tree({ '.pi/agent/sessions/--p--/a.jsonl': SESSION, '.pi/agent/loose.jsonl': SESSION });
    const none = await tree({ '.pi/agent/sessions/--p--/a.jsonl': SESSION, '.pi/agent/settings.json': '{}' });
    expect(placesLine((await discover([], { env: {}, home: none })).places, none)).toBe('Pi: ~/.pi/agent/sessions (1 file) · no Claude Code folder · no Codex folder');
    expect((await discover([], { env: {}, home }, ['claude'])).files).toEqual([]);
    // Named as an input, the folder is searched as any other.
    expect(shown(home, await discover([join(home, '.pi/agent')], NO_HOME)).sort()).toEqual(['.pi/agent/loose.jsonl', '.pi/agent/sessions/--p--/a.jsonl']);
  });
});

describe('discovery stays cheap on large trees', () => {
  it('stats the inputs and the links, never each file', async () => {
    const files = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i % 10}/s${i}.jsonl`, 's']));
    const root = await tree({ ...files, 'link.jsonl': { link: 'p0/s0.jsonl' } });
    const calls: string[] = [];
    const fs = fsFailing((call, path) => (calls.push(`${call} ${relative(root, path)}`), null));
    const discovery = await discover([root], NO_HOME, null, fs);
    expect(discovery.files).toHaveLength(200);
    expect(calls.filter((call) => call.startsWith('stat'))).toEqual(['stat ', 'stat link.jsonl']);
  });
});

// Regression (a review of Pi's files): sub-agent extensions keep files below a project's folder
// of Pi's sessions (pi-subagents' `subagent-artifacts/`, a run's own session directory pointed
// there): read as sessions of their own, a run's spend counted twice. pi.md §18: only a project
// folder's own *.jsonl are sessions.
describe('Pi’s own sessions folder', () => {
  it('is searched to its project folders’ own files, named as an input or not', async () => {
    const home = await tree({
      '.pi/agent/sessions/--p--/a.jsonl': SESSION,
      '.pi/agent/sessions/--p--/subagent-artifacts/x_scout_0.jsonl': SESSION,
      '.pi/agent/sessions/--p--/runs/run1/scout.jsonl': SESSION,
      '.pi/agent/sessions/flat.jsonl': SESSION,
      '.pi/agent/sessions/--q--': { link: '../../../elsewhere' },
      'elsewhere/b.jsonl': SESSION,
      'elsewhere/deeper/c.jsonl': SESSION,
    });
    expect(shown(home, await discover([], { env: {}, home }, ['pi'])).sort()).toEqual(['.pi/agent/sessions/--p--/a.jsonl', '.pi/agent/sessions/--q--/b.jsonl', '.pi/agent/sessions/flat.jsonl']);
    // Named as an input, the same (a review of pi.md: read all through, a run's file below a
    // project folder counted its spend again beside its parent's tool result).
    expect(shown(home, await discover([join(home, '.pi/agent/sessions')], NO_HOME)).sort()).toEqual(['.pi/agent/sessions/--p--/a.jsonl', '.pi/agent/sessions/--q--/b.jsonl', '.pi/agent/sessions/flat.jsonl']);
  });

  // A review of pi.md: Pi's `sessionDir` setting (its global settings.json) names its session
  // folder where no variable does; bough looked in the default folder, found none, and said so.
  it('is the folder Pi’s settings name, where no variable names one', async () => {
    const home = await tree({ 'pi-sessions/a.jsonl': SESSION, '.pi/agent/sessions/--p--/old.jsonl': SESSION, '.pi/agent/settings.json': JSON.stringify({ sessionDir: '~/pi-sessions', theme: 'dark' }) });
    // And the folder Pi wrote to before it (a hostile look: its history was left out unsaid).
    expect(shown(home, await discover([], { env: {}, home }, ['pi'])).sort()).toEqual(['.pi/agent/sessions/--p--/old.jsonl', 'pi-sessions/a.jsonl']);
    // The variable wins over the setting; a setting relative to where Pi runs names no one folder.
    expect(shown(home, await discover([], { env: { PI_CODING_AGENT_SESSION_DIR: join(home, '.pi/agent/sessions') }, home }, ['pi']))).toEqual(['.pi/agent/sessions/--p--/old.jsonl']);
    await writeFile(join(home, '.pi/agent/settings.json'), JSON.stringify({ sessionDir: 'sessions-here' }));
    expect(shown(home, await discover([], { env: {}, home }, ['pi']))).toEqual(['.pi/agent/sessions/--p--/old.jsonl']);
    // A hostile look: settings that are a named pipe blocked the read for good, Ctrl-C too.
    await rm(join(home, '.pi/agent/settings.json'));
    execFileSync('mkfifo', [join(home, '.pi/agent/settings.json')]);
    expect(shown(home, await discover([], { env: {}, home }, ['pi']))).toEqual(['.pi/agent/sessions/--p--/old.jsonl']);
  });

  // Regression (the places line): the folder Pi's settings name, linked from the default folder,
  // said its file in both places ("(1 file), … (1 file)") where the run read one.
  it('says a file a place before it found as found above, not as one more', async () => {
    const home = await tree({ 'pi-sessions/a.jsonl': SESSION, '.pi/agent/settings.json': JSON.stringify({ sessionDir: '~/pi-sessions' }) });
    await symlink(join(home, 'pi-sessions'), join(home, '.pi/agent/sessions'));
    const discovery = await discover([], { env: {}, home }, ['pi']);
    expect(discovery.files).toHaveLength(1);
    expect(placesLine(discovery.places, home)).toBe('Pi: ~/pi-sessions (1 file), ~/.pi/agent/sessions (1 file, all found above)');
    const two = await tree({ 'a/x.jsonl': SESSION, 'a/y.jsonl': SESSION, 'b/z.jsonl': SESSION });
    await symlink(join(two, 'a/x.jsonl'), join(two, 'b/x.jsonl'));
    const given = await discover([join(two, 'a'), join(two, 'b')], NO_HOME);
    expect(placesLine(given.places, two)).toBe('inputs: ~/a (2 files), ~/b (2 files, 1 of them found above)');
    // A hostile look: a file named after a folder that holds it, or twice.
    const file = await discover([join(two, 'a'), join(two, 'a', 'x.jsonl'), join(two, 'a', 'x.jsonl')], NO_HOME);
    expect(placesLine(file.places, two)).toBe('inputs: ~/a (2 files), ~/a/x.jsonl (1 file, all found above), ~/a/x.jsonl (1 file, all found above)');
  });

  // A third hostile look: a custom session folder is flat (pi.md §1), so a run's file one folder
  // down beside the session was still read as a session, its spend counted twice.
  it('is searched to its own files alone when it is a custom session folder', async () => {
    const home = await tree({ 'custom/a.jsonl': SESSION, 'custom/subagent-artifacts/x_scout_0.jsonl': SESSION });
    const env = { PI_CODING_AGENT_SESSION_DIR: join(home, 'custom') };
    expect(shown(home, await discover([], { env, home }, ['pi']))).toEqual(['custom/a.jsonl']);
    // A fourth hostile look: set to the default folder, it holds projects' folders (found none).
    const usual = await tree({ '.pi/agent/sessions/--p--/a.jsonl': SESSION, '.pi/agent/sessions/--p--/subagent-artifacts/x.jsonl': SESSION });
    const same = { PI_CODING_AGENT_SESSION_DIR: join(usual, '.pi/agent/sessions') };
    expect(shown(usual, await discover([], { env: same, home: usual }, ['pi']))).toEqual(['.pi/agent/sessions/--p--/a.jsonl']);
  });
});
