// Inputs → candidate session files. Explicit files are taken as given; folders are searched
// recursively for *.jsonl, following symbolic links (each real file once, loops not walked);
// with no inputs, each agent's default places are searched. What could not be searched is said.

import type { Dirent, Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, resolve, sep } from 'node:path';
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { BoughError } from './errors.js';
import { MANIFEST } from './output/report-folder.js';
import type { Environment } from './environment.js';
import { FileHeads } from './sources/file-head.js';
import { COMPRESSED_SESSION, compressedNote } from './sources/compressed.js';
import { agentsOwnFiles, READERS, readerOf, sessionsOnlyAtTop } from './sources/registry.js';
import { danglingLink, whyNotFound, whyUnreadable } from './file-problems.js';
import { SOURCE_NAMES, type Source } from './types.js';

export interface Place {
  source: Source | null;
  path: string;
  /** Session files found here (a folder: below it), however many ways lead to each. */
  files: number;
  /** Of those, how many a place named before it had found (two names of one folder: a link, a setting). */
  foundBefore?: number;
  exists: boolean;
}

export interface Discovery {
  files: string[];
  /**
   * The real path of each file found in a folder walked from its real path, as a plain file (not
   * a link): known without asking the system again (a rebuild identifies every file by it).
   */
  realPaths: ReadonlyMap<string, string>;
  /** The folders and files searched, with how many candidates each gave. */
  places: Place[];
  usedDefaults: boolean;
  /**
   * Folders and files read beside the places, so taken as inputs too, that no report is written
   * into them: those reached through a link below a place (their real paths lie elsewhere), and
   * the folders of what a file given alone is read with (a Claude Code session's sub-agents).
   */
  linked: string[];
  /**
   * Folders that could not be listed and links not followed, each with why. Candidate files that
   * cannot be read (a link to nothing, permission denied) are in `files` and say why when read.
   */
  diagnostics: Diagnostic[];
}

/** Compressed session files found, which bough does not read: files skipped, counted among the files found. */
export function compressedFound(discovery: Pick<Discovery, 'diagnostics'>): Diagnostic[] {
  return discovery.diagnostics.filter((d) => d.reason === 'compressed-file');
}

/** The file-system calls discovery makes: tests inject the failures that root cannot cause with chmod. */
export interface DiscoveryFs {
  readdir(path: string): Promise<Dirent[]>;
  stat(path: string): Promise<Stats>;
  realpath(path: string): Promise<string>;
}

const NODE_FS: DiscoveryFs = {
  readdir: (path) => readdir(path, { withFileTypes: true }),
  stat: (path) => stat(path),
  realpath: (path) => realpath(path),
};

/** Folders listed at once: enough to hide disk latency, few enough to stay far from the open-files limit. */
const LIST_CONCURRENCY = 16;

/** Where the agents keep their sessions on this machine; only those of `sources` when given. */
export function defaultPlaces(environment: Environment, sources: readonly Source[] | null = null): { source: Source; path: string }[] {
  return READERS.filter((reader) => sources === null || sources.includes(reader.source)).flatMap((reader) =>
    reader.defaultPlaces(environment).map((path) => ({ source: reader.source, path })),
  );
}

export async function discover(
  inputs: readonly string[],
  environment: Environment,
  sources: readonly Source[] | null = null,
  fs: DiscoveryFs = NODE_FS,
): Promise<Discovery> {
  const usedDefaults = inputs.length === 0;
  const wanted = usedDefaults
    ? defaultPlaces(environment, sources)
    : inputs.map((path) => ({ source: null, path: resolve(path) }));
  const places: Place[] = [];
  const found = new Candidates();
  const diagnostics: Diagnostic[] = [];
  const linked: string[] = [];
  const heads = new FileHeads();
  for (const { source, path } of wanted) {
    let info: Stats;
    try {
      info = await fs.stat(path);
    } catch (error) {
      if (isMissing(error) && !usedDefaults) {
        const link = await danglingLink(path);
        // Node hands bough an argument that is not UTF-8 with U+FFFD in place of its bytes: no name to open.
        const notUtf8 = path.includes('\uFFFD') ? ' Its name (or a folder\'s on its path) is not valid UTF-8, which bough receives altered and cannot open by name: name a folder above it, or rename it.' : ' Check the path and run again.';
        // `-` and a pattern the shell did not expand (quoted) are no names of files: said as what they are.
        if (basename(path) === '-' && !link) throw new BoughError(`No such file or folder: ${path}. bough reads session files and folders, not standard input: name a file or a folder.`);
        if (/[*?]/.test(path) && !link) throw new BoughError(`No such file or folder: ${path}. bough does not expand patterns: leave the pattern unquoted for the shell to expand, or name the folder that holds the files.`);
        throw new BoughError(`No such file or folder: ${path}${link ? ` (${link})` : ''}.${notUtf8}`);
      }
      if (isMissing(error)) {
        places.push({ source, path, files: 0, exists: false });
      } else if (usedDefaults) {
        diagnostics.push(diagnostic('unreadable-folder', path, null, whyUnreadable(error)));
        places.push({ source, path, files: 0, exists: true });
      } else {
        // Named by the user but not looked into (permission denied, a loop of links): taken as a file, whose reading says why.
        found.add(path, path);
        places.push({ source, path, files: 1, exists: true });
      }
      continue;
    }
    if (info.isFile() && COMPRESSED_SESSION.test(path)) {
      // Named by the user: said as one found in a folder is, with how to read it.
      found.addCompressed((await fs.realpath(path).catch(() => null)) ?? path, path, diagnostics);
      places.push({ source, path, files: 0, exists: true });
    } else if (info.isDirectory()) {
      const { files, foundBefore } = await sessionFilesUnder(path, fs, found, diagnostics, linked, source === null ? undefined : readerOf(source).sessionFolder);
      places.push({ source, path, files, ...(foundBefore > 0 ? { foundBefore } : {}), exists: true });
    } else {
      // Taken as given, whatever its name; its real path so that it is counted once, and archived
      // as the file it is however it is given.
      const real = await fs.realpath(path).catch(() => null);
      // Named after a folder that holds it, or twice: found above.
      let foundBefore = found.has(real ?? path) ? 1 : 0;
      found.add(real ?? path, path, real !== null);
      // With what its agent keeps of it beside it (a Claude Code session's sub-agents): its numbers
      // are the session's whether it is given alone or with its folder.
      let files = 1;
      // A named pipe or a device is not read (its reading says why), nor are companions looked for.
      for (const companion of info.isFile() ? await companionsOf(real ?? path, heads) : []) {
        const kind = await fs.stat(companion).catch(() => null);
        if (kind?.isDirectory()) {
          const under = await sessionFilesUnder(companion, fs, found, diagnostics, linked);
          files += under.files;
          foundBefore += under.foundBefore;
          linked.push(companion);
        }
        else if (kind?.isFile()) {
          const real = await fs.realpath(companion).catch(() => null);
          if (found.has(real ?? companion)) foundBefore++;
          found.add(real ?? companion, companion, real !== null);
          files++;
        }
      }
      places.push({ source, path, files, ...(foundBefore > 0 ? { foundBefore } : {}), exists: true });
    }
  }
  if (usedDefaults) {
    for (const { path, source, firstType } of strayPlaces(environment, sources)) {
      const files = await straySessionFiles(path, firstType, fs, found, heads);
      // Said only where there are some: the folder holds the agent's own files, not sessions.
      if (files > 0) places.push({ source, path, files, exists: true });
    }
  }
  return { files: found.shown(), realPaths: found.knownReal(), places, linked, usedDefaults, diagnostics };
}

function strayPlaces(environment: Environment, sources: readonly Source[] | null): { source: Source; path: string; firstType: string }[] {
  return READERS.filter((reader) => sources === null || sources.includes(reader.source)).flatMap(({ source, straySessions }) =>
    straySessions === undefined ? [] : straySessions.places(environment).map((path) => ({ source, path, firstType: straySessions.firstType })),
  );
}

/**
 * The session files an old version of an agent left loose in `folder`, beside files of its own
 * that are not sessions: *.jsonl at its top whose first record is of `firstType`. A folder that
 * cannot be listed is passed over in silence: it is no place of sessions today.
 */
async function straySessionFiles(folder: string, firstType: string, fs: DiscoveryFs, found: Candidates, heads: FileHeads): Promise<number> {
  const listing = await fs.readdir(folder).catch(() => [] as Dirent[]);
  let files = 0;
  for (const entry of listing) {
    if (!(entry.isFile() || entry.isSymbolicLink()) || !isCandidateName(entry.name)) continue;
    const path = childOf(folder, entry.name);
    if ((await heads.firstValue(path, 'type', STRAY_HEAD_BYTES)) !== firstType) continue;
    const real = await fs.realpath(path).catch(() => null);
    found.add(real ?? path, path, real !== null);
    files++;
  }
  return files;
}

/** Enough of a file's start to hold its first record's type, which agents write first. */
const STRAY_HEAD_BYTES = 4096;

async function companionsOf(path: string, heads: FileHeads): Promise<string[]> {
  const found: string[] = [];
  for (const reader of READERS) found.push(...((await reader.companions?.(path, heads).catch(() => [])) ?? []));
  return found;
}

/** Candidate files by real path, each shown by the first path it was found by. */
class Candidates {
  private readonly byRealPath = new Map<string, string>();
  /** Shown path → real path, where it was resolved, not guessed (a file that could not be resolved is taken by its own path). */
  private readonly resolved = new Map<string, string>();
  /** Real paths of the compressed session files found. */
  private readonly compressedReal = new Set<string>();

  add(real: string, shown: string, resolved = false): void {
    // A link named *.jsonl to a compressed session is that file, said once as compressed.
    if (this.byRealPath.has(real) || this.compressedReal.has(real)) return;
    this.byRealPath.set(real, shown);
    if (resolved) this.resolved.set(shown, real);
  }

  shown(): string[] {
    return [...this.byRealPath.values()].sort();
  }

  has(real: string): boolean {
    return this.byRealPath.has(real) || this.compressedReal.has(real);
  }

  knownReal(): ReadonlyMap<string, string> {
    return this.resolved;
  }

  /** A compressed session file found, not read: said once, however many ways lead to it (it counts as a file skipped). */
  addCompressed(real: string, shown: string, diagnostics: Diagnostic[]): void {
    if (this.compressedReal.has(real)) return;
    this.compressedReal.add(real);
    // Found first by a link named *.jsonl: the same file, not one to read as well.
    const candidate = this.byRealPath.get(real);
    if (candidate !== undefined) {
      this.byRealPath.delete(real);
      this.resolved.delete(candidate);
    }
    diagnostics.push(diagnostic('compressed-file', shown, null, compressedNote(shown)));
  }
}

interface Folder {
  /** As the user will see it: below the input they gave, through any links. */
  path: string;
  real: string;
  /** `real` was resolved by the system (else it is a guess: the folder's own path). */
  resolved: boolean;
  /** Folders below the place walked (0: the place itself). */
  depth: number;
}

interface Link {
  path: string;
  name: string;
  /** The real path of the folder the link is in. */
  parent: string;
  /** That folder's depth below the place walked. */
  depth: number;
  /** That folder holds sessions at its top only (see topOnly): a folder the link leads to is not walked. */
  topOnly: boolean;
}

/**
 * Every *.jsonl below `root`, in as many calls as there are folders and links (none per file).
 * Plain folders first, then links, nearest first: a file reachable both ways is shown by its path
 * without links. Each real folder is listed once, so no loop of links is walked round.
 * Returns how many candidate files the folder holds, and how many of them a place before it had found.
 */
async function sessionFilesUnder(
  root: string,
  fs: DiscoveryFs,
  found: Candidates,
  diagnostics: Diagnostic[],
  linked: string[],
  enters: (name: string, depth: number) => boolean = () => true,
): Promise<{ files: number; foundBefore: number }> {
  /** Real paths of the candidates below `root`, for its count; those found by a place before it. */
  const place = new Set<string>();
  const before = new Set<string>();
  const add = (real: string, shown: string, resolved = false) => {
    if (!place.has(real) && found.has(real)) before.add(real);
    found.add(real, shown, resolved);
    place.add(real);
  };
  const rootResolved = await fs.realpath(root).catch(() => null);
  const rootReal = rootResolved ?? root;
  /** Real path of each folder listed → the path it was listed by. */
  const listed = new Map<string, string>([[rootReal, root]]);
  const links: Link[] = [];
  // An agent's folder of sessions whose subfolders are its extensions' (Pi's `sessions/--<cwd>--`, pi.md
  // §18), however it is reached: a session file an extension keeps below it (a sub-agent's run,
  // counted in its parent's tool result) is no session, and read as one counted its spend twice.
  const topOnly = (folder: Folder) => sessionsOnlyAtTop(basename(folder.path), basename(dirname(folder.path))) || sessionsOnlyAtTop(basename(folder.real), basename(dirname(folder.real)));
  const walk = async (start: Folder) => {
    for (let level = [start]; level.length > 0; ) {
      const next: Folder[] = [];
      for (let i = 0; i < level.length; i += LIST_CONCURRENCY) {
        const folders = level.slice(i, i + LIST_CONCURRENCY);
        const listings = await Promise.all(folders.map((folder) => list(folder.path, fs, diagnostics)));
        folders.forEach((folder, n) => {
          const listing = listings[n] ?? [];
          // A bough report below an input (one written beside a session file given alone) holds
          // bough's own files, its archive's records among them: never sessions to read again.
          if (folder.real !== rootReal && listing.some((entry) => entry.name === MANIFEST && entry.isFile())) return;
          // Nor an agent's own files that are never sessions (a Codex home's history.jsonl).
          const own = agentsOwnFiles(new Set(listing.map((entry) => entry.name)), folder.path);
          for (const entry of listing) {
            const path = childOf(folder.path, entry.name);
            const real = childOf(folder.real, entry.name);
            if (entry.isDirectory()) {
              if (listed.has(real) || !enters(entry.name, folder.depth + 1) || topOnly(folder)) continue;
              listed.set(real, path);
              next.push({ path, real, resolved: folder.resolved, depth: folder.depth + 1 });
            } else if (entry.isSymbolicLink()) {
              links.push({ path, name: entry.name, parent: folder.real, depth: folder.depth, topOnly: topOnly(folder) });
            } else if (isCandidateName(entry.name) && !own.has(entry.name)) {
              // A plain file in a folder reached by its real path is at its real path.
              add(real, path, entry.isFile() && folder.resolved);
            } else if (COMPRESSED_SESSION.test(entry.name)) {
              found.addCompressed(real, path, diagnostics);
            }
          }
        });
      }
      level = next;
    }
  };
  await walk({ path: root, real: rootReal, resolved: rootResolved !== null, depth: 0 });
  while (links.length > 0) {
    const round = links.splice(0).sort((a, b) => (a.path < b.path ? -1 : 1));
    for (const link of round) {
      const target = await followLink(link, fs, listed, diagnostics, !link.topOnly && enters(link.name, link.depth + 1));
      // A link that leads nowhere is a candidate that says why when read, and no place.
      if (target !== null && (target.kind === 'folder' || (target.kind === 'file' && target.real !== link.path))) linked.push(link.path);
      if (target?.kind === 'folder') await walk(target.folder);
      else if (target?.kind === 'file') add(target.real, link.path, target.resolved);
      else if (target?.kind === 'compressed') found.addCompressed(target.real, link.path, diagnostics);
    }
  }
  return { files: place.size, foundBefore: before.size };
}

type LinkTarget = { kind: 'folder'; folder: Folder } | { kind: 'file'; real: string; resolved: boolean } | { kind: 'compressed'; real: string };

/** Where a link leads: a folder to walk, a candidate file, or null (with why, when it matters) for one not followed. */
async function followLink(link: Link, fs: DiscoveryFs, listed: Map<string, string>, diagnostics: Diagnostic[], intoFolders = true): Promise<LinkTarget | null> {
  let info: Stats;
  try {
    info = await fs.stat(link.path);
  } catch (error) {
    // Named like a session: a candidate whose reading says why (a link to nothing, a loop of links).
    if (isCandidateName(link.name)) return { kind: 'file', real: link.path, resolved: false };
    diagnostics.push(diagnostic('skipped-link', link.path, null, await whyNotFound(link.path, error)));
    return null;
  }
  if (!info.isDirectory()) {
    // A compressed session it leads to is said, as one lying in the folder is.
    if (info.isFile() && COMPRESSED_SESSION.test(link.name)) return { kind: 'compressed', real: (await fs.realpath(link.path).catch(() => null)) ?? link.path };
    if (!isCandidateName(link.name)) return null;
    const real = await fs.realpath(link.path).catch(() => null);
    return { kind: 'file', real: real ?? link.path, resolved: real !== null };
  }
  // A folder its place's agent keeps no sessions in (see SourceReader.sessionFolder): not looked into.
  if (!intoFolders) return null;
  const real = await fs.realpath(link.path).catch(() => null);
  if (real === null) {
    diagnostics.push(diagnostic('skipped-link', link.path, null, 'its target could not be resolved'));
    return null;
  }
  const first = listed.get(real);
  if (isInside(link.parent, real) || (first !== undefined && isInside(link.path, first))) {
    diagnostics.push(diagnostic('skipped-link', link.path, null, `a loop: it leads back to ${first ?? real}, a folder it is in`));
    return null;
  }
  // A second way into a folder already listed: its files are counted once, by the first way.
  if (first !== undefined) return null;
  listed.set(real, link.path);
  return { kind: 'folder', folder: { path: link.path, real, resolved: true, depth: link.depth + 1 } };
}

/** A folder's entries, or none, and a note saying why, when it cannot be listed. */
async function list(path: string, fs: DiscoveryFs, diagnostics: Diagnostic[]): Promise<Dirent[]> {
  try {
    return await fs.readdir(path);
  } catch (error) {
    diagnostics.push(diagnostic('unreadable-folder', path, null, whyUnreadable(error)));
    return [];
  }
}

/** Session files are found by name (their content decides the source): *.jsonl in any case. */
function isCandidateName(name: string): boolean {
  return name.toLowerCase().endsWith('.jsonl');
}

/** `join` without its normalising, which tens of thousands of files make costly; both parts are already clean. */
function childOf(folder: string, name: string): string {
  return folder.endsWith(sep) ? folder + name : folder + sep + name;
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

function isMissing(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Which agents' folders the default places held, for the run's first line:
 * "Pi: ~/.pi/agent/sessions (12 files) · Claude Code: ~/.claude/projects (40 files) · no Codex folder".
 */
export function placesLine(places: readonly Place[], home: string, notes: readonly Diagnostic[] = []): string {
  // A folder that could not be listed is said so, not as one of 0 files.
  const unlisted = new Map(notes.filter((note) => note.reason === 'unreadable-folder').map((note) => [note.file, note.detail]));
  const shown = (path: string) => (home && (path === home || path.startsWith(`${home}${sep}`)) ? `~${path.slice(home.length)}` : path);
  const sources = [...new Set(places.map((p) => p.source))];
  return sources
    .map((source) => {
      const name = source === null ? 'inputs' : SOURCE_NAMES[source];
      const found = places.filter((p) => p.source === source && p.exists);
      if (found.length === 0) {
        // A folder an environment variable names instead of the usual one is said: a mistyped
        // PI_CODING_AGENT_SESSION_DIR would otherwise pass unnoticed.
        const usual = source === null ? [] : defaultPlaces({ env: {}, home }, [source]).map((p) => p.path);
        const named = places.filter((p) => p.source === source && source !== null && !usual.includes(p.path)).map((p) => shown(p.path));
        return named.length === 0 ? `no ${name} folder` : `no ${name} folder (${named.join(', ')} not found)`;
      }
      const counted = (p: Place) => (unlisted.has(p.path) ? `not listed: ${unlisted.get(p.path)}` : filesFound(p));
      return `${name}: ${found.map((p) => `${shown(p.path)} (${counted(p)})`).join(', ')}`;
    })
    .join(' · ');
}


/** "12 files", and how many of them a place said before holds too: one folder by two names is no more sessions. */
export function filesFound(place: Pick<Place, 'files' | 'foundBefore'>, noun = 'file'): string {
  const files = place.files === 1 ? `1 ${noun}` : `${place.files} ${noun}s`;
  const before = place.foundBefore ?? 0;
  if (before === 0) return files;
  return before === place.files ? `${files}, all found above` : `${files}, ${before} of them found above`;
}

/** Every place a build reads: the inputs, and what links below them lead to (a report is written in none of them). */
export function readPlaces(discovery: Pick<Discovery, 'places' | 'linked'>): { path: string; exists: boolean }[] {
  return [...discovery.places, ...discovery.linked.map((path) => ({ path, exists: true }))];
}
