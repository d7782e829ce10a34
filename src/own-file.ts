// Files bough wrote itself (the archive, the cache), read back: whatever else is in their place (a
// link to a device, a pipe) is not bough's, and reading it could hang a run or fill memory.

import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

/** Opened without following a link or waiting on a pipe, then looked at: a regular file, or it throws. */
export function openOwnFile(path: string): number {
  const file = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(file).isFile()) throw new Error(`${path} is not a regular file`);
    return file;
  } catch (error) {
    closeSync(file);
    throw error;
  }
}

/** A file of bough's own, read whole (see openOwnFile). */
export function readOwnFile(path: string): Buffer {
  const file = openOwnFile(path);
  try {
    return readFileSync(file);
  } finally {
    closeSync(file);
  }
}
