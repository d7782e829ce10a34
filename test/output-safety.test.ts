// Where a report may go, told through the command line: never into an input (also through a
// symbolic link), never over an input, home or root; and two builds at once into one folder.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../src/cli.js';
import { openReportFolder } from '../src/output/report-folder.js';
import { FIXTURES, tempDir } from './support/fixtures.js';
import { withoutRoot } from './support/permissions.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(args: string[], home?: string): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    home: home ?? (await tempDir()),
    isTty: false,
    now: () => new Date('2026-11-30T12:00:00Z'),
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** A folder `in/` holding one session, and `inlink` pointing to it. */
async function inputWithLink(): Promise<string> {
  const root = await tempDir();
  await mkdir(join(root, 'in'));
  await copyFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), join(root, 'in', 'session.jsonl'));
  await symlink(join(root, 'in'), join(root, 'inlink'));
  return root;
}

describe('where a report may go', () => {
  it.each([
    ['in', 'inlink/report'],
    ['inlink', 'in/report'],
    ['inlink', 'inlink/report'],
  ])('regression: refuses input %s with --out %s, writing nothing into the input', async (input, out) => {
    const root = await inputWithLink();
    const result = await run(['build', join(root, input), '--out', join(root, out)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bough: Refusing to write the report to .*: it is inside the input .*\. Choose another --out, outside your inputs\.\n$/);
    expect(await readdir(join(root, 'in'))).toEqual(['session.jsonl']);
    expect((await readdir(root)).sort()).toEqual(['in', 'inlink']);
  });

  // Regression (an outside review of the command line): a Claude Code session file given alone is
  // read with its sub-agents' folder, and a report went into that folder.
  it('refuses --out inside the sub-agents folder a session file given alone is read with', async () => {
    const root = await tempDir();
    await cp(join(FIXTURES, 'claude', 'projects', '-home-ana-shop'), join(root, 'shop'), { recursive: true });
    const session = join(root, 'shop', '11111111-1111-4111-8111-111111111111');
    const result = await run(['build', `${session}.jsonl`, '--out', join(session, 'subagents', 'report')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bough: Refusing to write the report to .*: it is inside the input .*subagents\. Choose another --out, outside your inputs\.\n$/);
    expect(await readdir(join(session, 'subagents'))).not.toContain('report');
  });

  it('names the real place when --out reaches an input through a link', async () => {
    const root = await inputWithLink();
    const result = await run(['build', join(root, 'in'), '--out', join(root, 'inlink', 'report')]);
    expect(result.stderr).toContain(`(${join(root, 'in', 'report')}, through a symbolic link)`);
  });

  it.each([['in'], ['inlink'], ['.']])('refuses --out %s, which is an input or holds one', async (out) => {
    const root = await inputWithLink();
    const result = await run(['build', join(root, 'in'), '--out', join(root, out)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bough: Refusing to write the report to .*: (it is inside the input|the input .* is inside it)/);
    expect(await readdir(join(root, 'in'))).toEqual(['session.jsonl']);
  });

  it('refuses an input file inside --out', async () => {
    const root = await inputWithLink();
    const result = await run(['build', join(root, 'inlink', 'session.jsonl'), '--out', root]);
    expect(result.stderr).toMatch(/^bough: Refusing to write the report to .*: the input .*session\.jsonl is inside it/);
  });

  // Regression: a folder reached through a link below an input was read, and not guarded: the
  // report was written next to the sessions it read.
  it('refuses --out inside a folder, or holding a file, that a link below an input leads to', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'elsewhere', 'proj'), { recursive: true });
    await mkdir(join(root, 'files'));
    await mkdir(join(root, 'sessions'));
    await copyFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), join(root, 'elsewhere', 'proj', 's.jsonl'));
    await copyFile(join(FIXTURES, 'pi', 'errors.jsonl'), join(root, 'files', 'one.jsonl'));
    await symlink(join(root, 'elsewhere', 'proj'), join(root, 'sessions', 'proj'));
    await symlink(join(root, 'files', 'one.jsonl'), join(root, 'sessions', 'one.jsonl'));
    const inside = await run(['build', join(root, 'sessions'), '--out', join(root, 'elsewhere', 'proj', 'report')]);
    expect(inside.code).toBe(1);
    expect(inside.stderr).toMatch(/^bough: Refusing to write the report to .*: it is inside the input .*sessions\/proj\. Choose another --out, outside your inputs\.\n$/);
    expect(await readdir(join(root, 'elsewhere', 'proj'))).toEqual(['s.jsonl']);
    const holding = await run(['build', join(root, 'sessions'), '--out', join(root, 'files')]);
    expect(holding.code).toBe(1);
    expect(holding.stderr).toMatch(/the input .*sessions\/one\.jsonl is inside it/);
    expect(await readdir(join(root, 'files'))).toEqual(['one.jsonl']);
  });

  // Regression (a hostile look): a default folder an agent had not made yet was no input, so the
  // report was written there; the agent's own files then went in beside it (`codex archive`), every
  // later build into it was refused, and each run with no inputs read the report as sessions.
  it('refuses --out where an agent keeps its sessions, though that folder is not there yet', async () => {
    const home = await tempDir();
    await mkdir(join(home, '.codex', 'sessions'), { recursive: true });
    await copyFile(join(FIXTURES, 'codex', 'home', 'sessions', 'rollout-2025-08-01T09-00-00-0195aaaa-0000-7000-8000-000000000009.jsonl'), join(home, '.codex', 'sessions', 'rollout-2025-08-01T09-00-00-0195aaaa-0000-7000-8000-000000000009.jsonl'));
    const result = await run(['build', '--out', join(home, '.codex', 'archived_sessions'), '-q'], home);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`it is inside the input ${join(home, '.codex', 'archived_sessions')}`);
    expect(existsSync(join(home, '.codex', 'archived_sessions'))).toBe(false);
  });

  it('refuses the home folder, also through a link, and the root folder', async () => {
    const home = await tempDir();
    await symlink(home, join(await tempDir(), 'home-link'));
    const session = join(FIXTURES, 'pi', 'minimal-v3.jsonl');
    for (const out of [home, '/']) {
      const result = await run(['build', session, '--out', out], home);
      expect(result.stderr).toMatch(/^bough: Refusing to write the report to .*: choose a folder of its own with --out\.\n$/);
    }
  });

  it('regression: --out that is a link to an empty folder builds the report there, not "ENOTDIR … a bug"', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'link'));
    const result = await run(['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out', join(root, 'link')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await readdir(join(root, 'real'))).toContain('index.html');
  });
});

describe('two builds at once into one folder', () => {
  it('regression: both into a new folder succeed, one after the other, not "ENOTEMPTY … a bug"', async () => {
    const out = join(await tempDir(), 'report');
    const args = ['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out', out, '--quiet'];
    const results = await Promise.all([run(args), run(args), run(args)]);
    expect(results).toEqual([0, 0, 0].map((code) => ({ code, stdout: '', stderr: '' })));
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('</html>');
    expect(await readdir(join(out, '..'))).toEqual(['report']);
  });

  it('the second refuses in a sentence when the first goes on too long', async () => {
    const out = join(await tempDir(), 'report');
    const first = await openReportFolder(out, 'bough test');
    const result = await run(['build', join(FIXTURES, 'pi', 'minimal-v3.jsonl'), '--out', out]);
    await first.abort();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bough: Another bough build \(process \d+, started .*\) is writing the report to .*report; try again when it ends\./);
  });
});

// Regression (a hostile-input review): --out an existing folder of another user's, in a folder of
// one's own, built the whole report beside it, then said the next build would finish the move
// (it could not), leaving a copy of the report there.
describe('an existing --out bough may not write into', () => {
  it('is said before anything is built, and nothing is left beside it', async (context) => {
    const root = await tempDir();
    const parent = join(root, 'mine');
    await mkdir(join(parent, 'theirs'), { recursive: true });
    await chmod(root, 0o755);
    await chmod(parent, 0o777);
    await chmod(join(parent, 'theirs'), 0o755);
    const input = join(parent, 'a.jsonl');
    await copyFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), input);
    await chmod(input, 0o644);
    const out = join(parent, 'theirs');
    const failed = await withoutRoot(() => openReportFolder(out, 'bough test').then(() => 'opened', (error: Error) => error.message));
    if (failed === null) return context.skip('running as root without seteuid: no folder can stop this process');
    expect(failed).toBe(`Cannot write into the report folder ${out}: permission denied. Choose another --out.`);
    expect((await readdir(parent)).sort()).toEqual(['a.jsonl', 'theirs']);
  });
});

// Regression (a review of the command line): a folder of the report it may not write into
// (sessions/ made read-only) stopped the swap halfway, after the whole build: the new index.html
// beside the old summary.json, linking pages never moved in.
describe('a report whose sessions folder bough may not write into', () => {
  it('is said before anything is built, the report left as it was', async (context) => {
    const root = await tempDir();
    await chmod(root, 0o777);
    const out = join(root, 'report');
    const input = join(root, 'a.jsonl');
    await copyFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), input);
    await chmod(input, 0o644);
    expect((await run(['build', input, '--out', out, '--quiet'])).code).toBe(0);
    const index = await readFile(join(out, 'index.html'), 'utf8');
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', '65534:65534', out]);
    await chmod(join(out, 'sessions'), 0o555);
    const failed = await withoutRoot(() => openReportFolder(out, 'bough test').then(() => 'opened', (error: Error) => error.message));
    if (failed === null) return context.skip('running as root without seteuid: no folder can stop this process');
    expect(failed).toBe(`Cannot write into ${join(out, 'sessions')}, a folder of the report: permission denied. Make it writable again (chmod u+w), or choose another --out.`);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe(index);
    expect((await readdir(root)).sort()).toEqual(['a.jsonl', 'report']);
  });
});

// Regression (a hostile-input review): --out reached through a bind mount of an input (a
// container that mounts both ~ and ~/.claude) passed the real-path check, and the report was
// written inside the input.
describe('an --out that is an input by another path no link explains', () => {
  it('is refused, by device and inode', async (context) => {
    const root = await tempDir();
    const input = join(root, 'in');
    const mounted = join(root, 'mnt');
    await mkdir(input);
    await mkdir(mounted);
    await copyFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), join(input, 'a.jsonl'));
    try {
      execFileSync('mount', ['--bind', input, mounted], { stdio: 'ignore' });
    } catch {
      return context.skip('bind mounts need root and a mount namespace that allows them');
    }
    try {
      const result = await run(['build', input, '--out', join(mounted, 'report')]);
      expect(result).toMatchObject({ code: 1, stderr: `bough: Refusing to write the report to ${join(mounted, 'report')}: it is inside the input ${input}. Choose another --out, outside your inputs.\n` });
      expect(await readdir(input)).toEqual(['a.jsonl']);
    } finally {
      execFileSync('umount', [mounted]);
    }
    // A folder inside the input mounted elsewhere (a hostile look at the fix above: the folders
    // above --out are the mount's, not the input's).
    await mkdir(join(input, 'sub'));
    execFileSync('mount', ['--bind', join(input, 'sub'), mounted]);
    try {
      const result = await run(['build', input, '--out', join(mounted, 'report')]);
      expect(result).toMatchObject({ code: 1, stderr: `bough: Refusing to write the report to ${join(mounted, 'report')}: it is inside the input ${input}. Choose another --out, outside your inputs.\n` });
      expect(await readdir(join(input, 'sub'))).toEqual([]);
    } finally {
      execFileSync('umount', [mounted]);
    }
  });
});
