// Where --out really is, through symbolic links, and whether bough may write a report there.

import { lstat, readlink, realpath } from 'node:fs/promises';
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
        throw new BoughError(`Cannot follow ${current}: ${(error as Error).message}. Choose another --out.`, { cause: error });
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
 * folder. Compared by real paths, so a symbolic link on either side cannot get round it.
 */
export async function refuseUnsafeOut(outDir: string, inputs: readonly OutInput[], home: string): Promise<void> {
  const out = await realPathOf(outDir);
  const named = out === resolve(outDir) ? outDir : `${outDir} (${out}, through a symbolic link)`;
  if (out === parse(out).root || out === (await realPathOf(home))) {
    throw new BoughError(`Refusing to write the report to ${named}: choose a folder of its own with --out.`);
  }
  const reals = await realInputs(inputs);
  const holding = reals.find((input) => isWithin(out, input.real));
  if (holding) throw new BoughError(`Refusing to write the report to ${named}: it is inside the input ${holding.path}. Choose another --out, outside your inputs.`);
  const held = reals.find((input) => isWithin(input.real, out));
  if (held) throw new BoughError(`Refusing to write the report to ${named}: the input ${held.path} is inside it. Choose another --out, outside your inputs.`);
}

/** The first input that holds the folder `path`, or that it holds, by real paths; null when none. */
export async function inputOverlapping(path: string, inputs: readonly OutInput[]): Promise<{ input: string; holds: boolean } | null> {
  const real = await realPathOf(path);
  for (const input of await realInputs(inputs)) {
    if (isWithin(real, input.real)) return { input: input.path, holds: false };
    if (isWithin(input.real, real)) return { input: input.path, holds: true };
  }
  return null;
}

/** Whether the folder `path` is `other` or inside it ('inside'), or holds it ('holds'), by real paths; null when neither. */
export async function overlapping(path: string, other: string): Promise<'inside' | 'holds' | null> {
  const [real, otherReal] = [await realPathOf(path), await realPathOf(other)];
  return isWithin(real, otherReal) ? 'inside' : isWithin(otherReal, real) ? 'holds' : null;
}

/** The inputs that exist, each with its real path, taken once. */
async function realInputs(inputs: readonly OutInput[]): Promise<{ path: string; real: string }[]> {
  const reals: { path: string; real: string }[] = [];
  for (const input of inputs) {
    if (!input.exists) continue;
    // An input below a folder bough may not enter is not read (the data-quality page says so):
    // compared as it is named, not a reason to refuse --out.
    const real = await realPathOf(input.path).catch(() => resolve(input.path));
    reals.push({ path: input.path, real });
  }
  return reals;
}

/** True when `path` is `folder` or below it (both real, absolute paths). */
function isWithin(path: string, folder: string): boolean {
  const inside = relative(folder, path);
  return !isAbsolute(inside) && inside !== '..' && !inside.startsWith(`..${sep}`);
}
