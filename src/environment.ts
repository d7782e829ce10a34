// What bough reads of the machine it runs on: variables, the home folder and the time zone. Read
// once by the CLI and passed down, so nothing below it reads the process's environment.

import { isAbsolute, join } from 'node:path';

export interface Environment {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

/** The machine's IANA time zone, or UTC when it names none. */
export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * bough's own cache folder (ledgers, a downloaded price table): $BOUGH_CACHE_DIR, else
 * $XDG_CACHE_HOME/bough, else ~/.cache/bough. A relative $XDG_CACHE_HOME is not one: the XDG Base
 * Directory spec says to ignore it (it would put a cache wherever bough happens to run). A
 * relative $BOUGH_CACHE_DIR is the user's own choice, taken as it is (from where bough runs).
 */
export function boughCacheDir({ env, home }: Environment): string {
  const own = env['BOUGH_CACHE_DIR'];
  if (own) return own;
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.cache'), 'bough');
}
