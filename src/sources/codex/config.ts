// Which model providers `$CODEX_HOME/config.toml` points at this machine (a base_url on localhost):
// their usage is $0. Read with a few lines of pattern matching, not a TOML parser: only
// `[model_providers.<id>]` tables and their `base_url` matter here.

import { join, resolve, sep } from 'node:path';
import type { Environment } from '../../environment.js';
import { codexSessionPlaces } from './paths.js';
import { readRegularFile } from '../../regular-file.js';
import type { LocalProviders } from '../registry.js';

/** Far more than any config.toml holds. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

// This machine's addresses: localhost (and names under it), 127.0.0.0/8, 0.0.0.0 and ::1.
const LOCAL_URL = /^\s*base_url\s*=\s*["']https?:\/\/(localhost|[A-Za-z0-9.-]+\.localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\])[:/"']/i;
const PROVIDER_TABLE = /^\s*\[model_providers\.(?:"([^"]+)"|([A-Za-z0-9_-]+))\]\s*$/;

/**
 * Each Codex home's local providers, for the rollouts under it (one copied from another machine
 * with its config.toml, given as an input, says its own), and this machine's homes' together for
 * a rollout in none.
 */
export async function codexLocalProviders(environment: Environment, inputs: readonly string[] = []): Promise<LocalProviders> {
  const machineHomes = new Set(codexSessionPlaces(environment).map((place) => join(place, '..')));
  const machine = new Set<string>();
  const homes: [string, string[]][] = [];
  for (const home of new Set([...machineHomes, ...inputs.flatMap(homesAbove)])) {
    let text: string;
    try {
      text = await readRegularFile(join(home, 'config.toml'), MAX_CONFIG_BYTES);
    } catch {
      continue;
    }
    const local = localProvidersIn(text);
    homes.push([home, local]);
    if (machineHomes.has(home)) for (const provider of local) machine.add(provider);
  }
  return { machine: [...machine], homes };
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
  const found: string[] = [];
  let table: string | null = null;
  for (const line of configToml.split('\n')) {
    if (/^\s*\[/.test(line)) {
      const match = PROVIDER_TABLE.exec(line);
      table = match ? (match[1] ?? match[2] ?? null) : null;
    } else if (table !== null && LOCAL_URL.test(line)) {
      found.push(table);
    }
  }
  return found;
}
