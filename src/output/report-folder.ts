// The only module that writes. A build goes into a temporary folder beside --out and is swapped
// in at the end, so an interrupted build leaves the previous report intact. Only files bough
// wrote (listed in its manifest) are ever replaced or removed.

import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { BoughError } from '../errors.js';
import { filesUnder } from '../files-under.js';

export const MANIFEST = '.bough-manifest.json';

interface Manifest {
  generator: string;
  files: string[];
}

export interface ReportFolder {
  /** Writes one file, at a path relative to the report root. */
  write(path: string, content: string | Uint8Array): Promise<void>;
  /** Swaps the finished report in place of the previous one. */
  commit(): Promise<void>;
  /** Removes the unfinished report; the previous one stays. */
  abort(): Promise<void>;
}

/** Relative paths bough writes: lower-case names, digits, dots, dashes and underscores, no "..". */
const SAFE_RELATIVE = /^(?:[a-z0-9_-][a-z0-9._-]*\/)*[a-z0-9_-][a-z0-9._-]*$/i;

export async function openReportFolder(outDir: string, generator: string): Promise<ReportFolder> {
  const out = resolve(outDir);
  const previous = await previousManifest(out);
  const staging = `${out}.bough-tmp-${randomBytes(4).toString('hex')}`;
  await mkdir(staging, { recursive: true }).catch((error: unknown) => {
    throw new BoughError(`Cannot create the report folder next to ${out}: ${(error as Error).message}. Choose another --out.`, { cause: error });
  });
  unfinished.add(staging);
  const written = new Set<string>();

  return {
    async write(path, content) {
      const target = safeTarget(staging, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content, { flag: 'wx' });
      written.add(path);
    },
    async commit() {
      const manifest: Manifest = { generator, files: [...written].sort() };
      await writeFile(join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
      unfinished.delete(staging);
      if (previous === null) {
        await rename(staging, out);
        return;
      }
      const retired = `${out}.bough-old-${randomBytes(4).toString('hex')}`;
      await rename(out, retired);
      await rename(staging, out);
      await keepForeignFiles(retired, out, new Set([...previous.files, MANIFEST]));
      await removeOwnFiles(retired, previous.files);
    },
    async abort() {
      unfinished.delete(staging);
      await rm(staging, { recursive: true, force: true });
    },
  };
}

/** Staging folders of builds still running, removed if the process is interrupted. */
const unfinished = new Set<string>();

/** For a signal handler: removes unfinished staging folders, synchronously. The previous report is untouched. */
export function removeUnfinishedReports(): void {
  for (const staging of unfinished) rmSync(staging, { recursive: true, force: true });
  unfinished.clear();
}

function safeTarget(root: string, path: string): string {
  if (!SAFE_RELATIVE.test(path) || path.split('/').some((part) => part === '..' || part === '.')) {
    throw new BoughError(`Refusing to write ${JSON.stringify(path)}: not a safe path inside the report.`);
  }
  const target = resolve(root, path);
  if (!target.startsWith(root + sep)) throw new BoughError(`Refusing to write outside the report folder: ${path}`);
  return target;
}

/** The previous report's manifest; null when --out does not exist or is empty. Refuses a folder bough did not write. */
async function previousManifest(out: string): Promise<Manifest | null> {
  const info = await stat(out).catch(() => null);
  if (info === null) return null;
  if (!info.isDirectory()) throw new BoughError(`${out} exists and is not a folder. Choose another --out.`);
  const names = await readdir(out);
  if (names.length === 0) {
    await rmdir(out);
    return null;
  }
  const text = await readFile(join(out, MANIFEST), 'utf8').catch(() => null);
  const manifest = text === null ? null : parseManifest(text);
  if (manifest === null) {
    throw new BoughError(
      `${out} already holds files that bough did not write. Choose an empty or new folder with --out, or remove that one.`,
    );
  }
  return manifest;
}

function parseManifest(text: string): Manifest | null {
  try {
    const value = JSON.parse(text) as Partial<Manifest>;
    return Array.isArray(value.files) && value.files.every((f) => typeof f === 'string')
      ? { generator: String(value.generator ?? ''), files: value.files }
      : null;
  } catch {
    return null;
  }
}

/** Files the user added to an old report are moved into the new one, never deleted. */
async function keepForeignFiles(retired: string, out: string, own: Set<string>): Promise<void> {
  for (const path of await filesUnder(retired, { links: true })) {
    if (own.has(path)) continue;
    const target = join(out, path);
    if (await stat(target).catch(() => null)) continue;
    await mkdir(dirname(target), { recursive: true });
    await rename(join(retired, path), target);
  }
}

async function removeOwnFiles(retired: string, files: readonly string[]): Promise<void> {
  const root = await realpath(retired);
  for (const path of files) {
    if (!SAFE_RELATIVE.test(path)) continue;
    // A folder inside the old report replaced by a link must not lead the removal elsewhere.
    const folder = await realpath(dirname(join(retired, path))).catch(() => null);
    if (folder === null || (folder !== root && !folder.startsWith(root + sep))) continue;
    await rm(join(retired, path), { force: true });
  }
  await rm(join(retired, MANIFEST), { force: true });
  // Folders left empty go too; anything unexpected keeps the old folder (and its contents) in place.
  const remaining = await filesUnder(retired, { links: true });
  if (remaining.length === 0) await rm(retired, { recursive: true, force: true });
}
