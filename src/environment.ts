// What bough reads of the machine it runs on: variables, the home folder and the time zone. Read
// once by the CLI and passed down, so nothing below it reads the process's environment.

import { readlinkSync, realpathSync } from 'node:fs';
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
  const given = tz === undefined ? localtime() : tz;
  for (const name of given === null ? [] : [zoneNameOf(given)]) {
    // Not Etc/UTC for UTC: the name people know.
    if (!name || name.startsWith('Etc/')) continue;
    const canonical = canonicalZone(name);
    // Its own spelling (Asia/Kolkata, not ICU's Asia/Calcutta), but not its letter case ("asia/tokyo").
    if (canonical !== null && (known === null || canonical === known)) return canonical.toLowerCase() === name.toLowerCase() ? canonical : name;
  }
  // A POSIX rule of a fixed offset ("JST-9"): the machine's clock keeps it; Intl names no zone.
  if (known === null && tz !== undefined) return fixedOffsetZone(tz.trim()) ?? 'UTC';
  return known ?? 'UTC';
}

/**
 * What to warn about a $TZ that names no zone bough can count in (a POSIX rule with summer time
 * or half hours, a mistyped name): its days are then UTC's, which the user must hear of; null
 * when $TZ is unset, empty, a zone's name or a fixed offset of whole hours.
 */
export function machineTimeZoneProblem(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  const tz = env['TZ']?.trim();
  if (!tz || canonicalZone(zoneNameOf(tz)) !== null || fixedOffsetZone(tz) !== null) return null;
  return `$TZ is ${JSON.stringify(tz)}, which names no time zone bough can count days in, so it counts them in UTC: pass --tz with an IANA name (such as Europe/Berlin), or set TZ to one.`;
}

/**
 * A POSIX rule of a fixed offset without summer time (`JST-9`, `<+03>-3`, `UTC0`) as the IANA zone
 * of that offset: Etc/GMT-9 is nine hours east, POSIX's sign; whole hours only, as those zones are.
 */
function fixedOffsetZone(tz: string): string | null {
  const match = /^(?:[A-Za-z]{3,}|<[A-Za-z0-9+-]{3,}>)([+-]?)(\d{1,2})(?::00){0,2}$/.exec(tz);
  if (match === null) return null;
  const hours = Number(match[2]);
  if (hours === 0) return 'UTC';
  const zone = `Etc/GMT${match[1] === '-' ? '-' : '+'}${hours}`;
  return canonicalZone(zone) !== null ? zone : null;
}

/**
 * A zone's name as $TZ gives it: "Asia/Tokyo", ":Asia/Tokyo", a path to its zone file, or the
 * zoneinfo's posix/ and right/ copies of it (the same zone; right/ counts leap seconds, which
 * days in bough's counting do not).
 */
function zoneNameOf(tz: string): string {
  const name = tz.replace(/^:/, '');
  const at = name.indexOf('zoneinfo/');
  return (at === -1 ? name : name.slice(at + 'zoneinfo/'.length)).replace(/^(?:posix|right)\//, '');
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

/** `$BOUGH_CONFIG_DIR` or `$XDG_CONFIG_HOME/bough` when an absolute path, else `~/.config/bough`. */
export function boughConfigDir({ env, home }: Environment): string {
  // Relative, it would name another folder, and another secret, from each working folder.
  const own = env['BOUGH_CONFIG_DIR'];
  if (own && isAbsolute(own)) return own;
  const xdg = env['XDG_CONFIG_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.config'), 'bough');
}

/**
 * The home folder as the file system resolves it, when that differs from how $HOME spells it (a
 * home that is a link: /home/ana → /data/ana): agents record the folders they ran in resolved, so
 * a report that redacts the home must know it by that name too. Null when it is the same or cannot
 * be resolved.
 */
export function resolvedHome(home: string | null): string | null {
  // A relative $HOME (".") names no home folder: resolved, it would be the working folder's path.
  if (home === null || !isAbsolute(home)) return null;
  try {
    const real = realpathSync.native(home);
    return real === home.replace(/[\\/]+$/, '') ? null : real;
  } catch {
    return null;
  }
}
