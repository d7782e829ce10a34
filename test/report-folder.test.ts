import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockPathOf } from '../src/output/lock.js';
import { MANIFEST, openReportFolder, removeStagedFile, removeUnfinishedReports, writeStagedFile } from '../src/output/report-folder.js';
import { removeStagedSession } from '../src/session-pages/job.js';
import { archivedLedgerPath } from '../src/archive.js';

import { tempDir } from './support/fixtures.js';

async function writeReport(out: string, files: Record<string, string>): Promise<void> {
  const folder = await openReportFolder(out, 'bough test');
  for (const [path, content] of Object.entries(files)) await folder.write(path, content);
  await folder.commit();
}

describe('report folder', () => {
  it('creates the folder with the files and a manifest of them', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one', 'sessions/a.html': 'a' });
    expect(JSON.parse(await readFile(join(out, MANIFEST), 'utf8')).files).toEqual(['index.html', 'sessions/a.html']);
  });

  it('replaces its own files on a rebuild, removes stale ones, and keeps files the user added', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one', 'sessions/old.html': 'old' });
    await writeFile(join(out, 'my-notes.txt'), 'mine');
    await writeReport(out, { 'index.html': 'two', 'sessions/new.html': 'new' });
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('two');
    expect(existsSync(join(out, 'sessions', 'old.html'))).toBe(false);
    expect(await readFile(join(out, 'my-notes.txt'), 'utf8')).toBe('mine');
    expect((await readdir(dirname(out))).sort()).toEqual(['report']);
  });

  it('leaves the previous report intact when a build is abandoned', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one' });
    const folder = await openReportFolder(out, 'bough test');
    await folder.write('index.html', 'half-written');
    await folder.abort();
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('one');
    expect((await readdir(dirname(out))).sort()).toEqual(['report']);
  });

  it('takes the files a thread wrote into its staging folder once adopted, and only those', async () => {
    const out = join(await tempDir(), 'report');
    const folder = await openReportFolder(out, 'bough test');
    await folder.write('index.html', 'index');
    await writeStagedFile(folder.staging, 'sessions/p/a.html', 'part one');
    await writeStagedFile(folder.staging, 'sessions/p/a-2.html', 'part two');
    await writeStagedFile(folder.staging, 'sessions/p/failed.html', 'taken back');
    removeStagedFile(folder.staging, 'sessions/p/failed.html');
    folder.adopt(['sessions/p/a.html', 'sessions/p/a-2.html']);
    await folder.commit();
    expect(JSON.parse(await readFile(join(out, MANIFEST), 'utf8')).files).toEqual(['index.html', 'sessions/p/a-2.html', 'sessions/p/a.html']);
    expect(await readFile(join(out, 'sessions', 'p', 'a-2.html'), 'utf8')).toBe('part two');
    expect(existsSync(join(out, 'sessions', 'p', 'failed.html'))).toBe(false);
  });

  it('keeps files of the last build where they are, the same files, listed again; a file written after it replaces it', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one', 'sessions/a.html': 'a', 'sessions/b.html': 'b', 'sessions/gone.html': 'gone' });
    const before = (await stat(join(out, 'sessions', 'a.html'))).ino;
    const folder = await openReportFolder(out, 'bough test');
    expect(await folder.keep(['sessions/a.html', 'sessions/b.html'])).toBe(true);
    await folder.write('sessions/b.html', 'b again');
    await folder.write('index.html', 'two');
    await folder.commit();
    expect(JSON.parse(await readFile(join(out, MANIFEST), 'utf8')).files).toEqual(['index.html', 'sessions/a.html', 'sessions/b.html']);
    expect((await stat(join(out, 'sessions', 'a.html'))).ino).toBe(before);
    expect(await readFile(join(out, 'sessions', 'b.html'), 'utf8')).toBe('b again');
    expect(existsSync(join(out, 'sessions', 'gone.html'))).toBe(false);
    expect((await readdir(dirname(out))).sort()).toEqual(['report']);
  });

  it('keeps none of a list when one is not a file the last build wrote as it wrote it', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one', 'sessions/a.html': 'a', 'sessions/b.html': 'b' });
    await writeFile(join(out, 'sessions', 'mine.html'), 'mine');
    const { rm } = await import('node:fs/promises');
    await rm(join(out, 'sessions', 'b.html'));
    await symlink(join(out, 'sessions', 'mine.html'), join(out, 'sessions', 'b.html'));
    const folder = await openReportFolder(out, 'bough test');
    expect(await folder.keep(['sessions/mine.html'])).toBe(false);
    expect(await folder.keep(['sessions/a.html', 'sessions/b.html'])).toBe(false);
    await folder.write('index.html', 'two');
    await folder.commit();
    // Nothing was kept: a.html was not written, so it goes; the link and the user's file stay, unlisted.
    expect(JSON.parse(await readFile(join(out, MANIFEST), 'utf8')).files).toEqual(['index.html']);
    expect(existsSync(join(out, 'sessions', 'a.html'))).toBe(false);
    expect((await lstat(join(out, 'sessions', 'b.html'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(out, 'sessions', 'mine.html'), 'utf8')).toBe('mine');
  });

  it('keeps no link, folder or missing file in a folder of many kept pages (listed once, not looked at one by one)', async () => {
    const out = join(await tempDir(), 'report');
    const pages = Array.from({ length: 150 }, (_, i) => `sessions/s${String(i).padStart(3, '0')}.html`);
    await writeReport(out, { 'index.html': 'one', ...Object.fromEntries(pages.map((page) => [page, page])) });
    const { rm } = await import('node:fs/promises');
    // Past the 64th file asked about in the folder: what its listing says, not lstat.
    await rm(join(out, 'sessions', 's120.html'));
    await symlink(join(out, 'index.html'), join(out, 'sessions', 's120.html'));
    await rm(join(out, 'sessions', 's130.html'));
    await mkdir(join(out, 'sessions', 's130.html'));
    await rm(join(out, 'sessions', 's140.html'));
    const folder = await openReportFolder(out, 'bough test');
    const kept = await Promise.all(pages.map((page) => folder.keep([page])));
    expect(pages.filter((_, i) => !kept[i])).toEqual(['sessions/s120.html', 'sessions/s130.html', 'sessions/s140.html']);
    await folder.write('index.html', 'two');
    await folder.commit();
    const files = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')).files as string[];
    expect(files).toHaveLength(148);
    expect((await lstat(join(out, 'sessions', 's120.html'))).isSymbolicLink()).toBe(true);
  });

  it('never writes through a link put in place of a kept file while the report was built', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one', 'sessions/a.html': 'a' });
    const folder = await openReportFolder(out, 'bough test');
    expect(await folder.keep(['sessions/a.html'])).toBe(true);
    await folder.write('index.html', 'two');
    const { rm } = await import('node:fs/promises');
    const elsewhere = join(await tempDir(), 'theirs.html');
    await writeFile(elsewhere, 'theirs');
    await rm(join(out, 'sessions', 'a.html'));
    await symlink(elsewhere, join(out, 'sessions', 'a.html'));
    await folder.commit();
    // The next build cannot keep it, writes the page anew, and finds the link in the way.
    const next = await openReportFolder(out, 'bough test');
    expect(await next.keep(['sessions/a.html'])).toBe(false);
    await next.write('index.html', 'three');
    await next.write('sessions/a.html', 'a again');
    expect(await next.commit()).toEqual([expect.stringMatching(/^Your file .*sessions\/a\.html is where the report's sessions\/a\.html goes/)]);
    await writeReport(out, { 'index.html': 'four' });
    expect(await readFile(elsewhere, 'utf8')).toBe('theirs');
    expect((await lstat(join(out, 'sessions', 'a.html'))).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(join(out, MANIFEST), 'utf8')).files).toEqual(['index.html']);
  });

  it('never writes through a link the user put where a page of the last report was', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one', 'sessions/a.html': 'a' });
    const elsewhere = join(await tempDir(), 'theirs.html');
    await writeFile(elsewhere, 'theirs');
    const { rm } = await import('node:fs/promises');
    await rm(join(out, 'sessions', 'a.html'));
    await symlink(elsewhere, join(out, 'sessions', 'a.html'));
    const folder = await openReportFolder(out, 'bough test');
    await folder.write('index.html', 'two');
    await folder.write('sessions/a.html', 'a again');
    expect(await folder.commit()).toEqual([expect.stringMatching(/^Your file .*sessions\/a\.html is where the report's sessions\/a\.html goes/)]);
    expect(await readFile(elsewhere, 'utf8')).toBe('theirs');
    expect((await lstat(join(out, 'sessions', 'a.html'))).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(join(out, MANIFEST), 'utf8')).files).toEqual(['index.html']);
  });

  it('takes back every part of a session a thread wrote before it died, the spool of its entries, its archive files and its sub-agents\', and nothing else', async () => {
    const out = join(await tempDir(), 'report');
    const folder = await openReportFolder(out, 'bough test');
    for (const part of ['sessions/p/a.html', 'sessions/p/a-part-2.html', 'sessions/p/a-part-3.html', 'sessions/p/a.html.entries', 'sessions/p/ab.html', 'sessions/p/b-part-2.html', 'sessions/p/b.html.entries']) await writeStagedFile(folder.staging, part, part);
    const [a, aSub, b] = ['pi:/a.jsonl', 'claude:/a/sub.jsonl', 'pi:/b.jsonl'].map(archivedLedgerPath) as [string, string, string];
    for (const file of [a, aSub, b]) await writeStagedFile(folder.staging, file, 'archived');
    removeStagedSession(folder.staging, 'sessions/p/a.html', ['pi:/a.jsonl', 'claude:/a/sub.jsonl']);
    expect((await readdir(join(folder.staging, 'sessions', 'p'))).sort()).toEqual(['ab.html', 'b-part-2.html', 'b.html.entries']);
    expect(await readdir(join(folder.staging, 'archive'))).toEqual([b.split('/').pop()]);
    await folder.abort();
  });

  it('regression: Ctrl-C while a thread writes pages leaves nothing beside --out', async () => {
    // A thread kept creating files while the staging folder was removed: the removal gave up and
    // left a folder without its marker, which no later build would remove.
    const out = join(await tempDir(), 'report');
    const folder = await openReportFolder(out, 'bough test');
    const writer = new Worker(new URL('./support/threads/writer.mjs', import.meta.url), { workerData: { staging: folder.staging } });
    try {
      expect((await once(writer, 'message'))[0]).toBe('writing');
      removeUnfinishedReports();
      const [stopped] = (await once(writer, 'message')) as [{ written: number; error: string }];
      expect(stopped.error).toBe('ENOENT');
      expect(await readdir(dirname(out))).toEqual([]);
    } finally {
      await writer.terminate();
    }
  });

  it('regression: a thread writing after the build was stopped leaves no folder behind', async () => {
    const out = join(await tempDir(), 'report');
    const folder = await openReportFolder(out, 'bough test');
    const staging = folder.staging;
    await folder.abort();
    await expect(writeStagedFile(staging, 'sessions/p/late.html', 'late')).rejects.toThrow();
    expect(existsSync(staging)).toBe(false);
    await expect(writeStagedFile(staging, '../escape.html', 'x')).rejects.toThrow(/safe path/);
  });

  it('never follows a link inside an old report out of it when removing its files', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one', 'sessions/a.html': 'a' });
    const elsewhere = await tempDir();
    await writeFile(join(elsewhere, 'a.html'), 'not the report’s');
    const { rm, symlink } = await import('node:fs/promises');
    await rm(join(out, 'sessions'), { recursive: true });
    await symlink(elsewhere, join(out, 'sessions'));
    await writeReport(out, { 'index.html': 'two' });
    expect(await readFile(join(elsewhere, 'a.html'), 'utf8')).toBe('not the report’s');
  });

  it('refuses a folder that holds files bough did not write', async () => {
    const out = join(await tempDir(), 'precious');
    await mkdir(out);
    await writeFile(join(out, 'thesis.tex'), 'years of work');
    // Named (regression: the sentence did not say which).
    await expect(openReportFolder(out, 'bough test')).rejects.toThrow(`${out} already holds files that bough did not write (thesis.tex).`);
    expect(await readdir(out)).toEqual(['thesis.tex']);
  });

  // Regression: a report backed up with `cp -r report/* backup/` (its hidden list of files left
  // behind) was called a folder of files bough did not write, and the user told to remove it.
  it('says how to mend a report copied without its list of files, and touches nothing', async () => {
    const out = join(await tempDir(), 'backup');
    await mkdir(join(out, 'archive'), { recursive: true });
    await writeFile(join(out, 'index.html'), '<!doctype html>');
    await writeFile(join(out, 'summary.json'), '{}');
    await expect(openReportFolder(out, 'bough test')).rejects.toThrow(/looks like a bough report copied without \.bough-manifest\.json.*cp -a copies it/);
    expect((await readdir(out)).sort()).toEqual(['archive', 'index.html', 'summary.json']);
  });

  // Regression: a new folder a file manager had opened (.DS_Store) or \`git init\` had made was refused.
  it('writes into a folder that holds only a file manager\'s or git\'s files, and leaves them', async () => {
    const out = join(await tempDir(), 'pages');
    await mkdir(join(out, '.git'), { recursive: true });
    await writeFile(join(out, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(out, '.DS_Store'), 'finder');
    await writeReport(out, { 'index.html': 'one' });
    expect((await readdir(out)).sort()).toEqual(['.DS_Store', '.bough-manifest.json', '.git', 'index.html']);
    expect(await readFile(join(out, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    await writeReport(out, { 'index.html': 'two' });
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('two');
    expect(await readFile(join(out, '.DS_Store'), 'utf8')).toBe('finder');
  });

  it('refuses a folder whose list of bough\'s files is damaged, saying so, and changes nothing in it', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one' });
    await writeFile(join(out, 'thesis.tex'), 'years of work');
    await writeFile(join(out, '.bough-manifest.json'), '{"generator":"bough test","files":["index.ht');
    await expect(openReportFolder(out, 'bough test')).rejects.toThrow(/\.bough-manifest\.json, bough's list of the files it wrote there, is damaged/);
    expect((await readdir(out)).sort()).toEqual(['.bough-manifest.json', 'index.html', 'thesis.tex']);
  });

  it.each(['../escape.html', '/etc/passwd', 'sessions/../../x.html', 'a b.html', ''])('refuses to write the unsafe path %j', async (path) => {
    const folder = await openReportFolder(join(await tempDir(), 'report'), 'bough test');
    await expect(folder.write(path, 'x')).rejects.toThrow(/Refusing to write/);
    await folder.abort();
  });

  it('swaps files, not folders: the report folder and the user’s files in it stay where they are', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one', 'sessions/a.html': 'a' });
    await writeFile(join(out, 'sessions', 'my-notes.txt'), 'mine');
    const before = { folder: (await stat(out)).ino, notes: (await stat(join(out, 'sessions', 'my-notes.txt'))).ino };
    await writeReport(out, { 'index.html': 'two' });
    expect({ folder: (await stat(out)).ino, notes: (await stat(join(out, 'sessions', 'my-notes.txt'))).ino }).toEqual(before);
    expect(await readdir(join(out, 'sessions'))).toEqual(['my-notes.txt']);
  });

  it('regression: a file of the user’s where a new page goes is kept, said, and left out of the manifest', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one' });
    await mkdir(join(out, 'sessions'));
    await writeFile(join(out, 'sessions', 'a.html'), 'mine');
    const folder = await openReportFolder(out, 'bough test');
    await folder.write('index.html', 'two');
    await folder.write('sessions/a.html', 'the page');
    const warnings = await folder.commit();
    expect(warnings).toEqual([expect.stringMatching(/^Your file .*sessions\/a\.html is where the report's sessions\/a\.html goes; bough left yours in place/)]);
    expect(await readFile(join(out, 'sessions', 'a.html'), 'utf8')).toBe('mine');
    expect(JSON.parse(await readFile(join(out, MANIFEST), 'utf8')).files).toEqual(['index.html']);
    await writeReport(out, { 'index.html': 'three' });
    expect(await readFile(join(out, 'sessions', 'a.html'), 'utf8')).toBe('mine');
  });

  // Regression (an outside review of the command line): a file put where the folder of pages goes
  // was said as each page being a file of the user's ("3 files of yours … (sessions/a.html, …)"),
  // naming files that are not there.
  it('says a file of the user’s where a folder of pages goes, once, with how many pages it kept out', async () => {
    const out = join(await tempDir(), 'report');
    await writeReport(out, { 'index.html': 'one', 'sessions/a.html': 'a' });
    const { rm } = await import('node:fs/promises');
    await rm(join(out, 'sessions'), { recursive: true });
    await writeFile(join(out, 'sessions'), 'mine');
    await mkdir(join(out, 'projects'));
    await writeFile(join(out, 'projects', 'p.html'), 'mine too');
    const folder = await openReportFolder(out, 'bough test');
    await folder.write('index.html', 'two');
    for (const page of ['sessions/a.html', 'sessions/b.html', 'sessions/c.html', 'projects/p.html']) await folder.write(page, 'the page');
    expect(await folder.commit()).toEqual([
      `Your file ${join(out, 'sessions')} is where the report's folder sessions/ goes; bough left it in place and did not write the 3 files of the report in that folder. Move or rename your file and build again.`,
      `Your file ${join(out, 'projects', 'p.html')} is where the report's projects/p.html goes; bough left yours in place and did not write that page. Move or rename your file and build again.`,
    ]);
    expect(await readFile(join(out, 'sessions'), 'utf8')).toBe('mine');
    expect(JSON.parse(await readFile(join(out, MANIFEST), 'utf8')).files).toEqual(['index.html']);
    // A folder where a file that is no page goes (regression, a hostile look: "Your file … page").
    await mkdir(join(out, 'summary.json'));
    const next = await openReportFolder(out, 'bough test');
    await next.write('index.html', 'three');
    await next.write('summary.json', '{}');
    expect(await next.commit()).toEqual([
      `Your folder ${join(out, 'summary.json')} is where the report's summary.json goes; bough left yours in place and did not write that file. Move or rename your folder and build again.`,
    ]);
  });

  // Regression: staged beside --out, on the parent's file system, a build into a mount point (a
  // Docker volume, a USB disk) could not rename its files in, and promised the next build would.
  // Regression (a README audit): a USB disk's root, holding its system folders, was refused as
  // holding "files bough did not write".
  it('builds into a folder holding only what a disk or file manager puts there, and leaves those be', async () => {
    const out = join(await tempDir(), 'usb');
    const furniture = ['System Volume Information', '$RECYCLE.BIN', '.Trashes', '.Spotlight-V100', '.fseventsd', '.Trash-1000', '.directory', '._notes.txt'];
    await mkdir(out);
    for (const name of furniture) await mkdir(join(out, name));
    await writeReport(out, { 'index.html': 'one' });
    expect((await readdir(out)).sort()).toEqual([MANIFEST, 'index.html', ...furniture].sort());
    const other = join(await tempDir(), 'other');
    await mkdir(other);
    await writeFile(join(other, 'notes.txt'), 'mine');
    await expect(writeReport(other, { 'index.html': 'one' })).rejects.toThrow('already holds files that bough did not write (notes.txt)');
  });

  it('builds into a folder that is a mount point, again and again, and leaves nothing behind', async (context) => {
    const parent = await tempDir();
    const out = join(parent, 'mnt');
    await mkdir(out);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', out], { stdio: 'ignore' });
    } catch {
      return context.skip('cannot mount a file system here');
    }
    try {
      await mkdir(join(out, 'lost+found'));
      await writeReport(out, { 'index.html': 'one', 'sessions/a.html': 'a' });
      await writeReport(out, { 'index.html': 'two', 'sessions/b.html': 'b' });
      expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('two');
      expect((await readdir(out)).sort()).toEqual([MANIFEST, 'index.html', 'lost+found', 'sessions']);
      expect(await readdir(join(out, 'sessions'))).toEqual(['b.html']);
      expect(await readdir(parent)).toEqual(['mnt']);
    } finally {
      execFileSync('umount', [out], { stdio: 'ignore' });
    }
  });

  // Regression (an outside review of the command line): a folder of one file system mounted on
  // another folder of it (a bind mount, as a container mounts a volume) has the same device
  // number, and no rename crosses mounts: staged beside it, the build failed to move its files in.
  it('builds into a bind mount of a folder on the same file system', async (context) => {
    const parent = await tempDir();
    const real = join(parent, 'real');
    const out = join(parent, 'mnt');
    await mkdir(real);
    await mkdir(out);
    try {
      execFileSync('mount', ['--bind', real, out], { stdio: 'ignore' });
    } catch {
      return context.skip('cannot bind-mount a folder here');
    }
    try {
      await writeReport(out, { 'index.html': 'one', 'sessions/a.html': 'a' });
      await writeReport(out, { 'index.html': 'two', 'sessions/b.html': 'b' });
      expect(await readFile(join(real, 'index.html'), 'utf8')).toBe('two');
      expect((await readdir(out)).sort()).toEqual([MANIFEST, 'index.html', 'sessions']);
      expect(await readdir(join(out, 'sessions'))).toEqual(['b.html']);
      expect((await readdir(parent)).sort()).toEqual(['mnt', 'real']);
    } finally {
      execFileSync('umount', [out], { stdio: 'ignore' });
    }
  });

  // Regression (the same review): a mount point whose parent may not be written (a USB disk
  // under /media, which only root may write) was refused, its lock going beside it.
  it('builds into a mount point whose parent may not be written', async (context) => {
    const parent = await tempDir();
    const out = join(parent, 'usb');
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', parent], { stdio: 'ignore' });
    } catch {
      return context.skip('cannot mount a file system here');
    }
    let mounted = false;
    try {
      await mkdir(out);
      execFileSync('mount', ['-o', 'remount,ro', parent], { stdio: 'ignore' });
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', out], { stdio: 'ignore' });
      mounted = true;
      await writeReport(out, { 'index.html': 'one', 'sessions/a.html': 'a' });
      await writeReport(out, { 'index.html': 'two', 'sessions/b.html': 'b' });
      expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('two');
      expect((await readdir(out)).sort()).toEqual([MANIFEST, 'index.html', 'sessions']);
      expect(await readdir(join(out, 'sessions'))).toEqual(['b.html']);
    } finally {
      if (mounted) execFileSync('umount', [out], { stdio: 'ignore' });
      execFileSync('umount', [parent], { stdio: 'ignore' });
    }
  });

  it('regression: --out that is a link to an empty folder is followed; the link stays a link', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'link'));
    await writeReport(join(root, 'link'), { 'index.html': 'one' });
    await writeReport(join(root, 'link'), { 'index.html': 'two' });
    expect(await readFile(join(root, 'real', 'index.html'), 'utf8')).toBe('two');
    expect((await lstat(join(root, 'link'))).isSymbolicLink()).toBe(true);
    expect((await readdir(root)).sort()).toEqual(['link', 'real']);
  });

  it('refuses --out that is a link pointing nowhere, in a sentence', async () => {
    const root = await tempDir();
    await symlink(join(root, 'gone'), join(root, 'link'));
    await expect(openReportFolder(join(root, 'link'), 'bough test')).rejects.toThrow(/is a symbolic link to .*gone, which does not exist/);
  });

  it('regression: the next build removes what a killed build left, and only folders bough made', async () => {
    const root = await tempDir();
    const out = join(root, 'report');
    await writeReport(out, { 'index.html': 'one' });
    const killed = await openReportFolder(out, 'bough test');
    await killed.write('index.html', 'never finished');
    await writeFile(lockPathOf(out), JSON.stringify({ pid: await deadPid(), host: hostname(), started: 'earlier' }));
    await mkdir(join(root, 'report.bough-tmp-deadbeef'));
    await writeFile(join(root, 'report.bough-tmp-deadbeef', 'mine.txt'), 'a folder of the user’s with a name like bough’s');
    await mkdir(join(root, 'report.bough-old-0123abcd'));
    await writeReport(out, { 'index.html': 'two' });
    expect((await readdir(root)).sort()).toEqual(['report', 'report.bough-old-0123abcd', 'report.bough-tmp-deadbeef']);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('two');
  });

  it('regression: a second build into the same folder waits, then refuses in a sentence', async () => {
    const out = join(await tempDir(), 'report');
    const first = await openReportFolder(out, 'bough test');
    await expect(openReportFolder(out, 'bough test', { lockWait: 300 })).rejects.toThrow(
      /^Another bough build \(process \d+, started .*\) is writing the report to .*report; try again when it ends\. If no build is running, remove .*report\.bough-lock\.$/,
    );
    await first.write('index.html', 'first');
    await first.commit();
    await writeReport(out, { 'index.html': 'second' });
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('second');
  });

  it.runIf(existsSync('/proc/self/stat'))('takes over a lock whose process id now belongs to another process', async () => {
    const out = join(await tempDir(), 'report');
    await writeFile(lockPathOf(out), JSON.stringify({ pid: process.pid, host: hostname(), started: 'before a reboot', boot: '1' }));
    await writeReport(out, { 'index.html': 'one' });
    expect((await readdir(dirname(out))).sort()).toEqual(['report']);
  });

  it('a second build waits for the first to end, then replaces its report', async () => {
    const out = join(await tempDir(), 'report');
    const first = await openReportFolder(out, 'bough test');
    const second = openReportFolder(out, 'bough test');
    await first.write('index.html', 'first');
    await new Promise((done) => setTimeout(done, 200));
    await first.commit();
    const folder = await second;
    await folder.write('index.html', 'second');
    await folder.commit();
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('second');
    expect((await readdir(dirname(out))).sort()).toEqual(['report']);
  });
});

/** The id of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((done) => child.on('exit', done));
  return child.pid ?? 0;
}
