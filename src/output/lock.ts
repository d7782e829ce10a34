// One build at a time per report folder: a lock file beside --out (or in it, where its parent may
// not be written), created exclusively, holding
// the owner's process id, host and start time. A lock whose process has ended is taken over.

import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { BoughError } from '../errors.js';
import { whyUnwritable } from '../file-problems.js';

/** How long a second build waits for the first before it gives up, in milliseconds. */
export const LOCK_WAIT_MS = 5_000;
const POLL_MS = 100;
/** A lock file that cannot be read as a holder (cut off while written) counts as abandoned after this long. */
const UNREADABLE_STALE_MS = 30_000;

interface Holder {
  pid: number;
  host: string;
  started: string;
  /** The process's start in the kernel's clock (Linux), which tells a reused process id from the holder. */
  boot: string | null;
  token: string;
}

export interface ReportLock {
  /** Removes the lock file if it is still this build's. Synchronous, so a signal handler can call it. */
  release(): void;
}

export function lockPathOf(out: string): string {
  return `${out}.bough-lock`;
}

/** The lock's name inside --out, where its parent may not be written (the report folder chooses). */
export const LOCK_INSIDE = '.bough-lock';

/** Locks held by this process, released by a signal handler if the process is interrupted. */
const held = new Set<ReportLock>();

export function releaseHeldLocks(): void {
  for (const lock of held) lock.release();
}

/** Takes the lock on `out`, waiting up to `waitMs` for another build to finish; refuses in a sentence after that. */
export async function lockReportFolder(out: string, waitMs: number = LOCK_WAIT_MS, path: string = lockPathOf(out)): Promise<ReportLock> {
  const mine: Holder = {
    pid: process.pid,
    host: hostname(),
    started: new Date().toISOString(),
    boot: processStart(process.pid),
    token: randomBytes(8).toString('hex'),
  };
  const text = `${JSON.stringify(mine)}\n`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (tryCreate(path, text)) {
      const lock: ReportLock = {
        release() {
          held.delete(lock);
          if (readText(path) === text) unlinkSync(path);
        },
      };
      held.add(lock);
      return lock;
    }
    const seen = readText(path);
    if (seen === null) continue; // released between our attempt and the read
    const holder = parseHolder(seen);
    if (holder === null ? ageOf(path) > UNREADABLE_STALE_MS : !isAlive(holder)) {
      takeOver(path, seen);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder === null ? 'Another bough build' : `Another bough build (process ${holder.pid}, started ${holder.started})`;
      throw new BoughError(`${who} is writing the report to ${out}; try again when it ends. If no build is running, remove ${path}.`);
    }
    await sleep(POLL_MS);
  }
}

function tryCreate(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // The lock is bough's own file beside the report: what the user hears of is the report.
    throw new BoughError(`Cannot write the report folder there: ${whyUnwritable(error)} (${path}). Choose another --out.`, { cause: error });
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function ageOf(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function parseHolder(text: string): Holder | null {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    return typeof value.pid === 'number' && typeof value.host === 'string'
      ? {
          pid: value.pid,
          host: value.host,
          started: String(value.started ?? '?'),
          boot: typeof value.boot === 'string' ? value.boot : null,
          token: String(value.token ?? ''),
        }
      : null;
  } catch {
    return null;
  }
}

/** A holder on another machine (a shared folder) cannot be checked, so it counts as alive. */
function isAlive(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  const start = processStart(holder.pid);
  return holder.boot === null || start === null || start === holder.boot;
}

/** When a process started, from /proc on Linux; null elsewhere. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), in brackets; the start time is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * Removes a stale lock, unless another build took it over first: the lock is moved aside
 * atomically and put back when what was moved is not the stale one that was read.
 */
function takeOver(path: string, stale: string): void {
  const aside = `${path}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // gone already
  }
  if (readText(aside) !== stale) {
    try {
      linkSync(aside, path); // never replaces a lock created meanwhile
    } catch (error) {
      // EEXIST: a third build holds it now, and the waiting loop decides. Without hard links, rename back.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' && !existsSync(path)) {
        renameSync(aside, path);
        return;
      }
    }
  }
  unlinkSync(aside);
}
