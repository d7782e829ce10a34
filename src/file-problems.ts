// Why a file or folder could not be read, in words a user can act on: shared by discovery and
// reading, so both say the same thing about the same failure.

import type { Stats } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import { systemCode } from './errors.js';

/** Why a file or folder could not be read, in words a user acts on; the system's message only for codes not named here. */
export function whyUnreadable(error: unknown): string {
  switch (errorCode(error)) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'a folder, not a file';
    case 'ENOTDIR':
      return 'not a folder (or part of its path is not one)';
    case 'ENOENT':
      // A name that is not UTF-8 reaches bough with U+FFFD in it, and no file has that name.
      return pathOf(error).includes('\uFFFD')
        ? 'its name (or its folder\'s) is not valid UTF-8, which bough cannot open by name: rename it to read it'
        : 'it vanished while being read (moved or deleted)';
    case 'ELOOP':
      return 'a loop of symbolic links';
    case 'ENAMETOOLONG':
      return 'its path is too long';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many files open at once';
    case 'EIO':
      return 'a read error from the disk';
    case 'ENXIO':
    case 'ENODEV':
      return 'a device, not a file';
    case 'EBUSY':
      return 'locked by another program';
    case 'ETIMEDOUT':
    case 'ESTALE':
      return 'a network drive that did not answer';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/** Why a file or folder could not be made, in words a user acts on. */
export function whyUnwritable(error: unknown): string {
  switch (errorCode(error)) {
    case 'EEXIST':
    case 'ENOTDIR':
      return 'a file is in the way of it';
    case 'ENOENT':
      // Said of a path to be made: a folder on it is not there, or takes no files (/proc).
      return 'a folder on its path does not exist or takes no files';
    case 'EROFS':
      return 'a read-only file system';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'your disk quota is used up';
    default:
      return whyUnreadable(error);
  }
}

/** Why a file named by the user could not be read: one that is not there is said so. */
export function whyNotRead(error: unknown): string {
  return errorCode(error) === 'ENOENT' ? 'no such file' : whyUnreadable(error);
}

/** What a path that is not a regular file is instead. */
export function notAFile(info: Stats): string {
  if (info.isDirectory()) return 'a folder, not a file';
  if (info.isFIFO()) return 'a named pipe, not a file';
  if (info.isSocket()) return 'a socket, not a file';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device, not a file';
  return 'not a regular file';
}

/** Why stat failed on a path: a symbolic link to nothing is said as such. */
export async function whyNotFound(path: string, error: unknown): Promise<string> {
  return (errorCode(error) === 'ENOENT' ? await danglingLink(path) : null) ?? whyUnreadable(error);
}

/** "a symbolic link to …, which does not exist" when `path` is one; null otherwise. Two looks: for error paths only. */
export async function danglingLink(path: string): Promise<string | null> {
  const link = await lstat(path).catch(() => null);
  if (!link?.isSymbolicLink()) return null;
  const target = await readlink(path).catch(() => null);
  return target === null ? 'a symbolic link to nothing' : `a symbolic link to ${target}, which does not exist`;
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error ? (systemCode(error) ?? undefined) : undefined;
}

function pathOf(error: unknown): string {
  const path = (error as { path?: unknown } | null)?.path;
  return typeof path === 'string' ? path : '';
}
