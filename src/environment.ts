// What bough reads of the machine it runs on: variables, the home folder and the time zone. Read
// once by the CLI and passed down, so nothing below it reads the process's environment.

import { readlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { canonicalZone } from './time-zone.js';

export interface Environment {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

/**
 * The machine's IANA time zone, or UTC when it names none, by the name the machine gives it: Intl
 * gives a zone's oldest name (TZ=Asia/Kolkata reads "Asia/Calcutta"), so the name in $TZ, else the
 * one /etc/localtime links to, is kept when it is the same zone. Where Intl knows no zone ($TZ
 * empty, which POSIX reads as UTC, or a path to a zone file), $TZ's own name when it is one.
 */
export function machineTimeZone(
  env: Readonly<Record<string, string | undefined>> = process.env,
  resolved: string | null | undefined = Intl.DateTimeFormat().resolvedOptions().timeZone,
  localtime: () => string | null = localtimeName,
): string {
  // Node says "Etc/Unknown" for an empty $TZ, and nothing for a path: neither is a zone.
  const known = resolved && canonicalZone(resolved) !== null ? resolved : null;
  const tz = env['TZ'];
  // A $TZ that is set decides, even empty: /etc/localtime is then not the machine's clock.
  const names = tz === undefined ? [localtime()] : [zoneNameOf(tz)];
  for (const name of names) {
    // Not Etc/UTC for UTC: the name people know.
    if (!name || name.startsWith('Etc/')) continue;
    const canonical = canonicalZone(name);
    if (canonical !== null && (known === null || canonical === known)) return name;
  }
  return known ?? 'UTC';
}

/** A zone's name as $TZ gives it: "Asia/Tokyo", ":Asia/Tokyo", or a path to its zone file. */
function zoneNameOf(tz: string): string {
  const name = tz.replace(/^:/, '');
  const at = name.indexOf('zoneinfo/');
  return at === -1 ? name : name.slice(at + 'zoneinfo/'.length);
}

/** The zone /etc/localtime links to (`/usr/share/zoneinfo/Asia/Kolkata`), or null. */
function localtimeName(): string | null {
  try {
    const target = readlinkSync('/etc/localtime');
    const at = target.indexOf('zoneinfo/');
    return at === -1 ? null : target.slice(at + 'zoneinfo/'.length);
  } catch {
    return null;
  }
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
