// Which model providers `$CODEX_HOME/config.toml` points at this machine (a base_url on localhost):
// their usage is $0. Read as TOML (smol-toml): a provider may be written as a table, an inline
// table or dotted keys, quoted or not, and a pattern for each line missed all but the first.

import { lstat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { Environment } from '../../environment.js';
import { codexHomeOf, codexSessionPlaces } from './paths.js';
import { readRegularFile } from '../../regular-file.js';
import type { ConfigSearch, LocalProviders } from '../registry.js';

/** Far more than any config.toml holds. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

// This machine's addresses: localhost (and names under it), 127.0.0.0/8, 0.0.0.0 and ::1.
const LOCAL_URL = /^https?:\/\/(localhost|[A-Za-z0-9.-]+\.localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\])(?:[:/?#]|$)/i;
// Of a file that is not TOML (Codex stops on one), its `[model_providers.<id>]` tables' lines.
const LOCAL_URL_LINE = /^\s*base_url\s*=\s*["']([^"']*)["']/;
const PROVIDER_TABLE = /^\s*\[\s*model_providers\s*\.\s*(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_-]+))\s*\](?:\s*#.*)?$/;

/**
 * Each Codex home's local providers, for the rollouts in it (one copied from another machine with
 * its config.toml says its own), and this machine's homes' together for a rollout in none, or in
 * a home without a config.toml. A home is found above each input and each rollout found (by its
 * path as read, else its real path: a link to a home's `sessions` folder), so also one inside a
 * folder given. A config.toml there that cannot be read (a folder, a pipe) says nothing runs
 * locally: another home's is not this one's.
 */
export async function codexLocalProviders(environment: Environment, found: ConfigSearch = { inputs: [], files: [], realPaths: new Map() }): Promise<LocalProviders> {
  const machineHomes = new Set(codexSessionPlaces(environment).map((place) => join(place, '..')));
  const machine = new Set<string>();
  const homes: [string, string[]][] = [];
  const indexOf = new Map<string, number | null>();
  const homeIndex = async (home: string): Promise<number | null> => {
    let index = indexOf.get(home);
    if (index !== undefined) return index;
    const local = await localProvidersOf(home);
    if (machineHomes.has(home)) for (const provider of local ?? []) machine.add(provider);
    index = local === null ? null : homes.push([home, local]) - 1;
    indexOf.set(home, index);
    return index;
  };
  const folders = new Map<string, number>();
  for (const home of [...machineHomes, ...found.inputs.flatMap(homesAbove)]) {
    const index = await homeIndex(home);
    if (index !== null) folders.set(home, index);
  }
  for (const file of found.files) {
    const folder = dirname(file);
    if (folders.has(folder) || !ROLLOUT_NAME.test(basename(file))) continue;
    // The home above it as read, else as it really lies (a link to a home's `sessions` folder, named
    // so or not, in a folder without a config.toml).
    const asRead = codexHomeOf(file);
    const real = found.realPaths.get(file);
    const realHome = real === undefined ? null : codexHomeOf(real);
    const index = (asRead === null ? null : await homeIndex(asRead)) ?? (realHome === null ? null : await homeIndex(realHome));
    if (index === null) continue;
    folders.set(folder, index);
    // Its home too: a rollout gone since, in a day folder gone with it, is that home's still.
    if (asRead !== null && !folders.has(asRead)) folders.set(asRead, index);
  }
  return { machine: [...machine], homes, folders: [...folders] };
}

const ROLLOUT_NAME = /^rollout-.+\.jsonl$/i;

/** What a home's config.toml runs locally; null when it has none (this machine's is taken), none when it cannot be read. */
async function localProvidersOf(home: string): Promise<string[] | null> {
  try {
    return localProvidersIn(await readRegularFile(join(home, 'config.toml'), MAX_CONFIG_BYTES));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A link to a file not there is a config.toml, unread.
    const missing = (code === 'ENOENT' || code === 'ENOTDIR') && (await lstat(join(home, 'config.toml')).then(() => false, () => true));
    return missing ? null : [];
  }
}

/**
 * The Codex homes an input lies in: a folder above it (or it) whose `sessions` or
 * `archived_sessions` holds it, as a rollout lies at `<home>/sessions/YYYY/MM/DD/` (a home copied
 * from another machine, given as an input, with its config.toml).
 */
function homesAbove(input: string): string[] {
  const parts = resolve(input).split(sep);
  const homes: string[] = [];
  for (let i = parts.length - 1; i >= Math.max(1, parts.length - HOME_DEPTH); i--) {
    if (parts[i] === 'sessions' || parts[i] === 'archived_sessions') homes.push(parts.slice(0, i).join(sep) || sep);
  }
  // The home itself, given as the input.
  homes.push(resolve(input));
  return homes;
}

/** How far below its home a rollout lies: sessions/YYYY/MM/DD/file. */
const HOME_DEPTH = 6;

export function localProvidersIn(configToml: string): string[] {
  let config: unknown;
  try {
    config = parseToml(configToml);
  } catch {
    return localProvidersByLine(configToml);
  }
  const providers = (config as { model_providers?: unknown }).model_providers;
  if (typeof providers !== 'object' || providers === null || Array.isArray(providers)) return [];
  return Object.entries(providers).flatMap(([id, provider]) => {
    const url = typeof provider === 'object' && provider !== null ? (provider as { base_url?: unknown }).base_url : undefined;
    return typeof url === 'string' && LOCAL_URL.test(url.trim()) ? [id] : [];
  });
}

/** A config.toml that does not parse, read a line at a time for what it says plainly. */
function localProvidersByLine(configToml: string): string[] {
  const found: string[] = [];
  let table: string | null = null;
  for (const line of configToml.split('\n')) {
    if (/^\s*\[/.test(line)) {
      const match = PROVIDER_TABLE.exec(line);
      table = match ? (match[1] ?? match[2] ?? match[3] ?? null) : null;
    } else if (table !== null && LOCAL_URL.test(LOCAL_URL_LINE.exec(line)?.[1]?.trim() ?? '')) {
      found.push(table);
    }
  }
  return found;
}
