// Where --out really is, through symbolic links, and whether bough may write a report there.

import { readFileSync } from 'node:fs';
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { BoughError } from '../errors.js';

/** An input the build reads: a file or folder, and whether it exists. */
export interface OutInput {
  path: string;
  exists: boolean;
}

/**
 * The real path of a file or folder that may not exist yet: the real path of its deepest existing
 * ancestor, with the missing part appended. A link that points nowhere is refused in a sentence.
 */
export async function realPathOf(path: string): Promise<string> {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      return join(await realpath(current), ...missing);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        const why = code === 'ELOOP' ? 'its symbolic links lead round in a loop' : (error as Error).message;
        throw new BoughError(`Cannot follow ${current}: ${why}. Choose another --out.`, { cause: error });
      }
    }
    const entry = await lstat(current).catch(() => null);
    if (entry?.isSymbolicLink()) {
      const target = await readlink(current).catch(() => '?');
      throw new BoughError(`${current} is a symbolic link to ${target}, which does not exist. Create that folder, or choose another --out.`);
    }
    const parent = dirname(current);
    if (parent === current) return resolve(path);
    missing.unshift(basename(current));
    current = parent;
  }
}

/**
 * A report must never land inside what it reads, nor hold an input, nor replace a home or root
 * folder. Compared by real paths, so a symbolic link on either side cannot get round it, and by
 * device and inode, so a bind mount (one folder at two paths no link explains) cannot either.
 */
export async function refuseUnsafeOut(outDir: string, inputs: readonly OutInput[], home: string): Promise<void> {
  const mounts = mountTable();
  const out = await placeOf(outDir, mounts);
  const named = out.real === resolve(outDir) ? outDir : `${outDir} (${out.real}, through a symbolic link)`;
  const homePlace = await placeOf(home, mounts).catch(() => null);
  if (out.real === parse(out.real).root || (homePlace !== null && (out.real === homePlace.real || (out.id !== null && out.id === homePlace.id)))) {
    throw new BoughError(`Refusing to write the report to ${named}: choose a folder of its own with --out.`);
  }
  const places = await inputPlaces(inputs, mounts);
  const holding = places.find((input) => isInside(out, input));
  if (holding) throw new BoughError(`Refusing to write the report to ${named}: it is inside the input ${holding.path}. Choose another --out, outside your inputs.`);
  const held = places.find((input) => isInside(input, out));
  if (held) throw new BoughError(`Refusing to write the report to ${named}: the input ${held.path} is inside it. Choose another --out, outside your inputs.`);
}

/** The first input that holds the folder `path`, or that it holds (see refuseUnsafeOut); null when none. */
export async function inputOverlapping(path: string, inputs: readonly OutInput[]): Promise<{ input: string; holds: boolean } | null> {
  const mounts = mountTable();
  const place = await placeOf(path, mounts);
  for (const input of await inputPlaces(inputs, mounts)) {
    if (isInside(place, input)) return { input: input.path, holds: false };
    if (isInside(input, place)) return { input: input.path, holds: true };
  }
  return null;
}

/** Whether the folder `path` is `other` or inside it ('inside'), or holds it ('holds'); null when neither. */
export async function overlapping(path: string, other: string): Promise<'inside' | 'holds' | null> {
  const mounts = mountTable();
  const [place, otherPlace] = [await placeOf(path, mounts), await placeOf(other, mounts)];
  return isInside(place, otherPlace) ? 'inside' : isInside(otherPlace, place) ? 'holds' : null;
}

/**
 * Where a file or folder is: its real path, and the device and inode of it (null when it does not
 * exist yet) and of each folder above it that exists.
 */
interface Place {
  real: string;
  id: string | null;
  chain: ReadonlySet<string>;
  /** Its device and path within that file system (Linux), whichever bind mount shows it; null where not known. */
  inFileSystem: { device: string; path: string } | null;
}

async function placeOf(path: string, mounts: readonly Mount[]): Promise<Place> {
  const real = await realPathOf(path);
  const chain = new Set<string>();
  let id: string | null = null;
  for (let at = real; ; at = dirname(at)) {
    const info = await stat(at, { bigint: true }).catch(() => null);
    if (info !== null) {
      const here = `${info.dev}:${info.ino}`;
      if (at === real) id = here;
      chain.add(here);
    }
    if (dirname(at) === at) return { real, id, chain, inFileSystem: inFileSystemOf(real, mounts) };
  }
}

interface Mount {
  device: string;
  /** The folder of its file system the mount shows. */
  root: string;
  at: string;
}

/**
 * A bind mount shows a folder of a file system at another path, where neither the real path nor
 * the folders above it (their device and inode) lead back to what holds it (a container that
 * mounts ~ and, elsewhere, ~/.claude). /proc/self/mountinfo says which folder each mount shows:
 * the path within its file system names a place however it is reached. Read once per check, not
 * once per process: mounts change while a process lives. None where there is no such file.
 */
function mountTable(): Mount[] {
  try {
    return readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .flatMap((line) => {
        const [, , device, root, at] = line.split(' ');
        const unescape = (field: string) => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
        return device && root && at ? [{ device, root: unescape(root), at: unescape(at) }] : [];
      });
  } catch {
    // Not Linux: real paths and inodes alone.
    return [];
  }
}

/** Where a real path is within its file system, by the deepest mount that shows it. */
function inFileSystemOf(real: string, mounts: readonly Mount[]): Place['inFileSystem'] {
  let best: Mount | null = null;
  for (const mount of mounts) if (isWithin(real, mount.at) && (best === null || mount.at.length >= best.at.length)) best = mount;
  return best === null ? null : { device: best.device, path: join(best.root, relative(best.at, real)) };
}

/** The inputs that exist, each with its place, taken once. */
async function inputPlaces(inputs: readonly OutInput[], mounts: readonly Mount[]): Promise<(Place & { path: string })[]> {
  const places: (Place & { path: string })[] = [];
  for (const input of inputs) {
    // An agent's folder bough reads by default that is not there yet is an input all the same: a
    // report written there would be read as sessions once the agent makes it (and the next build
    // into it refused).
    // An input below a folder bough may not enter is not read (the data-quality page says so):
    // compared as it is named, not a reason to refuse --out.
    const place = await placeOf(input.path, mounts).catch((): Place => ({ real: resolve(input.path), id: null, chain: new Set(), inFileSystem: null }));
    places.push({ ...place, path: input.path });
  }
  return places;
}

/** True when `place` is `folder` or below it: by real path, or by a folder above it being that folder. */
function isInside(place: Place, folder: Place): boolean {
  if (isWithin(place.real, folder.real) || (folder.id !== null && place.chain.has(folder.id))) return true;
  const [inner, outer] = [place.inFileSystem, folder.inFileSystem];
  return inner !== null && outer !== null && inner.device === outer.device && isWithin(inner.path, outer.path);
}

/** True when `path` is `folder` or below it (both real, absolute paths). */
function isWithin(path: string, folder: string): boolean {
  const inside = relative(folder, path);
  return !isAbsolute(inside) && inside !== '..' && !inside.startsWith(`..${sep}`);
}
