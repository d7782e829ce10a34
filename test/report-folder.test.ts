import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MANIFEST, openReportFolder } from '../src/output/report-folder.js';
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
    await expect(openReportFolder(out, 'bough test')).rejects.toThrow(/already holds files that bough did not write/);
    expect(await readdir(out)).toEqual(['thesis.tex']);
  });

  it.each(['../escape.html', '/etc/passwd', 'sessions/../../x.html', 'a b.html', ''])('refuses to write the unsafe path %j', async (path) => {
    const folder = await openReportFolder(join(await tempDir(), 'report'), 'bough test');
    await expect(folder.write(path, 'x')).rejects.toThrow(/Refusing to write/);
    await folder.abort();
  });
});
