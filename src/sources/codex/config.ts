// Which model providers `$CODEX_HOME/config.toml` points at this machine (a base_url on localhost):
// their usage is $0. Read with a few lines of pattern matching, not a TOML parser: only
// `[model_providers.<id>]` tables and their `base_url` matter here.

import { join, resolve, sep } from 'node:path';
import type { Environment } from '../../environment.js';
import { codexSessionPlaces } from './paths.js';
import { readRegularFile } from '../../regular-file.js';

/** Far more than any config.toml holds. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

const LOCAL_URL = /^\s*base_url\s*=\s*["']https?:\/\/(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])[:/"']/;
const PROVIDER_TABLE = /^\s*\[model_providers\.(?:"([^"]+)"|([A-Za-z0-9_-]+))\]\s*$/;

export async function codexLocalProviders(environment: Environment, inputs: readonly string[] = []): Promise<ReadonlySet<string>> {
  const homes = new Set([...codexSessionPlaces(environment).map((place) => join(place, '..')), ...inputs.flatMap(homesAbove)]);
  const local = new Set<string>();
  for (const home of homes) {
    let text: string;
    try {
      text = await readRegularFile(join(home, 'config.toml'), MAX_CONFIG_BYTES);
    } catch {
      continue;
    }
    for (const provider of localProvidersIn(text)) local.add(provider);
  }
  return local;
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
