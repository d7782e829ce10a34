// Inputs → candidate session files. Explicit files are taken as given; folders are searched
// recursively for *.jsonl; with no inputs, each agent's default places are searched.

import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import fg from 'fast-glob';
import { BoughError } from './errors.js';
import type { Environment } from './environment.js';
import { piSessionPlaces } from './sources/pi/paths.js';
import type { Source } from './types.js';

export interface Place {
  source: Source | null;
  path: string;
  files: number;
  exists: boolean;
}

export interface Discovery {
  files: string[];
  /** The folders and files searched, with how many candidates each gave. */
  places: Place[];
  usedDefaults: boolean;
}

/** Where the agents keep their sessions on this machine; only those of `sources` when given. */
export function defaultPlaces(environment: Environment, sources: readonly Source[] | null = null): { source: Source; path: string }[] {
  const places = piSessionPlaces(environment).map((path) => ({ source: 'pi' as const, path }));
  return sources === null ? places : places.filter((place) => sources.includes(place.source));
}

export async function discover(inputs: readonly string[], environment: Environment, sources: readonly Source[] | null = null): Promise<Discovery> {
  const usedDefaults = inputs.length === 0;
  const wanted = usedDefaults
    ? defaultPlaces(environment, sources)
    : inputs.map((path) => ({ source: null, path: resolve(path) }));
  const places: Place[] = [];
  const files = new Set<string>();
  for (const { source, path } of wanted) {
    const info = await stat(path).catch(() => null);
    if (!info) {
      if (!usedDefaults) throw new BoughError(`No such file or folder: ${path}. Check the path and run again.`);
      places.push({ source, path, files: 0, exists: false });
      continue;
    }
    const found = info.isDirectory() ? await sessionFilesUnder(path) : [path];
    found.forEach((file) => files.add(file));
    places.push({ source, path, files: found.length, exists: true });
  }
  return { files: [...files].sort(), places, usedDefaults };
}

async function sessionFilesUnder(folder: string): Promise<string[]> {
  const found = await fg('**/*.jsonl', {
    cwd: folder,
    absolute: true,
    onlyFiles: true,
    dot: true,
    caseSensitiveMatch: false,
    followSymbolicLinks: false,
    suppressErrors: true,
  });
  return found.map((file) => resolve(file));
}
