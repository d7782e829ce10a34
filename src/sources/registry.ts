// The agents bough reads, one SourceReader each. Discovery, reading and pricing ask this list,
// never an agent by name: adding an agent is adding a reader here.

import { dirname } from 'node:path';
import type { Environment } from '../environment.js';
import type { ClaimRules, UsageClaimRule } from '../ledger/claims.js';
import type { PriceHint } from '../pricing/lookup.js';
import type { PriceHints } from '../pricing/price.js';
import type { FileHeads } from './file-head.js';
import type { SessionFile, Source } from '../types.js';
import { claudeReader } from './claude/reader.js';
import { codexReader } from './codex/reader.js';
import { piReader } from './pi/reader.js';
import type { Recognised, SourceInput } from './source-input.js';

export interface SourceReader {
  source: Source;
  /** Where this agent keeps its sessions on this machine (from its variables and home). */
  defaultPlaces(environment: Environment): string[];
  /** Whether an object salvaged from a damaged line is a whole record of this agent. */
  isRecord(value: Record<string, unknown>): boolean;
  /** Whether a file whose first record this is belongs to this agent, and as what. */
  recognise(first: Record<string, unknown>): Recognised | null;
  read(input: SourceInput): Promise<SessionFile>;
  usageClaim: UsageClaimRule;
  /**
   * Whether this agent's files of one session id are mirrors of one session (the same transcript
   * in a second config root, an archived copy): the fullest is the session's file. Absent: they
   * are copies a user made and went on in, and the first is the session's file.
   */
  mirrorsSessions?: boolean;
  /**
   * Whether a file sits where this agent keeps the sessions the user archived: when another file
   * holds the same session, that one is the live copy and the session's file. Absent: it keeps none apart.
   */
  isArchived?(path: string): boolean;
  /**
   * How this agent's provider names meet the price table; `localProviders` from `localProviders()`,
   * which reads the agent's configuration on this machine and beside the inputs (a copied home).
   */
  priceHint(provider: string | null, localProviders: ReadonlySet<string>): PriceHint;
  /** Providers this agent's configuration runs locally: on this machine, and in each of its homes read. */
  localProviders(environment: Environment, found: ConfigSearch): Promise<LocalProviders>;
  /**
   * Whether a folder `depth` folders below one of its own places may hold its sessions (Pi: a
   * project's `--<cwd>--` folder, one down): others there are not looked into, being extensions'
   * (pi.md §18). Absent: every folder.
   */
  sessionFolder?(name: string, depth: number): boolean;
  /**
   * Whether a folder of this name, in a folder of that name, is one this agent keeps sessions in
   * whose subfolders hold none (Pi's `sessions/--<cwd>--`: what is below it is its extensions',
   * pi.md §18), wherever it is reached from. Absent: none is.
   */
  sessionsOnlyAtTop?(name: string, parent: string): boolean;
  /** Files and folders this agent keeps beside a session file that belong to it (its sub-agents): read with it when it is given alone. */
  companions?(path: string, heads: FileHeads): Promise<string[]>;
  /**
   * What reading a file of this agent takes in from beside it (a sub-agent's sidecar, a thread's
   * name in an index), as it is now; null for a file not this agent's. Part of the file's identity
   * in the cache: a change to it reads the file again, and a report is not kept over it.
   */
  besideFile?(path: string): Promise<string | null>;
  /**
   * Whether an entry of a ledger was made from a file beside the session's (Codex's thread name,
   * from session_index.jsonl), not from one of its lines: its going says nothing of the file.
   */
  isBesideEntry?(id: string): boolean;
  /**
   * Entries at the end of an archived file that the same file, grown, may hold otherwise (Codex
   * writes the words sent twice, a moment apart). Absent: its last one, read while its response
   * was written.
   */
  growingTail?: number;
  /**
   * Of the names in one folder (`folder` its path), those of files this agent keeps there that are
   * never sessions (Codex's session_index.jsonl and history.jsonl beside its sessions/ folder): not candidates.
   */
  ownFiles?(names: ReadonlySet<string>, folder: string): readonly string[];
  /**
   * Folders where an old version of this agent left session files loose among its own files (Pi
   * v0.30 in its agent folder): searched at their top only, with the default places, for files
   * whose first record's `type` is `firstType`.
   */
  straySessions?: { places(environment: Environment): string[]; firstType: string };
}

export const READERS: readonly SourceReader[] = [piReader, claudeReader, codexReader];

/** Of the names in one folder, those of files an agent keeps there that are never sessions. */
export function agentsOwnFiles(names: ReadonlySet<string>, folder: string): Set<string> {
  return new Set(READERS.flatMap((reader) => reader.ownFiles?.(names, folder) ?? []));
}

/** Whether an agent keeps sessions in a folder of this name and none below it (see SourceReader.sessionsOnlyAtTop). */
export function sessionsOnlyAtTop(name: string, parent: string): boolean {
  return READERS.some((reader) => reader.sessionsOnlyAtTop?.(name, parent) === true);
}

/** How each agent's work held in several files is counted once. */
export const CLAIM_RULES: ClaimRules = {
  usage: (source) => readerOf(source).usageClaim,
  isArchived: (file) => readerOf(file.source).isArchived?.(file.path) ?? false,
  mirrors: (source) => readerOf(source).mirrorsSessions ?? false,
};

export function readerOf(source: Source): SourceReader {
  const reader = READERS.find((r) => r.source === source);
  if (!reader) throw new Error(`no reader for ${source}`);
  return reader;
}

/** What reading a file takes in from beside it, for any agent whose file it may be (see SourceReader.besideFile). */
export async function besideFile(path: string): Promise<string> {
  let said = '';
  for (const reader of READERS) {
    const note = await reader.besideFile?.(path);
    if (note !== null && note !== undefined) said += `${reader.source}:${note}\0`;
  }
  return said;
}

/** Whether a salvaged object is a whole record of any agent (before the file's agent is known). */
export function isAnyRecord(value: Record<string, unknown>): boolean {
  return READERS.some((reader) => reader.isRecord(value));
}

/**
 * What an agent's configuration says runs locally (plain data, for threads). Each home's own for
 * the files in it: a home copied from another machine, read beside this one's, may point a
 * provider of the same name at its own localhost, or this one's at a paid server (a provider
 * local in one home made every other home's sessions of that name $0).
 */
export interface LocalProviders {
  /** This machine's configuration: for a file in none of `homes`. */
  machine: string[];
  /** Each home's configuration read: its folder and the providers it runs locally. */
  homes: [string, string[]][];
  /**
   * Where the files read lie: a folder, as read, and the index of its home in `homes` (a home
   * given as an input, and each folder of the agent's files found: a file is its nearest one's).
   */
  folders: [string, number][];
}

/** Where an agent's homes are looked for: the places read, the files found there, and their real paths. */
export interface ConfigSearch {
  inputs: readonly string[];
  files: readonly string[];
  realPaths: ReadonlyMap<string, string>;
}

/** What each agent's configuration says runs locally, by agent. */
export async function localProviders(environment: Environment, found: ConfigSearch = { inputs: [], files: [], realPaths: new Map() }): Promise<[Source, LocalProviders][]> {
  const local: [Source, LocalProviders][] = [];
  for (const reader of READERS) local.push([reader.source, await reader.localProviders(environment, found)]);
  return local;
}

/**
 * `local` as a build that redacts finds it: its ledgers hold their paths redacted. Two homes' folders
 * may be named alike (`/home/ana/.codex` and `/home/bob/.codex` are both `~/.codex`): such a
 * folder names neither, and each file found (`files`) is named with its home, by its own path.
 */
export function localProvidersNamed(local: readonly (readonly [Source, LocalProviders])[], name: (path: string) => string, files: readonly string[]): [Source, LocalProviders][] {
  return local.map(([source, providers]) => {
    const named = new Map<string, number>();
    const alike = new Set<string>();
    for (const [folder, home] of providers.folders) {
      const key = name(folder);
      const was = named.get(key);
      if (was !== undefined && was !== home) alike.add(key);
      else named.set(key, home);
    }
    for (const key of alike) named.delete(key);
    if (providers.folders.length > 0) {
      const real = new Map(providers.folders);
      for (const file of files) {
        const home = nearestHome(real, file);
        if (home !== -1) named.set(name(file), home);
      }
    }
    return [source, { machine: providers.machine, homes: providers.homes.map(([home, names]) => [name(home), names]), folders: [...named] }];
  });
}

/** The home of the nearest of `folders` that holds `file` (or is it), -1 for none. */
function nearestHome(folders: ReadonlyMap<string, number>, file: string): number {
  for (let folder = file; ; folder = dirname(folder)) {
    const home = folders.get(folder);
    if (home !== undefined) return home;
    if (dirname(folder) === folder) return -1;
  }
}

/** The price hints of every agent, given what runs locally: one object per agent, home and provider. */
export function priceHintsFrom(local: readonly (readonly [Source, LocalProviders])[]): PriceHints {
  const bySource = new Map(local.map(([source, providers]) => [source, { machine: new Set(providers.machine), homes: providers.homes.map(([, names]) => new Set(names)), folders: new Map(providers.folders) }]));
  // By agent, home (-1: this machine's) and provider. Records come a file at a time: its home is
  // kept for the next record's lookup.
  const hints = new Map<Source, Map<number, Map<string | null, PriceHint>>>();
  let last: { source: Source; file: string | null; home: number } | null = null;
  return (source, provider, file) => {
    const config = bySource.get(source);
    let home = -1;
    if (last !== null && last.source === source && last.file === file) home = last.home;
    else {
      if (config !== undefined && config.folders.size > 0 && file !== null) home = nearestHome(config.folders, file);
      last = { source, file, home };
    }
    let ofSource = hints.get(source);
    if (ofSource === undefined) hints.set(source, (ofSource = new Map()));
    let ofHome = ofSource.get(home);
    if (ofHome === undefined) ofSource.set(home, (ofHome = new Map()));
    let hint = ofHome.get(provider);
    if (hint === undefined) {
      hint = readerOf(source).priceHint(provider, home === -1 ? (config?.machine ?? new Set()) : (config?.homes[home] ?? new Set()));
      ofHome.set(provider, hint);
    }
    return hint;
  };
}

/** The price hints of every agent, with what each one's configuration on this machine says runs locally. */
export async function priceHints(environment: Environment): Promise<PriceHints> {
  return priceHintsFrom(await localProviders(environment));
}
