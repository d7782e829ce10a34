// One session file while it is being generated: its header, its entries in file order (each with
// the exact line that will be written and what it counts for), and the state Pi keeps while
// appending (current leaf, clock, model in use, context size).

import type { Features } from './features.js';
import type { ModelSpec } from './models.js';
import type { Random } from './random.js';
import { emptyTally, type Tally } from './truth.js';

export interface DraftEntry {
  /** Null in v1 files, which have no ids. */
  id: string | null;
  parentId: string | null;
  /** ISO time as written. */
  timestamp: string;
  type: string;
  /** The exact JSON line (without newline). Copies reuse it byte for byte. */
  line: string;
  /** Dedupe key of the contract: id + timestamp; v1 entries have no id, so the whole line. */
  key: string;
  /** What this entry counts for, wherever it is counted. */
  tally: Tally;
  /** For label entries: what they label, so copies can re-create them. */
  label?: { targetId: string; text: string };
  /** For user messages: a /fork can start from them. */
  isUserMessage: boolean;
  /** For session_info entries: the name they set ('' clears it). */
  sessionName?: string;
}

/** Kinds of session file the generator writes; recorded in the ground truth. */
export type SessionKind = 'original' | 'fork' | 'clone' | 'full-fork' | 'import' | 'v1-branch';

/** Counts of generated features, so a test can check the corpus still covers what it should. */
export type Coverage = Record<string, number>;

export function note(coverage: Coverage, what: string, count = 1): void {
  coverage[what] = (coverage[what] ?? 0) + count;
}

export interface DraftSetup {
  rng: Random;
  features: Features;
  kind: SessionKind;
  sessionId: string;
  startMs: number;
  cwd: string;
  model: ModelSpec;
  /** Ids used anywhere in this family of files: new entries never reuse one. */
  familyIds: Set<string>;
  coverage: Coverage;
  /** Header fields after type/version/id/timestamp/cwd (parentSession, v1 extras). */
  headerExtras?: Record<string, unknown>;
  /** A header to reuse as it is (byte copies). */
  header?: Record<string, unknown>;
}

export class SessionDraft {
  readonly rng: Random;
  readonly features: Features;
  readonly kind: SessionKind;
  readonly sessionId: string;
  readonly startMs: number;
  readonly cwd: string;
  readonly coverage: Coverage;
  readonly header: Record<string, unknown>;
  readonly entries: DraftEntry[] = [];
  readonly byId = new Map<string, DraftEntry>();
  /** Where new entries hang (v2+); null makes the next entry a root. */
  leaf: string | null = null;
  /** Milliseconds; only moves forward, so no two entries share a time. */
  clock: number;
  model: ModelSpec;
  /** Tokens in the model's context, so usage grows turn by turn as it does for real. */
  context = 0;
  /** Tokens the provider has already seen (cached) of that context. */
  seen = 0;
  /** Where the file goes, relative to the corpus root. */
  relativePath = '';
  /** The file this one was copied from (a draft of the same family), if any. */
  copiedFrom: SessionDraft | null = null;
  /** Never written: an origin that only survives in its copies. */
  missing = false;
  private readonly familyIds: Set<string>;

  constructor(setup: DraftSetup) {
    this.rng = setup.rng;
    this.features = setup.features;
    this.kind = setup.kind;
    this.sessionId = setup.sessionId;
    this.startMs = setup.startMs;
    this.cwd = setup.cwd;
    this.coverage = setup.coverage;
    this.model = setup.model;
    this.familyIds = setup.familyIds;
    this.clock = setup.startMs;
    const version = setup.features.version === 1 ? {} : { version: setup.features.version };
    this.header = setup.header ?? {
      type: 'session',
      ...version,
      id: setup.sessionId,
      timestamp: new Date(setup.startMs).toISOString(),
      cwd: setup.cwd,
      ...setup.headerExtras,
    };
  }

  get hasIds(): boolean {
    return this.features.version >= 2;
  }

  note(what: string, count = 1): void {
    note(this.coverage, what, count);
  }

  /** Moves the clock forward by a random amount and returns the new time. */
  tick(minMs: number, maxMs: number): number {
    this.clock += this.rng.int(Math.max(1, minMs), Math.max(1, maxMs));
    return this.clock;
  }

  /** An 8-hex id no entry of the family uses (Pi checks collisions within the file). */
  newId(): string {
    for (;;) {
      const id = this.rng.hex(8);
      if (!this.familyIds.has(id)) {
        this.familyIds.add(id);
        return id;
      }
    }
  }

  /**
   * Appends an entry of `type` below the current leaf (or `parentId` when given) at the next
   * clock time, and makes it the leaf. `payload` holds every field after the entry base.
   */
  append(type: string, payload: Record<string, unknown>, tally: Tally = emptyTally(), options: AppendOptions = {}): DraftEntry {
    const time = options.time ?? this.tick(200, 4000);
    if (options.time !== undefined && options.time > this.clock) this.clock = options.time;
    const timestamp = new Date(time).toISOString();
    let entry: DraftEntry;
    if (this.hasIds) {
      const id = options.id ?? this.newId();
      const parentId = options.parentId !== undefined ? options.parentId : this.leaf;
      const line = JSON.stringify({ type, id, parentId, timestamp, ...payload });
      entry = { id, parentId, timestamp, type, line, key: `${id}@${timestamp}`, tally, isUserMessage: isUser(type, payload) };
      this.leaf = id;
    } else {
      const line = JSON.stringify({ type, timestamp, ...payload });
      entry = { id: null, parentId: null, timestamp, type, line, key: `v1@${line}`, tally, isUserMessage: isUser(type, payload) };
    }
    if (options.label) entry.label = options.label;
    if (options.sessionName !== undefined) entry.sessionName = options.sessionName;
    this.push(entry);
    return entry;
  }

  /** Takes an entry from another file as it is (copies). */
  adopt(entry: DraftEntry): void {
    this.push(entry);
    if (entry.id !== null) this.leaf = entry.id;
    const time = Date.parse(entry.timestamp);
    if (time > this.clock) this.clock = time;
  }

  /** Root → entry, following parentIds inside this file (an orphan's missing parent ends the walk). */
  pathTo(id: string): DraftEntry[] {
    const path: DraftEntry[] = [];
    const seen = new Set<string>();
    for (let at = this.byId.get(id); at && !seen.has(at.id as string); at = at.parentId ? this.byId.get(at.parentId) : undefined) {
      seen.add(at.id as string);
      path.push(at);
    }
    return path.reverse();
  }

  /** The conversation as Pi would resume it: root → current leaf. */
  activePath(): DraftEntry[] {
    if (!this.hasIds) return [...this.entries];
    return this.leaf === null ? [] : this.pathTo(this.leaf);
  }

  private push(entry: DraftEntry): void {
    this.entries.push(entry);
    if (entry.id !== null) this.byId.set(entry.id, entry);
  }
}

export interface AppendOptions {
  id?: string;
  /** Overrides the current leaf as parent (null: a new root). */
  parentId?: string | null;
  /** Overrides the clock (copies and re-created labels keep old times). */
  time?: number;
  label?: { targetId: string; text: string };
  sessionName?: string;
}

function isUser(type: string, payload: Record<string, unknown>): boolean {
  const message = payload['message'] as { role?: unknown } | undefined;
  return type === 'message' && message?.role === 'user';
}
