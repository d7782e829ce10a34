import { constants } from 'node:os';

// The one kind of error bough reports as a sentence to the user (exit 1), with an optional cause;
// and any error said in one line, where one file or page failing is reported beside the rest.

/** An error's message in a line (a stack overflow says which library it came from on later lines). */
export function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 300);
}

export class BoughError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BoughError';
  }
}

/** What the system says of a failed read or write that no one but the user can fix, in words. */
const SYSTEM_TROUBLE: Readonly<Record<string, string>> = {
  ENOSPC: 'no space is left on its device',
  EDQUOT: 'its disk quota is used up',
  EROFS: 'its file system is read-only',
  EIO: 'the device reported an input/output error',
  EFBIG: 'a file would grow past the size this system allows (ulimit -f)',
  EMFILE: 'bough has too many files open (raise the limit: ulimit -n)',
  ENFILE: 'the system has too many files open',
};

/**
 * A sentence for a failed read or write of the machine's (a full disk), which is no bough bug:
 * null for any other error.
 */
export function systemTrouble(error: unknown): string | null {
  const trouble = troubleWords(error);
  if (trouble === null) return null;
  const { path } = error as { path?: unknown };
  const where = typeof path === 'string' ? ` ${path}` : '';
  return `could not write or read${where}: ${trouble}. Make room or fix that, then run again; what bough was writing is left as it was before this run.`;
}

/** The words for what the system says of a failed read or write (`no space is left on its device`), or null for any other error. */
export function troubleWords(error: unknown): string | null {
  const code = systemCode(error);
  return (code === null ? undefined : SYSTEM_TROUBLE[code]) ?? null;
}

/** An error's system code (`ENOSPC`), or null. */
export function systemCode(error: unknown): string | null {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  if (typeof code !== 'string') return null;
  // Node names no code for some numbers ("UNKNOWN", or "Unknown system error -122": a quota on
  // Linux, as each call says it): told by the number.
  return (typeof errno === 'number' && (code === 'UNKNOWN' || code.startsWith('Unknown system error')) ? UNNAMED.get(-errno) : undefined) ?? code;
}

/** This system's numbers for the troubles Node may not name. */
const UNNAMED = new Map(Object.keys(SYSTEM_TROUBLE).flatMap((name) => {
  const number = (constants.errno as Record<string, number | undefined>)[name];
  return number === undefined ? [] : [[number, name] as const];
}));
