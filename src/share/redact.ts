// Replaces secrets with [REDACTED:kind] and the user's home folder with ~, counting each kind.

import { SECRET_FIELD, SECRET_PATTERNS } from './secrets.js';

export interface Redactor {
  text(value: string): string;
  /** The value of a field whose name says it is a secret (`"apiKey": "…"`). */
  field(name: string, value: string): string;
  /** How many of each kind were replaced so far. */
  readonly counts: ReadonlyMap<string, number>;
}

export const HOME_KIND = 'home-path';

export function createRedactor(home: string | null): Redactor {
  const counts = new Map<string, number>();
  const count = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const homePattern = homeRegExp(home);
  return {
    counts,
    field(name, value) {
      if (!SECRET_FIELD.test(name) || value.length < 4 || value.startsWith('[REDACTED:')) return this.text(value);
      count('secret-field');
      return '[REDACTED:secret-field]';
    },
    text(value) {
      let text = value;
      for (const { kind, pattern, group } of SECRET_PATTERNS) {
        text = text.replace(pattern, (...args: unknown[]) => {
          count(kind);
          const marker = `[REDACTED:${kind}]`;
          if (group === 0) return marker;
          // The groups of a grouped pattern cover the whole match: keep all but the secret.
          const groups = args.slice(1, args.findIndex((a) => typeof a === 'number')) as (string | undefined)[];
          return groups.map((g, i) => (i + 1 === group ? marker : (g ?? ''))).join('');
        });
      }
      if (homePattern) {
        text = text.replace(homePattern, () => {
          count(HOME_KIND);
          return '~';
        });
      }
      return text;
    },
  };
}

/**
 * The home folder where it stands as a path, in / or \ spelling: `/home/ana/x`, `"C:\Users\ana"`,
 * not `/home/anatoly`. A home of "/" or a drive root is never replaced.
 */
function homeRegExp(home: string | null): RegExp | null {
  if (home === null) return null;
  const trimmed = home.replace(/[\\/]+$/, '');
  if (trimmed.length < 3 || /^[A-Za-z]:$/.test(trimmed)) return null;
  const spellings = new Set([trimmed, trimmed.replace(/\\/g, '/'), trimmed.replace(/\//g, '\\')]);
  const alternatives = [...spellings].map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const windows = /^[A-Za-z]:/.test(trimmed);
  return new RegExp(`(?:${alternatives})(?![A-Za-z0-9._-])`, windows ? 'gi' : 'g');
}
