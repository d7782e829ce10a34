// The only module that writes. A build goes into a staging folder beside --out (inside it, on a
// mount point) and is moved in at the end. The --out folder itself, and every file in it that
// bough did not write, stays where it is: only bough's own files (listed in its manifest) are
// moved out, replaced or removed.

import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, lstatSync, mkdirSync, openSync, type Stats, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { BoughError, troubleWords } from '../errors.js';
import { whyUnwritable } from '../file-problems.js';
import { LOCK_INSIDE, LOCK_WAIT_MS, lockPathOf, lockReportFolder, releaseHeldLocks, type ReportLock } from './lock.js';
import { realPathOf } from './out-path.js';
import { makeFolderSync } from '../make-folder.js';

export const MANIFEST = '.bough-manifest.json';
/** In every staging and retired folder bough makes: what lets a later build remove a leftover one, and only those. */
export const MARKER = '.bough-folder';
/** In a staging folder whose swap has begun: what to move, so the next build can finish a swap cut short. */
const JOURNAL = '.bough-swap.json';
const STAGING_INFIX = '.bough-tmp-';
const RETIRED_INFIX = '.bough-old-';
const SUFFIX = /^[0-9a-f]{8}$/;

interface Manifest {
  generator: string;
  files: string[];
}

/** The moves of one swap, written before the first of them. */
interface Journal {
  generator: string;
  /** Name of the folder beside --out that the previous report's files are moved into. */
  retired: string;
  /** The previous report's files the new one does not have, moved out of --out. */
  moveOut: string[];
  /** The new report's files, moved from staging into --out where nothing of the user's is in the way. */
  moveIn: string[];
  /** The previous report's files the new one writes again: each replaced where it is, in one rename. */
  replace: string[];
  /** The previous report's files that are the new report's too, as they are: they stay in --out. */
  stay: string[];
}

export interface ReportFolderOptions {
  /** How long to wait for another build writing the same folder, in milliseconds. */
  lockWait?: number;
}

export interface ReportFolder {
  /** Writes one file, at a path relative to the report root; a large one in pieces, each written as it comes. */
  write(path: string, content: string | Uint8Array | Iterable<string>): Promise<void>;
  /** The folder the report is built in, for a thread to write files into (`writeStagedFile`); they are this build's once adopted. */
  readonly staging: string;
  /** Takes files a thread wrote into the staging folder as this build's. */
  adopt(paths: readonly string[]): void;
  /**
   * Opens a file written a line at a time as its lines come (the archive's records, one per session
   * as each is done), so that they are never held together; it is this build's once closed.
   */
  openLines(path: string): LinesFile;
  /**
   * Keeps files of the last build as this build's, unchanged: left where they are, not copied or
   * linked (a rebuild keeps most pages, and a history of many sessions has tens of thousands). All
   * or none: false when the last build left one of them not as it wrote it. Writing one afterwards
   * replaces it.
   */
  keep(paths: readonly string[]): Promise<boolean>;
  /**
   * Lists a file of the last build's that is gone from the folder (an archived ledger lost) as
   * this build's still, so that one put back there from a backup is the report's, not the user's;
   * false when something else is in its place.
   */
  expect(path: string): boolean;
  /** Reads a file the last build wrote, or null. */
  previous(path: string): Promise<Buffer | null>;
  /** The sha256 of a file as this build has it (written, or kept from the last build), read a piece at a time; null when it has none. */
  currentHash(path: string): Promise<string | null>;
  /** The files the last build wrote (its manifest), from the report root. */
  readonly previousFiles: readonly string[];
  /** The size of a file the last build wrote, as it is now in --out; null when it has none there. */
  previousSize(path: string): number | null;
  /** The same with its modification time (ms, as the file system has it): one look at the file for both. */
  previousFile(path: string): { size: number; time: number } | null;
  /** The files this build has so far (written, or kept from the last build) whose paths match, from the report root, and each one's size. */
  currentSizes(match: (path: string) => boolean): Map<string, number>;
  /** The latest modification time (ms, as the file system has it) of those files; null when there are none. */
  currentLatest(match: (path: string) => boolean): number | null;
  /** Moves the finished report into --out. Returns warnings: files of the user's that kept a page out. */
  commit(): Promise<string[]>;
  /** Removes the unfinished report; the previous one stays. */
  abort(): Promise<void>;
}

export interface LinesFile {
  /** Adds a line (its line break is added). */
  add(line: string): void;
  close(): void;
}

/** Lines held before they are written: one write per batch, not per line (30,000 sessions make 30,000 lines). */
const LINES_BATCH = 256 * 1024;

/** Writes all of `bytes` at the file's position: a write may take fewer than it is given. */
export function writeWhole(file: number, bytes: Uint8Array, at: number | null = null): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(file, bytes, done, bytes.length - done, at === null ? null : at + done);
}

/** Relative paths bough writes: lower-case names, digits, dots, dashes and underscores, no "..". */
const SAFE_RELATIVE = /^(?:[a-z0-9_-][a-z0-9._-]*\/)*[a-z0-9_-][a-z0-9._-]*$/i;

/**
 * Opens --out for one build: follows a symbolic link at --out (the report goes where it points),
 * takes the folder's lock, finishes or removes what an interrupted build left, and starts staging.
 */
export async function openReportFolder(outDir: string, generator: string, options: ReportFolderOptions = {}): Promise<ReportFolder> {
  const out = await realPathOf(outDir);
  try {
    makeFolderSync(dirname(out));
  } catch (error) {
    throw new BoughError(`Cannot create the folder ${dirname(out)} for the report: ${whyUnwritable(error)}. Choose another --out.`, { cause: error });
  }
  refuseUnwritableFolder(out);
  // Beside --out, or in it where its parent may not be written (a USB disk mounted under /media).
  const lockPath = isFolder(out) && writeProblem(dirname(out)) !== null ? join(out, LOCK_INSIDE) : lockPathOf(out);
  const lock = await lockReportFolder(out, options.lockWait ?? LOCK_WAIT_MS, lockPath);
  let staging: string;
  let previous: Manifest | null;
  try {
    finishInterruptedBuilds(out);
    previous = await previousManifest(out);
    if (previous !== null) refuseUnwritableSubfolders(out, previous.files);
    staging = join(workPlaceOf(out), `${basename(out)}${STAGING_INFIX}${randomBytes(4).toString('hex')}`);
    makeBoughFolder(staging, 'staging');
  } catch (error) {
    lock.release();
    throw error instanceof BoughError
      ? error
      : new BoughError(`Cannot prepare the report folder ${out}: ${troubleWords(error) ?? (error as Error).message}. ${troubleWords(error) === null ? 'Choose another --out.' : 'Make room or fix that, or choose another --out.'}`, { cause: error });
  }
  unfinished.set(staging, { lock, earlier: previous !== null });
  /** Files written into the staging folder, from the report root. */
  const written = new Set<string>();
  /** Files of the last build kept as they are, in --out. */
  const kept = new Set<string>();
  /**
   * The folders of --out, each looked at once by all the files kept, and listed once many are
   * (until the swap, bough changes nothing in --out).
   */
  const outFolders = realFolders(out, { listFolders: true });
  /** Files the last build wrote (its manifest): only those are ever kept or read back. */
  const earlier = new Set(previous?.files ?? []);
  let committing = false;
  // A file of the last build's as it is in --out: its size and time, one look at it.
  const previousFile = (path: string): { size: number; time: number } | null => {
    if (!earlier.has(path)) return null;
    const entry = lstatOf(safeTarget(out, path));
    return entry?.isFile() ? { size: entry.size, time: entry.mtimeMs } : null;
  };
  const readPrevious = async (path: string): Promise<Buffer | null> => {
    const source = safeTarget(out, path);
    if (!earlier.has(path) || !lstatOf(source)?.isFile()) return null;
    return readFile(source).catch(() => null);
  };
  const sameAsPrevious = async (path: string, bytes: Uint8Array): Promise<boolean> => {
    if (!earlier.has(path) || lstatOf(safeTarget(out, path))?.size !== bytes.length) return false;
    const before = await readPrevious(path);
    return before !== null && before.equals(bytes);
  };
  /** Files opened a line at a time and not closed yet: closed when the build is abandoned. */
  const openFiles = new Set<number>();

  return {
    async write(path, content) {
      // A file the last build wrote with these very bytes is kept where it is (a project page, an
      // asset a rebuild makes again): only what changed is replaced.
      if (typeof content === 'string' || content instanceof Uint8Array) {
        const bytes = typeof content === 'string' ? Buffer.from(content) : content;
        if (!written.has(path) && (await sameAsPrevious(path, bytes)) && outFolders.holdsOwnFile(path)) {
          kept.add(path);
          return;
        }
      }
      await writeStagedFile(staging, path, content);
      written.add(path);
      kept.delete(path);
    },
    staging,
    adopt(paths) {
      for (const path of paths) {
        written.add(path);
        kept.delete(path);
      }
    },
    openLines(path) {
      const file = openSync(stagedPath(staging, path), 'wx');
      openFiles.add(file);
      let pending: string[] = [];
      let pendingLength = 0;
      const flush = () => {
        if (pending.length === 0) return;
        writeWhole(file, Buffer.from(pending.join('')));
        pending = [];
        pendingLength = 0;
      };
      return {
        add(line) {
          pending.push(line, '\n');
          pendingLength += line.length + 1;
          if (pendingLength >= LINES_BATCH) flush();
        },
        close() {
          try {
            flush();
          } finally {
            openFiles.delete(file);
            closeSync(file);
          }
          written.add(path);
          kept.delete(path);
        },
      };
    },
    async keep(paths) {
      // Only regular files the last build wrote, reached through real folders: never a link or a
      // file a user put in their place. (One put there after this is still never written
      // through: every later move and build looks again.)
      for (const path of paths) {
        if (!earlier.has(path) || written.has(path) || !outFolders.holdsOwnFile(path)) return false;
      }
      for (const path of paths) kept.add(path);
      return true;
    },
    expect(path) {
      if (!earlier.has(path) || written.has(path) || kept.has(path) || lstatOf(safeTarget(out, path)) !== null) return false;
      kept.add(path);
      return true;
    },
    previousFiles: previous?.files ?? [],
    previous: readPrevious,
    previousSize: (path) => previousFile(path)?.size ?? null,
    previousFile,
    currentSizes(match) {
      const sizes = new Map<string, number>();
      for (const path of written) if (match(path)) sizes.set(path, lstatOf(stagedPath(staging, path))?.size ?? 0);
      for (const path of kept) if (!written.has(path) && match(path)) sizes.set(path, lstatOf(safeTarget(out, path))?.size ?? 0);
      return sizes;
    },
    currentLatest(match) {
      let latest: number | null = null;
      const see = (time: number | undefined) => {
        if (time !== undefined && (latest === null || time > latest)) latest = time;
      };
      // Moved into --out as they are: a file keeps the time it was written at.
      for (const path of written) if (match(path)) see(lstatOf(stagedPath(staging, path))?.mtimeMs);
      for (const path of kept) if (!written.has(path) && match(path)) see(lstatOf(safeTarget(out, path))?.mtimeMs);
      return latest;
    },
    async currentHash(path) {
      // In pieces: the records file and summary.json of a long history are tens of MB, more than
      // the build's peak should grow by at its end.
      const source = written.has(path) ? stagedPath(staging, path) : kept.has(path) && earlier.has(path) ? safeTarget(out, path) : null;
      if (source === null || !lstatOf(source)?.isFile()) return null;
      try {
        const hash = createHash('sha256');
        for await (const piece of createReadStream(source)) hash.update(piece as Buffer);
        return hash.digest('hex');
      } catch {
        return null;
      }
    },
    async commit() {
      // Synchronous from here to the end: a signal handler (Ctrl-C) runs only between turns of the
      // event loop, so it finds the previous report or the new one, never half of each.
      committing = true;
      unfinished.delete(staging);
      try {
        const files = [...written].sort();
        if (previous === null && moveWhole(out, staging, { generator, files })) return [];
        const blocked = swap(out, staging, plan(out, previous?.files ?? [], files, [...kept].sort(), generator));
        return inTheWay(out, blocked);
      } catch (error) {
        // Part of the move may be done: the folder holds some of each report until the next build.
        const why = troubleWords(error) ?? (error as Error).message;
        throw new BoughError(
          `Could not finish moving the report into ${out} (${why}): until the next build into it finishes the move, it may hold part of this report and part of the last. No file of yours was moved.`,
          { cause: error },
        );
      } finally {
        lock.release();
      }
    },
    async abort() {
      // After a failed commit the staging folder holds the journal the next build needs.
      if (committing) return;
      unfinished.delete(staging);
      for (const file of openFiles) closeSync(file);
      openFiles.clear();
      try {
        removeStaging(staging);
      } finally {
        lock.release();
      }
    },
  };
}

/**
 * An existing --out that bough may not write into (another user's folder, a read-only mount) is
 * said now, not once a whole report was built beside it and could not be moved in (a copy of it
 * left there, and a promise that the next build finishes the move). Tried by making a folder
 * there: access() asks of the real user, not of the one bough runs as.
 */
function refuseUnwritableFolder(out: string): void {
  if (!statSync(out, { throwIfNoEntry: false })?.isDirectory()) return;
  const why = writeProblem(out);
  if (why !== null) throw new BoughError(`Cannot write into the report folder ${out}: ${why.words}. Choose another --out.`, { cause: why.error });
}

/** Why bough may not write into a folder, found by making one there, or null when it may. */
function writeProblem(folder: string): { words: string; error: unknown } | null {
  const probe = join(folder, `.bough-probe-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(probe);
  } catch (error) {
    return { words: whyUnwritable(error), error };
  }
  rmdirSync(probe);
  return null;
}

/**
 * The same for the folders inside --out that hold the last build's files (sessions/, assets/…):
 * the swap moves files out of and into each, one by one, so one it may not write into stopped it
 * halfway, the new index beside the old summary.json, linking pages never moved in. Only real
 * folders of the report's are tried: a link out of it leads to no folder of bough's.
 */
function refuseUnwritableSubfolders(out: string, files: readonly string[]): void {
  const folders = new Set<string>();
  for (const path of files) {
    if (!SAFE_RELATIVE.test(path)) continue;
    for (let folder = dirname(path); folder !== '.' && !folders.has(folder); folder = dirname(folder)) folders.add(folder);
  }
  const real = realFolders(out);
  for (const folder of [...folders].sort()) {
    if (!real.holdsFolder(folder)) continue;
    const why = writeProblem(join(out, folder));
    if (why !== null) throw new BoughError(`Cannot write into ${join(out, folder)}, a folder of the report: ${why.words}. Make it writable again (chmod u+w), or choose another --out.`, { cause: why.error });
  }
}

/** Staging folders of builds still running, with their locks, removed if the process is interrupted. */
const unfinished = new Map<string, { lock: ReportLock; earlier: boolean }>();

/**
 * For a signal handler: removes unfinished staging folders and releases locks, synchronously. The
 * previous report is untouched. How many there were, and whether any went to a folder holding an
 * earlier report (else no report was there to leave as it was).
 */
export function removeUnfinishedReports(): { removed: number; earlier: boolean } {
  const removed = { removed: unfinished.size, earlier: [...unfinished.values()].some((build) => build.earlier) };
  for (const staging of unfinished.keys()) removeStaging(staging);
  unfinished.clear();
  releaseHeldLocks();
  return removed;
}

/**
 * Removes a staging folder while page-writing threads may still be writing into it: it is first
 * renamed (to another staging name, its marker inside), so that no new file can appear in what is
 * being removed; a thread's next write finds no staging folder and fails. Whatever cannot be
 * removed keeps its marker and staging name: the next build removes it.
 */
function removeStaging(staging: string): void {
  let doomed = staging;
  try {
    doomed = `${staging.slice(0, -8)}${randomBytes(4).toString('hex')}`;
    renameSync(staging, doomed);
  } catch {
    doomed = staging;
  }
  try {
    // Retries cover a file whose creation was under way as the removal began.
    removeMarkedFolder(doomed, { maxRetries: 3, retryDelay: 20 });
  } catch {
    // Left with its marker (if the removal had not reached it): the next build removes it.
  }
}

/**
 * Writes one file of a build into its staging folder, from any thread. Folders are made below the
 * staging folder, never the staging folder itself: once Ctrl-C has removed it, a thread still
 * writing fails instead of leaving a folder behind.
 */
export async function writeStagedFile(staging: string, path: string, content: string | Uint8Array | Iterable<string>): Promise<void> {
  const target = safeTarget(staging, path);
  // Synchronous, so no folder creation is still under way when Ctrl-C removes the staging folder;
  // the write too: a report's files are small and many, and each asynchronous write took three
  // trips through the file-system threads (134 µs a file here, against 37 µs so).
  makeFoldersBelow(staging, dirname(target));
  if (typeof content === 'string' || content instanceof Uint8Array) {
    writeFileSync(target, content, { flag: 'wx' });
    return;
  }
  const file = openSync(target, 'wx');
  try {
    for (const piece of content) writeSync(file, piece);
  } finally {
    closeSync(file);
  }
}

/** Where a file of a build goes in its staging folder, for a thread that writes it itself; its folders made as writeStagedFile makes them. */
export function stagedPath(staging: string, path: string): string {
  const target = safeTarget(staging, path);
  makeFoldersBelow(staging, dirname(target));
  return target;
}

/** Removes a file a thread wrote into the staging folder and will not hand over (its session failed part-way); false when there was none. */
export function removeStagedFile(staging: string, path: string): boolean {
  const target = safeTarget(staging, path);
  if (lstatOf(target) === null) return false;
  rmSync(target, { force: true });
  return true;
}

/**
 * Folders made (or found) below staging folders by this thread: a report's tens of thousands of
 * files share a handful. Remembering one only saves making it again; a write into a folder gone
 * since (Ctrl-C removed the staging folder) fails, as it should.
 */
const stagedFolders = new Set<string>();

function makeFoldersBelow(root: string, folder: string): void {
  if (folder === root || stagedFolders.has(folder)) return;
  if (!lstatOf(folder)?.isDirectory()) {
    makeFoldersBelow(root, dirname(folder));
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  stagedFolders.add(folder);
}

function safeTarget(root: string, path: string): string {
  if (!SAFE_RELATIVE.test(path) || path.split('/').some((part) => part === '..' || part === '.')) {
    throw new BoughError(`Refusing to write ${JSON.stringify(path)}: not a safe path inside the report.`);
  }
  const target = resolve(root, path);
  if (!target.startsWith(root + sep)) throw new BoughError(`Refusing to write outside the report folder: ${path}`);
  return target;
}

/** Files a folder may hold without being the user's content: a file manager's and git's. */
const FOLDER_FURNITURE = new Set([
  '.DS_Store',
  'Thumbs.db',
  'desktop.ini',
  '.git',
  '.gitignore',
  '.gitattributes',
  '.nojekyll',
  'lost+found',
  // A disk's own, at its root (README: a USB disk as --out): Windows', macOS's, a Linux desktop's.
  'System Volume Information',
  '$RECYCLE.BIN',
  '.Trashes',
  '.Spotlight-V100',
  '.fseventsd',
  '.TemporaryItems',
  '.DocumentRevisions-V100',
  '.VolumeIcon.icns',
  '.localized',
  '.directory',
]);

/** What a file manager or a disk puts in a folder: FOLDER_FURNITURE, a Linux desktop's trash (`.Trash-1000`), macOS's `._` shadows of files. */
function isFurniture(name: string): boolean {
  return FOLDER_FURNITURE.has(name) || /^\.Trash-\d+$/.test(name) || name.startsWith('._');
}

/**
 * The previous report's manifest; an empty one for an empty folder (kept, so a folder that is a
 * link's target or a mount point stays itself); null when --out does not exist. Refuses a folder
 * holding files bough did not write.
 */
async function previousManifest(out: string): Promise<Manifest | null> {
  const info = await stat(out).catch(() => null);
  if (info === null) return null;
  if (!info.isDirectory()) throw new BoughError(`${out} exists and is not a folder. Choose another --out.`);
  const names = await readdir(out);
  // What a file manager or git puts in any folder is no content of the user's that a report could
  // mix with: such a folder is as good as empty (bough never touches a file it did not write).
  const theirs = names.filter((name) => !isFurniture(name) && name !== LOCK_INSIDE);
  if (theirs.length === 0 && !names.includes(MANIFEST)) return { generator: '', files: [] };
  const text = await readFile(join(out, MANIFEST), 'utf8').catch(() => null);
  if (text === null) {
    // A report copied without its hidden list (`cp -r report/* backup/` leaves dotfiles behind):
    // which files are bough's cannot be told, so nothing is touched, and the user hears how to mend it.
    if (['index.html', 'summary.json', 'archive'].every((name) => names.includes(name))) {
      throw new BoughError(
        `${out} looks like a bough report copied without ${MANIFEST}, bough's list of the files it wrote there (a copy such as cp -r report/* leaves that hidden file behind), so bough cannot tell its files from yours and changes nothing. Copy that file in from the report this one was copied from (cp -a copies it), or choose another --out.`,
      );
    }
    const named = theirs.slice(0, 3).join(', ') + (theirs.length > 3 ? `, … (${theirs.length} in all)` : '');
    throw new BoughError(`${out} already holds files that bough did not write (${named}). Choose an empty or new folder with --out, or remove that one.`);
  }
  const manifest = parseManifest(text);
  if (manifest === null) {
    // Nothing is moved or removed without the list: what is bough's and what is the user's cannot be told apart.
    throw new BoughError(
      `${join(out, MANIFEST)}, bough's list of the files it wrote there, is damaged, so bough cannot tell its files from yours and changes nothing. Put that file back from a backup, or choose another --out.`,
    );
  }
  return manifest;
}

export function parseManifest(text: string): Manifest | null {
  try {
    const value = JSON.parse(text) as Partial<Manifest>;
    return Array.isArray(value.files) && value.files.every((f) => typeof f === 'string')
      ? { generator: String(value.generator ?? ''), files: value.files }
      : null;
  } catch {
    return null;
  }
}

function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A first build: the staging folder becomes --out in one rename. False when something took the name meanwhile. */
function moveWhole(out: string, staging: string, manifest: Manifest): boolean {
  writeFileSync(join(staging, MANIFEST), manifestText(manifest));
  try {
    renameSync(staging, out);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTEMPTY' || code === 'ENOTDIR' || code === 'EISDIR') return false;
    throw error;
  }
  rmSync(join(out, MARKER), { force: true });
  return true;
}

/** What a swap will move: the previous report's files that are still bough's and not kept, and every new file. */
function plan(out: string, previous: readonly string[], files: readonly string[], stay: readonly string[], generator: string): Journal {
  const folders = realFolders(out);
  const staying = new Set(stay);
  const incoming = new Set(files);
  const own = previous.filter((path) => !staying.has(path) && SAFE_RELATIVE.test(path) && folders.holdsOwnFile(path));
  return {
    generator,
    retired: `${basename(out)}${RETIRED_INFIX}${randomBytes(4).toString('hex')}`,
    moveOut: own.filter((path) => !incoming.has(path)),
    moveIn: [...files],
    replace: own.filter((path) => incoming.has(path)),
    stay: [...stay],
  };
}

/** Writes the journal, then moves: the previous report's files out, the new ones in. Returns the new files a file of the user's kept out. */
function swap(out: string, staging: string, journal: Journal): string[] {
  const draft = join(staging, `${JOURNAL}.draft`);
  writeFileSync(draft, JSON.stringify(journal));
  renameSync(draft, join(staging, JOURNAL));
  return applySwap(out, staging, journal);
}

/**
 * Carries out a journal; safe to run again after it was cut short at any step (the next build does
 * that after a SIGKILL or a power cut). Where a file is tells how far a move got: a previous file
 * already in the retired folder was moved out, a new file no longer in staging was moved in.
 */
function applySwap(out: string, staging: string, journal: Journal): string[] {
  // Beside the staging folder, which is where the files can be renamed to.
  const retired = join(dirname(staging), journal.retired);
  makeBoughFolder(retired, 'retired');
  const incoming = new Set(journal.moveIn);
  const replaceable = new Set(journal.replace);
  const folders = realFolders(out);
  const made = new Set<string>();
  const ensureFolder = (folder: string) => {
    if (made.has(folder)) return;
    makeFolderSync(folder);
    made.add(folder);
  };
  for (const path of journal.moveOut) {
    if (exists(join(retired, path))) continue;
    // An earlier bough's journal moves out the files it replaces, and links the files it keeps.
    if (incoming.has(path) && !exists(join(staging, path))) continue; // already replaced by the new file
    if (incoming.has(path) && sameFile(join(staging, path), join(out, path))) continue; // kept as it is: it stays
    if (!folders.holdsOwnFile(path)) continue;
    ensureFolder(dirname(join(retired, path)));
    renameSync(join(out, path), join(retired, path));
  }
  const blocked = new Set<string>();
  for (const path of journal.moveIn) {
    const staged = join(staging, path);
    if (!exists(staged)) continue; // moved in already
    // A file of the previous report is replaced where it is; a file of the user's never is.
    const free = replaceable.has(path) ? folders.holdsOwnFile(path) || folders.isFree(path) : folders.isFree(path);
    if (!free) {
      blocked.add(path);
      continue;
    }
    ensureFolder(dirname(join(out, path)));
    // (Renaming a link onto the file it links, as an earlier bough's kept file, changes nothing: it is in place.)
    renameSync(staged, join(out, path));
  }
  const files = [...journal.moveIn.filter((path) => !blocked.has(path)), ...journal.stay].sort();
  writeFileSync(join(staging, MANIFEST), manifestText({ generator: journal.generator, files }));
  renameSync(join(staging, MANIFEST), join(out, MANIFEST));
  // The swap is complete: from here on, what is left in staging and retired is bough's to remove.
  unlinkSync(join(staging, JOURNAL));
  removeEmptyFolders(out, journal.moveOut);
  removeMarkedFolder(retired);
  removeMarkedFolder(staging);
  return [...blocked];
}

/**
 * Before a build: finishes a swap a killed build left half done, then removes the staging and
 * retired folders of builds killed earlier: only folders with bough's marker, never a folder of
 * the user's that merely has a similar name. Runs under the lock, so no other build is using them.
 */
function finishInterruptedBuilds(out: string): void {
  // Where this bough or an earlier one put them: beside --out, or inside it when it is a mount point.
  const places = isFolder(out) ? [dirname(out), out] : [dirname(out)];
  for (const place of places) {
    for (const folder of leftovers(place, basename(out), STAGING_INFIX, 'staging')) {
      const journal = readJournal(folder);
      if (journal !== null && isFolder(out)) applySwap(out, folder, journal);
      else removeMarkedFolder(folder);
    }
  }
  for (const place of places) {
    for (const folder of leftovers(place, basename(out), RETIRED_INFIX, 'retired')) removeMarkedFolder(folder);
  }
  // A first build killed between renaming its staging folder into place and removing the marker.
  if (isFolder(out) && exists(join(out, MANIFEST)) && isMarker(join(out, MARKER), 'staging')) rmSync(join(out, MARKER), { force: true });
}

/**
 * Where a build stages the report and puts the previous one's files aside: beside --out, so that
 * nothing of a build's shows in --out until it is done; inside --out where files made beside it
 * cannot be renamed into it: a mount point (a Docker volume, a USB disk), a bind mount of a folder
 * of the same file system (one device number, two mounts, and no rename from one to the other),
 * or a folder whose parent may not be written.
 */
function workPlaceOf(out: string): string {
  const parent = dirname(out);
  try {
    if (statSync(out).dev !== statSync(parent).dev) return out;
  } catch {
    return parent;
  }
  return renamesInto(parent, out) ? parent : out;
}

/** Whether a folder made in `parent` can be renamed into `out`, tried with an empty one. */
function renamesInto(parent: string, out: string): boolean {
  const name = `.bough-probe-${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(join(parent, name));
  } catch {
    return false;
  }
  try {
    renameSync(join(parent, name), join(out, name));
  } catch {
    rmdirSync(join(parent, name));
    return false;
  }
  rmdirSync(join(out, name));
  return true;
}

/**
 * A staging or retired folder removed with its marker last: a build killed while removing it
 * leaves it marked, and the next build removes the rest (removed whole, the marker could go first
 * and leave folders no build would know for its own).
 */
function removeMarkedFolder(folder: string, retries: { maxRetries?: number; retryDelay?: number } = {}): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) if (name !== MARKER) rmSync(join(folder, name), { recursive: true, force: true, ...retries });
  rmSync(folder, { recursive: true, force: true, ...retries });
}

function leftovers(parent: string, base: string, infix: string, kind: MarkerKind): string[] {
  const prefix = `${base}${infix}`;
  return readdirSync(parent)
    .filter((name) => name.startsWith(prefix) && SUFFIX.test(name.slice(prefix.length)))
    .map((name) => join(parent, name))
    .filter((folder) => isFolder(folder) && isMarker(join(folder, MARKER), kind));
}

type MarkerKind = 'staging' | 'retired';

function makeBoughFolder(folder: string, kind: MarkerKind): void {
  const made = !exists(folder);
  makeFolderSync(folder);
  if (exists(join(folder, MARKER))) return;
  try {
    writeFileSync(join(folder, MARKER), `${JSON.stringify({ bough: kind })}\n`);
  } catch (error) {
    // A full disk: the folder goes too, as no later build would know it for its own without its
    // marker (regression: an empty marker and its folder left for good, in --out when a mount).
    if (made) rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

function isMarker(path: string, kind: MarkerKind): boolean {
  try {
    if (!lstatSync(path).isFile()) return false;
    return (JSON.parse(readFileSync(path, 'utf8')) as { bough?: unknown }).bough === kind;
  } catch {
    return false;
  }
}

function readJournal(staging: string): Journal | null {
  try {
    const value = JSON.parse(readFileSync(join(staging, JOURNAL), 'utf8')) as Partial<Journal>;
    const list = (v: unknown): v is string[] => Array.isArray(v) && v.every((p) => typeof p === 'string' && SAFE_RELATIVE.test(p));
    // A journal without `replace` and `stay` is an earlier bough's, which moved out every previous file and linked the kept ones.
    const replace = value.replace ?? [];
    const stay = value.stay ?? [];
    if (typeof value.retired !== 'string' || !list(value.moveOut) || !list(value.moveIn) || !list(replace) || !list(stay)) return null;
    if (!value.retired.includes(RETIRED_INFIX) || value.retired.includes('/') || value.retired.includes(sep)) return null;
    return { generator: String(value.generator ?? ''), retired: value.retired, moveOut: value.moveOut, moveIn: value.moveIn, replace, stay };
  } catch {
    // No journal, or one cut off while written: no move had begun.
    return null;
  }
}

/**
 * Asks of paths below --out whether they are bough's kind of file, each folder on the way looked at
 * once (a report holds tens of thousands of files in a handful of folders). Only folders found real
 * are remembered: a swap makes folders, never removes one, until it is done.
 */
function realFolders(out: string, { listFolders = false }: { listFolders?: boolean } = {}) {
  const real = new Set<string>();
  const isReal = (folder: string): boolean => {
    if (real.has(folder)) return true;
    if (!isFolder(folder)) return false;
    real.add(folder);
    return true;
  };
  /** Times each folder was asked about, and the regular files of those asked about often. */
  const asked = new Map<string, number>();
  const listed = new Map<string, Set<string>>();
  const isRegularFile = (folder: string, name: string): boolean => {
    let files = listed.get(folder);
    if (files === undefined && listFolders) {
      const times = (asked.get(folder) ?? 0) + 1;
      asked.set(folder, times);
      if (times >= LIST_FOLDER_AFTER) {
        files = regularFilesIn(folder) ?? undefined;
        if (files !== undefined) listed.set(folder, files);
      }
    }
    return files !== undefined ? files.has(name) : lstatOf(join(folder, name))?.isFile() === true;
  };
  return {
    /** A regular file reached from --out through real folders only: bough writes nothing else, so anything else is the user's. */
    holdsOwnFile(path: string): boolean {
      const parts = path.split('/');
      const name = parts.pop() as string;
      // Each folder from the one before (asked of every file a rebuild keeps: 90,000 over 30,000 sessions).
      let folder = out;
      for (const part of parts) {
        folder = join(folder, part);
        if (!isReal(folder)) return false;
      }
      return isRegularFile(folder, name);
    },
    /** A real folder reached from --out through real folders only. */
    holdsFolder(path: string): boolean {
      let folder = out;
      for (const part of path.split('/')) {
        folder = join(folder, part);
        if (!isReal(folder)) return false;
      }
      return true;
    },
    /** Nothing at the path, and nothing but real folders (or nothing) on the way to it. */
    isFree(path: string): boolean {
      const parts = path.split('/');
      for (let i = 1; i <= parts.length; i++) {
        const at = join(out, ...parts.slice(0, i));
        if (i < parts.length && real.has(at)) continue;
        const entry = lstatOf(at);
        if (entry === null) return true;
        if (i === parts.length || !entry.isDirectory()) return false;
        real.add(at);
      }
      return false;
    },
  };
}

/**
 * Past this many files asked about in one folder, the folder is listed once instead: a rebuild
 * keeps tens of thousands of pages and archive files in a handful of folders, and a listing of
 * 30,000 names costs what a few hundred lstat calls do.
 */
const LIST_FOLDER_AFTER = 64;

/** The names of the regular files in a folder (not links, not folders), or null when it cannot be listed. */
function regularFilesIn(folder: string): Set<string> | null {
  try {
    // Node looks a name up itself where the file system does not say its type in the listing.
    return new Set(readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isFile() ? [entry.name] : [])));
  } catch {
    return null;
  }
}

/** Folders the previous report's files were in, deepest first, removed if that left them empty. */
function removeEmptyFolders(out: string, files: readonly string[]): void {
  const folders = new Set<string>();
  for (const path of files) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  for (const folder of [...folders].sort((a, b) => b.split('/').length - a.split('/').length)) {
    try {
      rmdirSync(join(out, folder));
    } catch {
      // Not empty (new pages or the user's files are in it), or not a folder: it stays.
    }
  }
}

/**
 * What of the user's stood where pages go, said once for each thing in the way: a file where a
 * page goes, or one (or a link) where a folder of pages goes, which kept every page in it out.
 */
function inTheWay(out: string, paths: readonly string[]): string[] {
  const pages: string[] = [];
  const byFolder = new Map<string, number>();
  for (const path of paths) {
    const parts = path.split('/');
    const folder = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/')).find((at) => lstatOf(join(out, at))?.isDirectory() === false);
    if (folder === undefined) pages.push(path);
    else byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
  }
  const said = [...byFolder].map(([folder, count]) => {
    const what = lstatOf(join(out, folder))?.isSymbolicLink() ? 'link' : 'file';
    return `Your ${what} ${join(out, folder)} is where the report's folder ${folder}/ goes; bough left it in place and did not write the ${count === 1 ? 'file' : `${count.toLocaleString('en-US')} files`} of the report in that folder. Move or rename your ${what} and build again.`;
  });
  if (pages.length === 1) {
    const path = pages[0] ?? '';
    const what = lstatOf(join(out, path))?.isDirectory() ? 'folder' : 'file';
    said.push(`Your ${what} ${join(out, path)} is where the report's ${path} goes; bough left yours in place and did not write that ${path.endsWith('.html') ? 'page' : 'file'}. Move or rename your ${what} and build again.`);
  } else if (pages.length > 1) {
    const shown = pages.slice(0, 5).join(', ') + (pages.length > 5 ? ` and ${pages.length - 5} more` : '');
    said.push(`${pages.length} files or folders of yours in ${out} are where the report's files go (${shown}); bough left them in place and did not write those. Move or rename them and build again.`);
  }
  return said;
}

function lstatOf(path: string): Stats | null {
  try {
    // Not thrown when missing: a swap asks of tens of thousands of paths, and an error's stack costs more than the call.
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** Two names of one file (a hard link): the same inode on the same device. */
function sameFile(a: string, b: string): boolean {
  const first = lstatOf(a);
  const second = first?.isFile() ? lstatOf(b) : null;
  return first !== null && second !== null && second.isFile() && first.ino === second.ino && first.dev === second.dev;
}

function exists(path: string): boolean {
  return lstatOf(path) !== null;
}

function isFolder(path: string): boolean {
  return lstatOf(path)?.isDirectory() === true;
}
