// A build killed at every step of its final swap (SIGKILL, a power cut): the user's files never
// leave --out, and the next build finds the previous report or the new one, whole.

import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { lockPathOf } from '../src/output/lock.js';
import { MANIFEST, openReportFolder } from '../src/output/report-folder.js';
import { tempDir } from './support/fixtures.js';

/** Stops the process, as far as the file system can tell, before the n-th synchronous change. */
const kill = vi.hoisted(() => ({ after: Number.POSITIVE_INFINITY, steps: 0 }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const step =
    <A extends unknown[], R>(change: (...args: A) => R) =>
    (...args: A): R => {
      if (++kill.steps > kill.after) throw new Error('killed');
      return change(...args);
    };
  return {
    ...real,
    renameSync: step(real.renameSync),
    unlinkSync: step(real.unlinkSync),
    rmSync: step(real.rmSync),
    rmdirSync: step(real.rmdirSync),
    writeFileSync: step(real.writeFileSync),
    mkdirSync: step(real.mkdirSync),
    linkSync: step(real.linkSync),
  };
});

type Files = Record<string, string>;

const OLD: Files = { 'index.html': 'old', 'sessions/a.html': 'old a', 'sessions/b.html': 'old b' };
const NEW: Files = { 'index.html': 'new', 'sessions/a.html': 'new a', 'sessions/c.html': 'new c', 'projects/p.html': 'new p', 'assets/x.css': 'new x' };
const USERS: Files = { 'notes.txt': 'mine', 'sessions/mine.txt': 'mine too', 'projects/p.html': 'my own p' };
const NEW_PLACED = Object.fromEntries(Object.entries(NEW).filter(([path]) => !(path in USERS)));

async function writeReport(out: string, files: Files, killAfter = Number.POSITIVE_INFINITY, keep: readonly string[] = []): Promise<void> {
  const folder = await openReportFolder(out, 'bough test');
  if (!(await folder.keep(keep))) throw new Error('not kept');
  for (const [path, content] of Object.entries(files)) await folder.write(path, content);
  kill.steps = 0;
  kill.after = killAfter;
  try {
    await folder.commit();
  } finally {
    kill.after = Number.POSITIVE_INFINITY;
  }
}

async function contents(out: string, paths: readonly string[]): Promise<Files> {
  const found: Files = {};
  for (const path of paths) if (existsSync(join(out, path))) found[path] = await readFile(join(out, path), 'utf8');
  return found;
}

async function reportIn(out: string): Promise<Files> {
  if (!existsSync(join(out, MANIFEST))) return {};
  return contents(out, JSON.parse(await readFile(join(out, MANIFEST), 'utf8')).files);
}

/** The killed process's lock stays behind; its process id is one that has ended. */
async function markLockDead(out: string): Promise<void> {
  if (existsSync(lockPathOf(out))) await writeFile(lockPathOf(out), JSON.stringify({ pid: 2 ** 22 + 1, host: hostname(), started: 'earlier' }));
}

/** What the next build does before writing anything: finish or undo what the killed one left. */
async function nextBuildStarts(out: string): Promise<void> {
  await markLockDead(out);
  await (await openReportFolder(out, 'bough test')).abort();
}

describe('a build killed during its final swap', () => {
  it('never takes a file of the user’s out of --out, and the next build finds one whole report', async () => {
    const outcomes = new Set<string>();
    for (let killAfter = 0; ; killAfter++) {
      const out = join(await tempDir(), 'report');
      await writeReport(out, OLD);
      for (const [path, content] of Object.entries(USERS)) {
        await mkdir(dirname(join(out, path)), { recursive: true });
        await writeFile(join(out, path), content);
      }
      const killed = await writeReport(out, NEW, killAfter).then(
        () => false,
        () => true,
      );
      expect(await contents(out, Object.keys(USERS)), `killed after ${killAfter} steps`).toEqual(USERS);
      await nextBuildStarts(out);
      expect(await contents(out, Object.keys(USERS)), `killed after ${killAfter} steps`).toEqual(USERS);
      const report = await reportIn(out);
      expect([OLD, NEW_PLACED], `killed after ${killAfter} steps`).toContainEqual(report);
      expect(await readdir(dirname(out)), `killed after ${killAfter} steps`).toEqual(['report']);
      outcomes.add(isDeepStrictEqual(report, OLD) ? 'old' : 'new');
      if (!killed) break;
    }
    expect([...outcomes].sort()).toEqual(['new', 'old']);
  });

  it('with files kept from the previous report: the next build finds the previous report or the new one with them, whole', async () => {
    const kept = ['sessions/b.html'];
    const withKept = { ...NEW_PLACED, 'sessions/b.html': 'old b' };
    const outcomes = new Set<string>();
    for (let killAfter = 0; ; killAfter++) {
      const out = join(await tempDir(), 'report');
      await writeReport(out, OLD);
      await mkdir(join(out, 'projects'), { recursive: true });
      await writeFile(join(out, 'projects', 'p.html'), USERS['projects/p.html'] as string);
      const killed = await writeReport(out, NEW, killAfter, kept).then(
        () => false,
        () => true,
      );
      await nextBuildStarts(out);
      const report = await reportIn(out);
      expect([OLD, withKept], `killed after ${killAfter} steps`).toContainEqual(report);
      expect(await readFile(join(out, 'projects', 'p.html'), 'utf8')).toBe(USERS['projects/p.html']);
      expect(await readdir(dirname(out)), `killed after ${killAfter} steps`).toEqual(['report']);
      outcomes.add(isDeepStrictEqual(report, OLD) ? 'old' : 'new');
      if (!killed) break;
    }
    expect([...outcomes].sort()).toEqual(['new', 'old']);
  });

  it('of a first build leaves no report or the whole new one, and nothing beside it', async () => {
    for (let killAfter = 0; ; killAfter++) {
      const out = join(await tempDir(), 'report');
      const killed = await writeReport(out, NEW, killAfter).then(
        () => false,
        () => true,
      );
      await nextBuildStarts(out);
      expect([{}, NEW], `killed after ${killAfter} steps`).toContainEqual(await reportIn(out));
      const left = await readdir(dirname(out));
      expect(left.length === 0 || (left.length === 1 && left[0] === 'report'), `killed after ${killAfter} steps: ${left.join(', ')}`).toBe(true);
      if (existsSync(out)) expect((await readdir(out)).sort(), `killed after ${killAfter} steps`).toEqual([MANIFEST, 'assets', 'index.html', 'projects', 'sessions'].sort());
      if (!killed) break;
    }
  });
});
