// Which sessions copy which (forks, clones, full copies, imports, resumed copies), which files are
// only copies of a session another file holds, and which session counts each entry and usage
// record: an entry present in several files counts once, in the oldest file holding it, every
// origin before its copies; a usage record counts once by its source's rule.
// Pure: ledgers in, claims out.

import { CLAIM_TURN, type Source } from '../types.js';
import { entryOutput, GROWING_TAIL, isWarmupFile, type LedgerEntry, type SessionKey, type SessionLedger } from './ledger.js';
import { unpackEntries, type Unpack } from './packed-entries.js';

/**
 * Which copy of a usage record counts when several files hold it: the first holder (origins before
 * their copies, oldest first), or the copy with the most output tokens (a response written as it
 * streamed, each line a little more of it). 'first-in-turn': the first, where records name the turn
 * they were written in (Usage.claimTurn), and one naming none has a turn not known.
 */
export type UsageClaimRule = 'first' | 'first-in-turn' | 'most-output';

/** What a session counts of its file: one flag per entry, and one per usage record (in ledger order). */
export interface Counted {
  entries: Uint8Array;
  usage: Uint8Array;
}

export interface Claims {
  /** The session each copy was taken from, when that session is among the inputs. */
  originOf: ReadonlyMap<SessionKey, SessionKey>;
  /** Copies by origin, oldest first. */
  copiesOf: ReadonlyMap<SessionKey, readonly SessionKey[]>;
  /** Copies whose recorded origin is not among the inputs (their copied entries count in them). */
  missingOrigin: ReadonlySet<SessionKey>;
  /**
   * Of a copy whose origin is missing (a fork of a fork whose middle file is gone, a sibling copy
   * of a lost origin), the sessions counting the entries it holds and does not count, in the order
   * they count: what a page names as where its copied history counts.
   */
  countedIn: ReadonlyMap<SessionKey, readonly SessionKey[]>;
  /** For each session, what it counts. */
  counted: ReadonlyMap<SessionKey, Counted>;
  /**
   * The session each sub-agent file is counted and shown in: its parent's main file, or, when that
   * is not among the inputs (a main file never written), the oldest sub-agent file of that parent.
   */
  hostOf: ReadonlyMap<SessionKey, SessionKey>;
  /** Sub-agent files by host, oldest first. */
  subagentsOf: ReadonlyMap<SessionKey, readonly SessionKey[]>;
  /**
   * Files holding nothing that another file of the same session (the agent's own session id) does
   * not hold: the same transcript in a second config root, an archived copy of a live thread, an
   * import never gone on with. Each counts nothing, is no session or sub-agent of its own, and is
   * listed with the file that holds all it does.
   */
  duplicateOf: ReadonlyMap<SessionKey, SessionKey>;
  /** Those files by the file holding all they do, oldest first. */
  duplicatesOf: ReadonlyMap<SessionKey, readonly SessionKey[]>;
}

/** What each agent's files mean when several hold the same work (see SourceReader). */
export interface ClaimRules {
  /** Which copy of a usage record counts. */
  usage: (source: Source) => UsageClaimRule;
  /** Whether a file is its agent's archived copy of a session: of equal files of one session, the live one is the session's file. */
  isArchived?: (ledger: SessionLedger) => boolean;
  /**
   * Whether an agent's files of one session id are mirrors of one session (a second config root, an
   * archived copy), of which the fullest is the session; when not, they are copies a user made and
   * went on in (Pi's /import), and the first is the session.
   */
  mirrors?: (source: Source) => boolean;
  /**
   * Whether a file read now is new in the report's archive beside a kept file (`kept`): no earlier
   * build into its folder read it, or none while it read the kept one (a narrower build read it
   * first, the kept one outside its inputs or gone): a session moved there. Absent: no archive, none is.
   */
  newHere?: (ledger: SessionLedger, kept: SessionLedger) => boolean;
}

/** `unpack`: how each pass gets a ledger's entries (an EntriesHold's, to unpack them once). */
export function claimEntries(read: readonly SessionLedger[], rules: ClaimRules, unpack: Unpack = unpackEntries): Claims {
  const usageRule = rules.usage;
  const isArchived = rules.isArchived ?? (() => false);
  const mirrors = rules.mirrors ?? (() => false);
  // Sessions an earlier build archived that a file read now holds whole: theirs, read again (of an
  // agent whose copies go on, only a file holding no more: one holding more is their copy).
  const superseded = supersededArchives(read, unpack, mirrors, rules.newHere ?? (() => false));
  const ledgers = superseded.size === 0 ? read : read.filter((ledger) => !superseded.has(ledger));
  const originOf = new Map<SessionLedger, SessionLedger>();
  const missingOrigin = new Set<SessionLedger>();
  const index = indexLedgers(ledgers);
  const link = (copy: SessionLedger, origin: SessionLedger) => {
    if (isAncestor(copy, origin, originOf)) return;
    originOf.set(copy, origin);
    missingOrigin.delete(copy);
  };

  for (const ledger of ledgers) {
    if (ledger.parentFile === null && ledger.parentSessionId === null) continue;
    // A header naming its own file (written by hand, or damaged) names no origin: none is missing.
    if (namesItself(ledger, index)) continue;
    const origin = findOrigin(ledger, index);
    if (origin && !isAncestor(ledger, origin, originOf)) originOf.set(ledger, origin);
    // An origin that is its own copy's copy (files that name each other) was read all the same:
    // the loop is cut here, and the file is not said to come from a file missing.
    else if (!origin) missingOrigin.add(ledger);
  }
  // Files of one session id, the first of them the origin of the others (imports and exports keep
  // the session id and name no origin). Of an agent whose files of a session are mirrors: a file
  // read now before one kept from an earlier build, the live copy before an archived one, then
  // the oldest. Of an agent whose copies go on (Pi): a kept file (not superseded above) is the
  // origin of copies made of it, and of files that started at once, the one holding less comes
  // first (an import holds its origin's entries and more under the same header and name, and a
  // file's time alone, a copy's or a restore's, made the origin the import's duplicate, dropped
  // from the report; an export starts when it was written), then the oldest. One that holds
  // nothing a file before it does not is that file's copy, counted after it, so that it counts
  // nothing. A file sharing no entry with the files before it is a session of its own that
  // happens to have the id (Pi takes one chosen by the caller: `--session-id nightly` in two
  // projects), and a file sharing some with them is the copy of the one it shares most with.
  // Sub-agent files carry their parent's id without being copies of it.
  const keys = claimKeysMemo(unpack);
  const keptLast = (l: SessionLedger) => Number(l.lastSeen !== null && mirrors(l.source));
  const startOf = (l: SessionLedger) => l.startedAt ?? Infinity;
  const lessFirst = (a: SessionLedger, b: SessionLedger) => (mirrors(a.source) ? 0 : startOf(a) - startOf(b) || keys(a).size - keys(b).size);
  const byPreference = (a: SessionLedger, b: SessionLedger) => keptLast(a) - keptLast(b) || Number(isArchived(a)) - Number(isArchived(b)) || lessFirst(a, b) || byAge(a, b);
  const heldBy = new Map<SessionLedger, SessionLedger>();
  for (const withId of index.bySessionId.values()) {
    const sameId = withId.filter((l) => l.subagentOf === null);
    if (sameId.length < 2) continue;
    const preferred = [...sameId].sort(byPreference);
    for (const [copy, holder] of heldCopies(preferred, keys, mirrors, unpack)) heldBy.set(copy, holder);
    const unheld = preferred.filter((ledger) => !heldBy.has(ledger));
    for (const copy of preferred) {
      const holder = heldBy.get(copy);
      if (holder) link(copy, holder);
      else if (!originOf.has(copy)) {
        // The one it shares most with: of an import of an import, the file it was imported from.
        let origin: SessionLedger | null = null;
        let most = 0;
        for (const other of unheld.slice(0, unheld.indexOf(copy))) {
          const shared = sharedCount(keys(other), keys(copy));
          if (shared > most) [origin, most] = [other, shared];
        }
        if (origin) link(copy, origin);
      }
    }
  }

  let counting = countedEntries(ledgers, originOf, usageRule, mirrors, index, unpack);
  // A copy that names no origin is known by its history; when its origin was counted after it
  // (the copy's file is older on disk), the history is counted again, origins first.
  // So is one whose responses are claimed under its own session id, rewritten from its origin's.
  const claimsBySession = (copy: SessionLedger, origin: SessionLedger) =>
    origin.sessionId !== copy.sessionId && usageRule(copy.source) === 'most-output' && unpack(copy.entries).some((entry) => entry.usage.some((record) => record.key.startsWith(`${copy.sessionId}\u0000`)));
  while (linkCopiesByHistory(ledgers, counting, originOf, missingOrigin, heldBy, keys, claimsBySession)) counting = countedEntries(ledgers, originOf, usageRule, mirrors, index, unpack);
  const { counted, order } = counting;

  const duplicateOf = new Map<SessionLedger, SessionLedger>(superseded);
  for (const [copy, holder] of heldBy) if (originOf.get(copy) === holder && countsNothing(counted.get(copy.key))) duplicateOf.set(copy, holder);
  for (const [copy, holder] of heldSubagentCopies(ledgers, counted, order, keys, unpack)) duplicateOf.set(copy, holder);

  const copiesOf = new Map<SessionKey, SessionKey[]>();
  for (const ledger of [...originOf.keys()].sort(byAge)) {
    if (duplicateOf.has(ledger)) continue;
    const origin = originOf.get(ledger) as SessionLedger;
    const list = copiesOf.get(origin.key);
    if (list) list.push(ledger.key);
    else copiesOf.set(origin.key, [ledger.key]);
  }
  const countedIn = countingSessions(
    ledgers.filter((l) => !duplicateOf.has(l) && missingOrigin.has(l)),
    order,
    counted,
    unpack,
  );
  const duplicatesOf = new Map<SessionKey, SessionKey[]>();
  for (const ledger of [...duplicateOf.keys()].sort(byAge)) {
    const holder = (duplicateOf.get(ledger) as SessionLedger).key;
    const list = duplicatesOf.get(holder);
    if (list) list.push(ledger.key);
    else duplicatesOf.set(holder, [ledger.key]);
  }
  return {
    originOf: new Map([...originOf].filter(([copy]) => !duplicateOf.has(copy)).map(([copy, origin]) => [copy.key, origin.key])),
    copiesOf,
    missingOrigin: new Set([...missingOrigin].filter((l) => !duplicateOf.has(l)).map((l) => l.key)),
    countedIn,
    counted,
    ...subagentHosts(ledgers.filter((l) => !duplicateOf.has(l)), originOf),
    duplicateOf: new Map([...duplicateOf].map(([copy, holder]) => [copy.key, holder.key])),
    duplicatesOf,
  };
}

/**
 * For each of `copies`, the sessions counting the entries it holds and does not count (see
 * Claims.countedIn), found in one pass over the files counted before the last of them.
 */
function countingSessions(
  copies: readonly SessionLedger[],
  order: ReadonlyMap<SessionLedger, number>,
  counted: ReadonlyMap<SessionKey, Counted>,
  unpack: Unpack,
): Map<SessionKey, SessionKey[]> {
  const found = new Map<SessionKey, SessionKey[]>();
  const wanted = new Map<string, SessionLedger[]>();
  // Only files of their agents, counted before the last of them, can count what they copied.
  const sources = new Set(copies.map((copy) => copy.source));
  const last = Math.max(-1, ...copies.map((copy) => order.get(copy) ?? -1));
  for (const copy of copies) {
    const flags = counted.get(copy.key)?.entries;
    if (flags === undefined || !flags.includes(0)) continue;
    unpack(copy.entries).forEach((entry, i) => {
      if (flags[i] !== 0) return;
      const key = `${copy.source}\0${entry.key}`;
      const list = wanted.get(key);
      if (list) list.push(copy);
      else wanted.set(key, [copy]);
    });
  }
  if (wanted.size === 0) return found;
  for (const [ledger, place] of order) {
    if (place >= last) break;
    if (!sources.has(ledger.source)) continue;
    const flags = counted.get(ledger.key)?.entries;
    if (!flags?.includes(1)) continue;
    unpack(ledger.entries).forEach((entry, i) => {
      if (flags[i] !== 1) return;
      const key = `${ledger.source}\0${entry.key}`;
      const copiesOfIt = wanted.get(key);
      if (!copiesOfIt) return;
      wanted.delete(key);
      for (const copy of copiesOfIt) {
        const list = found.get(copy.key);
        if (!list) found.set(copy.key, [ledger.key]);
        else if (!list.includes(ledger.key)) list.push(ledger.key);
      }
    });
    if (wanted.size === 0) break;
  }
  return found;
}

/**
 * Sessions an earlier build archived (their files gone from where they were read) that a file read
 * now of the same agent and session id holds entry by entry, each with the file holding it: the
 * session moved (a second config root, Codex's archived_sessions), read again by this bough. Told
 * by entries, not usage claims: a newer reader may key usage otherwise (a response it reads as one
 * where an older one read each line), and read several lines as one entry, which names the others
 * (aliases). An entry held under its own key holds at least the output archived of it: a copy cut
 * inside a response (its fuller line lost) holds less, and the archive keeps what it has. Of an
 * agent whose files of a session are no mirrors (Pi), only a file holding no more than the
 * archived one is it moved: one holding more is a copy gone on (an import), whose origin stays.
 */
function supersededArchives(
  ledgers: readonly SessionLedger[],
  unpack: Unpack,
  mirrors: (source: Source) => boolean,
  newHere: (ledger: SessionLedger, kept: SessionLedger) => boolean,
): Map<SessionLedger, SessionLedger> {
  const superseded = new Map<SessionLedger, SessionLedger>();
  const kept = ledgers.filter((ledger) => ledger.lastSeen !== null && ledger.subagentOf === null && ledger.entries.count > 0);
  if (kept.length === 0) return superseded;
  const liveById = new Map<string, SessionLedger[]>();
  for (const ledger of ledgers) {
    if (ledger.lastSeen !== null || ledger.subagentOf !== null) continue;
    const list = liveById.get(ledger.sessionId);
    if (list) list.push(ledger);
    else liveById.set(ledger.sessionId, [ledger]);
  }
  const holdsMemo = new Map<SessionLedger, Map<SessionLedger, boolean>>();
  const holdsAllOf = (live: SessionLedger, archived: SessionLedger): boolean => {
    let byArchived = holdsMemo.get(live);
    if (byArchived === undefined) holdsMemo.set(live, (byArchived = new Map()));
    let holds = byArchived.get(archived);
    if (holds === undefined) byArchived.set(archived, (holds = holdsEntries(unpack(live.entries), unpack(archived.entries))));
    return holds;
  };
  const liveOf = (archived: SessionLedger) => (liveById.get(archived.sessionId) ?? []).filter((ledger) => ledger.source === archived.source);
  for (const archived of kept) {
    const live = liveOf(archived);
    if (live.length === 0) continue;
    let holder: SessionLedger | undefined;
    if (mirrors(archived.source)) holder = live.find((ledger) => holdsAllOf(ledger, archived));
    // Of an agent whose copies go on (Pi's imports), a file is the kept one moved when it holds
    // no more (an import, moved or copied again, holds more: the kept one stays, its origin; each
    // entry counted once).
    else holder = live.find((ledger) => ledger.entries.count <= archived.entries.count && holdsAllOf(ledger, archived));
    if (holder) superseded.set(archived, holder);
  }
  // Or when it holds more, is the one file of the session read now, no earlier build read it, and
  // it is no other kept file moved: the kept one moved and gone on, one session, as `stats` says
  // (it was the gone file with the history beside the moved one as its copy, holding the new
  // reply alone). Not an import moved (another kept file, its origin stays) nor one beside
  // another file of the session (a copy of an import); of several kept files it holds (an import
  // moved and gone on, and the import's gone origin), the fullest is the one moved, the others
  // stay its origins.
  const movedInto = new Set(superseded.values());
  const movedFrom = new Map<SessionLedger, SessionLedger>();
  for (const archived of kept) {
    if (superseded.has(archived) || mirrors(archived.source)) continue;
    const live = liveOf(archived);
    const only = live.length === 1 ? (live[0] as SessionLedger) : null;
    if (!only || !newHere(only, archived) || movedInto.has(only) || !holdsAllOf(only, archived)) continue;
    const fullest = movedFrom.get(only);
    if (!fullest || archived.entries.count > fullest.entries.count) movedFrom.set(only, archived);
  }
  for (const [only, archived] of movedFrom) superseded.set(archived, only);
  return superseded;
}

/**
 * Whether a file read now holds every entry archived of a file (`was`): each under its key with at
 * least the output archived of it, or merged into one of its entries (an alias), or, near its end,
 * the last prompt read again from the line written a moment after it.
 */
function holdsEntries(now: readonly LedgerEntry[], was: readonly LedgerEntry[]): boolean {
  const wasKeys = new Set(was.map((entry) => entry.key));
  const output = new Map<string, number>();
  const merged = new Set<string>();
  for (const entry of now) {
    output.set(entry.key, entryOutput(entry));
    for (const alias of entry.aliases ?? []) merged.add(alias);
  }
  // Prompts the file holds that the archive did not: one of them may be the last archived prompt
  // read again from the line written a moment after it (Codex writes the words sent twice, as the
  // model's input and then as an event, and a file read between the two ends on the first).
  const newPrompts = now.filter((entry) => entry.turn === 'prompt' && entry.time !== null && !wasKeys.has(entry.key));
  const readAgain = (entry: LedgerEntry, at: number) => {
    if (at < was.length - GROWING_TAIL || now.length <= was.length) return false;
    if (entry.turn !== 'prompt' || entry.usage.length > 0 || entry.time === null) return false;
    const time = entry.time;
    return newPrompts.some((prompt) => Math.abs((prompt.time as number) - time) <= SAME_MOMENT_MS);
  };
  return was.every((entry, at) => {
    const held = output.get(entry.key);
    return held !== undefined ? held >= entryOutput(entry) : merged.has(entry.id) || readAgain(entry, at);
  });
}

/** At most this far apart, an agent wrote the same words twice (Codex: a millisecond apart). */
const SAME_MOMENT_MS = 2000;

/** Every claim a file holds (its entries' keys and its usage records'), unpacked once per file asked for. */
function claimKeysMemo(unpack: Unpack): (ledger: SessionLedger) => ReadonlySet<string> {
  const memo = new Map<SessionLedger, Set<string>>();
  return (ledger) => {
    let keys = memo.get(ledger);
    if (keys === undefined) {
      keys = new Set<string>();
      for (const entry of unpack(ledger.entries)) {
        keys.add(entry.key);
        // Apart from entry keys: a reader's usage claim is its own kind of key.
        for (const record of entry.usage) keys.add(`\0usage\0${record.key}`);
      }
      memo.set(ledger, keys);
    }
    return keys;
  };
}

/** A session-scoped claim (three parts: session, message id, time) without its session; any other as it is. */
function withoutSession(key: string): string {
  const first = key.indexOf('\u0000');
  const second = first === -1 ? -1 : key.indexOf('\u0000', first + 1);
  return second !== -1 && key.indexOf('\u0000', second + 1) === -1 ? key.slice(first + 1) : key;
}

function sharedCount(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let count = 0;
  for (const key of small) if (large.has(key)) count++;
  return count;
}

function holdsAll(holder: ReadonlySet<string>, copy: ReadonlySet<string>): boolean {
  if (copy.size > holder.size) return false;
  for (const key of copy) if (!holder.has(key)) return false;
  return true;
}

/**
 * Of files of one session in the order they count in, each whose every claim a file before it (of
 * its source) also holds, with the first such file. That file is held by none: a file before it
 * holding all it holds would hold the copy's too, and come first. Of an agent whose files of one
 * session are mirrors, a file holding all a copy does and more holds it wherever it comes in that
 * order (an older, shorter copy in a second config root; a live copy whose archived one went on):
 * the one holding the most, which no file holds. Of mirrors holding the same claims, the one whose
 * usage records hold more output is the fuller: a copy cut off inside a streamed response holds its
 * first line, and the other file its last (the line that counts).
 */
function heldCopies(
  ordered: readonly SessionLedger[],
  keys: (ledger: SessionLedger) => ReadonlySet<string>,
  mirrors: (source: Source) => boolean,
  unpack: Unpack,
): Map<SessionLedger, SessionLedger> {
  const held = new Map<SessionLedger, SessionLedger>();
  const output = new Map<SessionLedger, number>();
  const outputOf = (ledger: SessionLedger) => {
    let total = output.get(ledger);
    if (total === undefined) {
      total = 0;
      for (const entry of unpack(ledger.entries)) for (const usage of entry.usage) total += usage.output;
      output.set(ledger, total);
    }
    return total;
  };
  /** Whether `a`, holding all `b` holds, holds more: more claims, or the same with more output. */
  const fuller = (a: SessionLedger, b: SessionLedger) => keys(a).size > keys(b).size || (keys(a).size === keys(b).size && outputOf(a) > outputOf(b));
  ordered.forEach((copy, at) => {
    const copyKeys = keys(copy);
    const fullest = mirrors(copy.source);
    let holder: SessionLedger | null = null;
    ordered.forEach((other, i) => {
      if (other === copy || other.source !== copy.source || !holdsAll(keys(other), copyKeys)) return;
      if (fullest ? (i > at ? !fuller(other, copy) : fuller(copy, other)) : i > at) return;
      if (holder === null || (fullest && fuller(other, holder))) holder = other;
    });
    if (holder !== null) held.set(copy, holder);
  });
  return held;
}

function countsNothing(counted: Counted | undefined): boolean {
  return counted !== undefined && !counted.entries.includes(1) && !counted.usage.includes(1);
}

/**
 * Sub-agent files that count nothing, each with the file of the same sub-agent run that holds all
 * it does (the same sub-agent file in a second config root), counted before it.
 */
function heldSubagentCopies(
  ledgers: readonly SessionLedger[],
  counted: ReadonlyMap<SessionKey, Counted>,
  order: ReadonlyMap<SessionLedger, number>,
  keys: (ledger: SessionLedger) => ReadonlySet<string>,
  unpack: Unpack,
): Map<SessionLedger, SessionLedger> {
  // Files with no entries hold no copy of anything: they stay as they are.
  const idle = ledgers.filter((l) => l.subagentOf !== null && l.entries.count > 0 && countsNothing(counted.get(l.key)));
  if (idle.length === 0) return new Map();
  const runOf = (l: SessionLedger) => `${l.source}\0${l.subagentOf ?? ''}\0${l.sessionId}`;
  const runs = new Map<string, SessionLedger[]>();
  for (const ledger of idle) runs.set(runOf(ledger), []);
  for (const ledger of ledgers) if (ledger.subagentOf !== null) runs.get(runOf(ledger))?.push(ledger);
  const held = new Map<SessionLedger, SessionLedger>();
  const placeOf = (l: SessionLedger) => order.get(l) ?? 0;
  for (const copy of idle) {
    const before = (runs.get(runOf(copy)) ?? []).filter((l) => placeOf(l) < placeOf(copy) && l.entries.count >= copy.entries.count);
    const holder = heldCopies([...before.sort((a, b) => placeOf(a) - placeOf(b)), copy], keys, () => false, unpack).get(copy);
    if (holder) held.set(copy, holder);
  }
  return held;
}

/**
 * A copy that names no origin (Claude Code's resumed session written under a new session id) is
 * known by its history: its first turn was counted in another file. Among the files beginning with
 * that turn, its origin is the one sharing most of its history, but never one that copied it (one
 * holding all it holds, and more or counted after it). When all of them copied it, it was counted
 * after its copies (its file is newer on disk) and is their origin: each is linked by the same
 * rule. True when an origin was linked that was counted after its copy, so that the history must
 * be counted again.
 */
function linkCopiesByHistory(
  ledgers: readonly SessionLedger[],
  { firstTurns, order }: Counting,
  originOf: Map<SessionLedger, SessionLedger>,
  missingOrigin: ReadonlySet<SessionLedger>,
  heldBy: ReadonlyMap<SessionLedger, SessionLedger>,
  keys: (ledger: SessionLedger) => ReadonlySet<string>,
  claimsBySession: (copy: SessionLedger, origin: SessionLedger) => boolean,
): boolean {
  const unlinked = (l: SessionLedger) => !originOf.has(l) && !missingOrigin.has(l) && !heldBy.has(l);
  const copies = ledgers.filter((l) => firstTurns.get(l)?.counted === false && unlinked(l));
  if (copies.length === 0) return false;
  const byFirstTurn = new Map<string, SessionLedger[]>();
  for (const [ledger, first] of firstTurns) {
    if (heldBy.has(ledger)) continue;
    const list = byFirstTurn.get(first.key);
    if (list) list.push(ledger);
    else byFirstTurn.set(first.key, [ledger]);
  }
  const placeOf = (l: SessionLedger) => order.get(l) ?? 0;
  const familyOf = (copy: SessionLedger) =>
    (byFirstTurn.get((firstTurns.get(copy) as FirstTurn).key) ?? []).filter((l) => l !== copy && l.source === copy.source);
  const copied = (copy: SessionLedger, by: SessionLedger) =>
    holdsAll(keys(by), keys(copy)) && (keys(by).size > keys(copy).size || placeOf(by) > placeOf(copy));
  const originByHistory = (copy: SessionLedger): SessionLedger | undefined => {
    const own = keys(copy);
    const shared = (other: SessionLedger) => {
      let n = 0;
      for (const key of keys(other)) if (own.has(key)) n++;
      return n;
    };
    // Most history shared; of equals, one that is no copy itself (two copies of one session share
    // as much with each other as with it, and one was taken for the other's origin), then the
    // nearest before it (a copy of a copy shares all of both), and only then one after it.
    const before = (l: SessionLedger) => placeOf(l) < placeOf(copy);
    const original = (l: SessionLedger) => Number(!originOf.has(l) && firstTurns.get(l)?.counted !== false);
    return familyOf(copy)
      .filter((l) => !copied(copy, l))
      .map((l) => ({ ledger: l, shared: shared(l) }))
      .sort(
        (a, b) =>
          b.shared - a.shared ||
          original(b.ledger) - original(a.ledger) ||
          Number(before(b.ledger)) - Number(before(a.ledger)) ||
          (before(a.ledger) ? placeOf(b.ledger) - placeOf(a.ledger) : placeOf(a.ledger) - placeOf(b.ledger)),
      )[0]?.ledger;
  };
  let countAgain = false;
  const linkByHistory = (copy: SessionLedger) => {
    const origin = originByHistory(copy);
    if (origin === undefined || isAncestor(copy, origin, originOf)) return false;
    originOf.set(copy, origin);
    if (placeOf(origin) > placeOf(copy) || claimsBySession(copy, origin)) countAgain = true;
    return true;
  };
  for (const copy of copies) {
    if (!unlinked(copy) || linkByHistory(copy)) continue;
    for (const later of familyOf(copy)) if (unlinked(later) && copied(copy, later)) linkByHistory(later);
  }
  return countAgain;
}

/**
 * Each sub-agent file's host: the oldest main file of its parent session that is not itself a copy,
 * found through sub-agents of sub-agents; without one, the oldest sub-agent file of that parent
 * that is not a warmup, else its oldest warmup.
 */
function subagentHosts(ledgers: readonly SessionLedger[], originOf: ReadonlyMap<SessionLedger, SessionLedger>): Pick<Claims, 'hostOf' | 'subagentsOf'> {
  const index = indexLedgers(ledgers);
  const parentOf = new Map<SessionLedger, SessionLedger>();
  const orphans = new Map<string, SessionLedger[]>();
  for (const ledger of ledgers) {
    if (ledger.subagentOf === null) continue;
    const candidates = (index.bySessionId.get(ledger.subagentOf) ?? []).filter((l) => l !== ledger && l.source === ledger.source);
    const mains = candidates.filter((l) => l.subagentOf === null);
    // Of main files of its session id, the one nearest it in the folder tree (two sessions that
    // share an id, Claude Code's --session-id in two projects, or a copy gone on in another, each
    // keep their own sub-agents); of those as near, one that is no copy.
    const parent = nearest(ledger, mains, (l) => !originOf.has(l)) ?? oldest(candidates.filter((l) => l.subagentOf !== ledger.subagentOf));
    if (parent) parentOf.set(ledger, parent);
    else {
      const key = `${ledger.source}\0${ledger.subagentOf}`;
      const list = orphans.get(key);
      if (list) list.push(ledger);
      else orphans.set(key, [ledger]);
    }
  }
  for (const list of orphans.values()) {
    // A warmup (claude.md §8.4) is the oldest file of a session whose main file is gone, and no
    // work of the session's: another sub-agent's file stands for the session where there is one.
    const warmup = (l: SessionLedger) => Number(isWarmupFile(l));
    const [host, ...rest] = [...list].sort((a, b) => warmup(a) - warmup(b) || byAge(a, b));
    for (const ledger of rest) if (host) parentOf.set(ledger, host);
  }
  const hostOf = new Map<SessionKey, SessionKey>();
  const subagentsOf = new Map<SessionKey, SessionKey[]>();
  for (const ledger of [...parentOf.keys()].sort(byAge)) {
    let host = parentOf.get(ledger) as SessionLedger;
    const seen = new Set<SessionLedger>([ledger]);
    while (parentOf.has(host) && !seen.has(host)) {
      seen.add(host);
      host = parentOf.get(host) as SessionLedger;
    }
    // A loop of sub-agents naming each other has no host: each stays a session of its own.
    if (seen.has(host)) continue;
    hostOf.set(ledger.key, host.key);
    const list = subagentsOf.get(host.key);
    if (list) list.push(ledger.key);
    else subagentsOf.set(host.key, [ledger.key]);
  }
  return { hostOf, subagentsOf };
}

interface LedgerIndex {
  byPath: Map<string, SessionLedger>;
  byBaseName: Map<string, SessionLedger[]>;
  bySessionId: Map<string, SessionLedger[]>;
}

function indexLedgers(ledgers: readonly SessionLedger[]): LedgerIndex {
  const byPath = new Map<string, SessionLedger>();
  const byBaseName = new Map<string, SessionLedger[]>();
  const bySessionId = new Map<string, SessionLedger[]>();
  const push = (map: Map<string, SessionLedger[]>, key: string, ledger: SessionLedger) => {
    const list = map.get(key);
    if (list) list.push(ledger);
    else map.set(key, [ledger]);
  };
  for (const ledger of ledgers) {
    byPath.set(normalisePath(ledger.path), ledger);
    push(byBaseName, baseName(ledger.path), ledger);
    push(bySessionId, ledger.sessionId, ledger);
  }
  return { byPath, byBaseName, bySessionId };
}

/**
 * Recorded origin paths come from the machine that wrote them: match by path, else by file
 * name, else by the session id the reader read from the origin's name or the records.
 */
function findOrigin(ledger: SessionLedger, index: LedgerIndex): SessionLedger | null {
  const others = (list: SessionLedger[] | undefined) => (list ?? []).filter((l) => l !== ledger && l.source === ledger.source);
  const recorded = ledger.parentFile;
  if (recorded !== null) {
    const exact = index.byPath.get(normalisePath(recorded));
    if (exact && exact !== ledger && exact.source === ledger.source) return exact;
    const byName = others(index.byBaseName.get(baseName(recorded)));
    if (byName.length > 0) return oldest(byName);
  }
  if (ledger.parentSessionId === null) return null;
  const byId = others(index.bySessionId.get(ledger.parentSessionId)).filter((l) => l.subagentOf === null);
  return byId.length > 0 ? oldest(byId) : null;
}

/** Whether a file's recorded origin is the file itself: its own path, or its own name where no other file read has it. */
function namesItself(ledger: SessionLedger, index: LedgerIndex): boolean {
  const recorded = ledger.parentFile;
  if (recorded === null) return false;
  if (normalisePath(recorded) === normalisePath(ledger.path)) return true;
  const named = index.byBaseName.get(baseName(recorded)) ?? [];
  return named.length === 1 && named[0] === ledger;
}

function isAncestor(candidate: SessionLedger, of: SessionLedger, originOf: ReadonlyMap<SessionLedger, SessionLedger>): boolean {
  const seen = new Set<SessionLedger>();
  for (let at: SessionLedger | undefined = of; at && !seen.has(at); at = originOf.get(at)) {
    if (at === candidate) return true;
    seen.add(at);
  }
  return false;
}

interface FirstTurn {
  key: string;
  /** The file counts it: no file counted before it holds it. */
  counted: boolean;
}

interface Counting {
  counted: Map<SessionKey, Counted>;
  /** Each file's place in the order its history was counted in. */
  order: Map<SessionLedger, number>;
  /** Each main file's first prompt or reply, which a copy of its history holds too. */
  firstTurns: Map<SessionLedger, FirstTurn>;
}

/**
 * The first session to hold an entry key counts it. Sessions are taken oldest first, each origin
 * before its copies, across all inputs: two copies of one lost origin, or a copy of a copy whose
 * middle file is lost, still share their history, and it counts once. Usage records are claimed
 * by their own key the same way, or, where the source says so, by the copy with the most output.
 */
function countedEntries(
  ledgers: readonly SessionLedger[],
  originOf: ReadonlyMap<SessionLedger, SessionLedger>,
  usageRule: (source: Source) => UsageClaimRule,
  mirrors: (source: Source) => boolean,
  index: LedgerIndex,
  unpack: Unpack,
): Counting {
  const ordered: SessionLedger[] = [];
  const placed = new Set<SessionLedger>();
  const place = (ledger: SessionLedger) => {
    // Origins first; the chain is acyclic (links that would close a loop were refused).
    const chain: SessionLedger[] = [];
    for (let at: SessionLedger | undefined = ledger; at && !placed.has(at); at = originOf.get(at)) chain.push(at);
    for (const link of chain.reverse()) {
      placed.add(link);
      ordered.push(link);
    }
  };
  // By age, as when every file was read: a file kept from an earlier build (its file gone) counts
  // where it did then (a gone Codex parent before the child that replays it; regression: last, so
  // the child took its history and its prompts). Of files that started at once, one read now
  // that holds all a kept one held first (a project folder renamed, a sub-agent file with it): it
  // is the one that counts, and the kept one its duplicate. Not a copy read now holding part of
  // it (regression: a Claude Code session resumed under a new id, its origin's file gone since,
  // took the history they share, and the origin was shown as the copy's copy). Not of an agent
  // whose copies go on (Pi): a kept file beside one read now is its origin (a file it moved to
  // was superseded before), by age.
  const startOf = (ledger: SessionLedger) => ledger.startedAt ?? Infinity;
  const heldNow = keptHeldByFilesReadNow(ledgers, mirrors, unpack);
  const keptLast = (ledger: SessionLedger) => Number(heldNow.has(ledger));
  [...ledgers].sort((a, b) => startOf(a) - startOf(b) || keptLast(a) - keptLast(b) || byAge(a, b)).forEach(place);

  // Keys are claimed within their source. Kept per source rather than joined to it: the keys are
  // flat strings already, whose hashes V8 keeps, and a joined one is a new string per lookup.
  const perSource = <T>(make: () => T) => {
    const bySource = new Map<Source, T>();
    return (source: Source): T => {
      let found = bySource.get(source);
      if (found === undefined) bySource.set(source, (found = make()));
      return found;
    };
  };
  const claimedIn = perSource(() => new Set<string>());
  const counted = new Map<SessionKey, Counted>();
  // Responses a main thread holds: a sub-agent's record of one of them replays it, and is not counted.
  const mainResponsesIn = perSource(() => new Set<string>());
  // A pass of its own only where some file holds a sub-agent's record of a response.
  const replaying = new Set(ledgers.filter((ledger) => ledger.entries.subagentResponses).map((ledger) => ledger.source));
  // A response id a main thread gives to responses of several claims (a gateway's one message id
  // for every response, claude.md §9.3) tells no replay: a sub-agent's records of it count.
  const claimOfResponse = new Map<string, string | null>();
  for (const ledger of ledgers) {
    if (!replaying.has(ledger.source)) continue;
    const mainResponses = mainResponsesIn(ledger.source);
    for (const entry of unpack(ledger.entries)) {
      for (const record of entry.usage) {
        if (record.origin === 'subagent' || record.responseId === null) continue;
        const key = `${ledger.source}\u0000${record.responseId}`;
        const claim = claimOfResponse.get(key);
        if (claim === undefined) {
          claimOfResponse.set(key, record.key);
          mainResponses.add(record.responseId);
        } else if (claim !== null && claim !== record.key) {
          claimOfResponse.set(key, null);
          mainResponses.delete(record.responseId);
        }
      }
    }
  }
  /** Usage claims taken, where the first holder counts: whole, and without their turn (see Usage.claimTurn). */
  const usageClaimedIn = perSource(() => new Set<string>());
  const heldWithoutTurnIn = perSource(() => new Set<string>());
  /** Of each file whose claims name turns, its claims without them: what a file copied or spawned from it may replay. */
  const withoutTurnOf = new Map<SessionLedger, Set<string>>();
  /**
   * Of each file, its claims of a source whose claims name turns, written with none (its turn not
   * known: a response whose own line was lost): a copy of it records them in their turn.
   */
  const inUnknownTurnOf = new Map<SessionLedger, Set<string>>();
  const addTo = (sets: Map<SessionLedger, Set<string>>, ledger: SessionLedger, claim: string) => {
    const own = sets.get(ledger);
    if (own) own.add(claim);
    else sets.set(ledger, new Set([claim]));
  };
  /** Whether a file this one was copied from, or that spawned it, or theirs, holds this claim (as `sets` has them). */
  const heldBefore = (sets: Map<SessionLedger, Set<string>>, ledger: SessionLedger, withoutTurn: string): boolean => {
    const seen = new Set<SessionLedger>([ledger]);
    const next = (at: SessionLedger) => [originOf.get(at), ...(at.subagentOf === null ? [] : (index.bySessionId.get(at.subagentOf) ?? []))];
    for (const pending = next(ledger); pending.length > 0; ) {
      const at = pending.pop();
      if (at === undefined || seen.has(at)) continue;
      seen.add(at);
      if (sets.get(at)?.has(withoutTurn)) return true;
      pending.push(...next(at));
    }
    return false;
  };
  /** Where the copy with the most output counts: the holder of each claim so far (whose flag to set, and its output). */
  const holdersIn = perSource(() => new Map<string, { flags: Uint8Array; index: number; output: number }>());
  /** A claim scoped by its session, by the entry it is of and the claim without its session: its holder's key and input. */
  const scopedByEntryIn = perSource(() => new Map<string, { key: string; input: number }>());
  const firstTurns = new Map<SessionLedger, FirstTurn>();
  for (const ledger of ordered) {
    // Sub-agent files are never copies of a session's history.
    let firstTurnFound = ledger.subagentOf !== null;
    const entries = new Uint8Array(ledger.entries.count);
    const usage = new Uint8Array(ledger.entries.usageCount);
    const mostOutput = usageRule(ledger.source) === 'most-output';
    const inTurns = usageRule(ledger.source) === 'first-in-turn';
    const claimed = claimedIn(ledger.source);
    const mainResponses = mainResponsesIn(ledger.source);
    const usageClaimed = usageClaimedIn(ledger.source);
    const heldWithoutTurn = heldWithoutTurnIn(ledger.source);
    const holders = holdersIn(ledger.source);
    const scopedByEntry = scopedByEntryIn(ledger.source);
    // A claim scoped by its session (a Claude Code response without a request id, claude.md §9.3)
    // is its origin's where a copy rewrote the session id on the lines it copied (a resumed
    // session): held under the origin's id, the same response counts once.
    // So for a copy of such a copy, whatever id the lines it copied carry.
    const originIds = mostOutput ? originSessionIds(ledger, originOf) : [];
    // First, in an entry another file holds too (its copy), the claim that file's entry holds, of
    // the same input (a request's, whatever its lines' output so far), whatever session id each
    // copy's line carries: two copies of an origin that is gone, one rewriting its id and one not,
    // are each other's origin in nothing, yet share the response. (Hand-made files reusing uuids
    // and a gateway's one message id for other requests are told by their input.)
    const heldUnderOrigin = (key: string, entryKey: string, copied: boolean, input: number): string => {
      if (holders.has(key)) return key;
      const rest = withoutSession(key);
      if (rest === key) return key;
      const theirs = copied ? scopedByEntry.get(`${entryKey}\u0000${rest}`) : undefined;
      if (theirs !== undefined && theirs.input === input) return theirs.key;
      for (const id of originIds) {
        const held = `${id}\u0000${rest}`;
        if (holders.has(held)) return held;
      }
      return key;
    };
    let u = 0;
    unpack(ledger.entries).forEach((entry, i) => {
      if (!claimed.has(entry.key)) {
        claimed.add(entry.key);
        entries[i] = 1;
      }
      if (!firstTurnFound && entry.turn !== null) {
        firstTurnFound = true;
        firstTurns.set(ledger, { key: entry.key, counted: entries[i] === 1 });
      }
      for (const record of entry.usage) {
        if (record.origin === 'subagent' && record.responseId !== null && mainResponses.has(record.responseId)) {
          u++;
          continue;
        }
        if (mostOutput) {
          const key = heldUnderOrigin(record.key, entry.key, entries[i] === 0, record.input);
          const holder = holders.get(key);
          if (!holder) {
            holders.set(key, { flags: usage, index: u, output: record.output });
            const rest = withoutSession(key);
            if (rest !== key) scopedByEntry.set(`${entry.key}\u0000${rest}`, { key, input: record.input });
            usage[u] = 1;
          } else if (record.output > holder.output) {
            holder.flags[holder.index] = 0;
            holder.flags = usage;
            holder.index = u;
            holder.output = record.output;
            usage[u] = 1;
          }
        } else {
          // No object per claim: most records are held once, and the history's records are many.
          const cut = record.key.indexOf(CLAIM_TURN);
          if (cut === -1) {
            if (!heldWithoutTurn.has(record.key)) usage[u] = 1;
            heldWithoutTurn.add(record.key);
            if (inTurns) addTo(inUnknownTurnOf, ledger, record.key);
          } else {
            const withoutTurn = record.key.slice(0, cut);
            // In any turn only for a record written in none (a replay that left its turns out), or
            // of one its origin holds in a turn it does not know: one in a turn of its own is its
            // file's, whatever counts its origin added in another.
            const inNoTurn = cut === record.key.length - CLAIM_TURN.length;
            const copied = (inNoTurn && heldBefore(withoutTurnOf, ledger, withoutTurn)) || heldBefore(inUnknownTurnOf, ledger, withoutTurn);
            if (!usageClaimed.has(record.key) && !copied) usage[u] = 1;
            usageClaimed.add(record.key);
            heldWithoutTurn.add(withoutTurn);
            addTo(withoutTurnOf, ledger, withoutTurn);
          }
        }
        u++;
      }
    });
    counted.set(ledger.key, { entries, usage });
  }
  return { counted, order: new Map(ordered.map((ledger, i) => [ledger, i])), firstTurns };
}

/** The session ids of the files a file was copied from, nearest first, other than its own. */
function originSessionIds(ledger: SessionLedger, originOf: ReadonlyMap<SessionLedger, SessionLedger>): string[] {
  const ids: string[] = [];
  for (let at = originOf.get(ledger); at !== undefined && ids.length < 64; at = originOf.get(at)) if (at.sessionId !== ledger.sessionId && !ids.includes(at.sessionId)) ids.push(at.sessionId);
  return ids;
}

/**
 * Files kept from an earlier build, of an agent whose files of a session are mirrors, that a file
 * read now of the same agent and start holds whole: every entry they held, told by entries as a
 * moved session is (see holdsEntries: a newer reader may key usage otherwise).
 */
function keptHeldByFilesReadNow(ledgers: readonly SessionLedger[], mirrors: (source: Source) => boolean, unpack: Unpack): Set<SessionLedger> {
  const held = new Set<SessionLedger>();
  const kept = ledgers.filter((ledger) => ledger.lastSeen !== null && ledger.startedAt !== null && mirrors(ledger.source));
  if (kept.length === 0) return held;
  const readNow = new Map<string, SessionLedger[]>();
  const startKey = (ledger: SessionLedger) => `${ledger.source}\0${ledger.startedAt}`;
  for (const ledger of ledgers) {
    if (ledger.lastSeen !== null || ledger.startedAt === null) continue;
    const list = readNow.get(startKey(ledger));
    if (list) list.push(ledger);
    else readNow.set(startKey(ledger), [ledger]);
  }
  for (const ledger of kept) {
    const was = unpack(ledger.entries);
    if ((readNow.get(startKey(ledger)) ?? []).some((now) => holdsEntries(unpack(now.entries), was))) held.add(ledger);
  }
  return held;
}

/** Oldest first: header time, then a file named as the agent names it, then mtime, then path. */
function byAge(a: SessionLedger, b: SessionLedger): number {
  return (
    (a.startedAt ?? Infinity) - (b.startedAt ?? Infinity) ||
    Number(!a.namedByAgent) - Number(!b.namedByAgent) ||
    a.mtime - b.mtime ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
}

/** Of `ledgers`, the one sharing the longest folder path with `of`; of those, a `preferred` one, then the oldest. */
function nearest(of: SessionLedger, ledgers: SessionLedger[], preferred: (ledger: SessionLedger) => boolean): SessionLedger | null {
  if (ledgers.length < 2) return ledgers[0] ?? null;
  const folders = normalisePath(of.path).split('/');
  const shared = (ledger: SessionLedger) => {
    const parts = normalisePath(ledger.path).split('/');
    let n = 0;
    while (n < parts.length - 1 && n < folders.length - 1 && parts[n] === folders[n]) n++;
    return n;
  };
  const most = Math.max(...ledgers.map(shared));
  const near = ledgers.filter((ledger) => shared(ledger) === most);
  return oldest(near.filter(preferred)) ?? oldest(near);
}

function oldest(ledgers: SessionLedger[]): SessionLedger | null {
  return [...ledgers].sort(byAge)[0] ?? null;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

function normalisePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/\/+$/, '');
}
