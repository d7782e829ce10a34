// A deterministic generator of realistic Pi session corpora (formats/pi.md) that returns the ground
// truth of bough's summary.json (design.md §6), computed from its own bookkeeping while it writes.
//
//   const truth = await generatePiCorpus(dir, { sessions: 300, seed: 7 });
//
// Sessions come in families: an original and the files that copy it (/fork, /clone, `pi --fork`
// into another project, /import, v1 /branch), copies of copies, and originals that were never
// written (their copies then count what they copied). Each family is generated, written and
// dropped before the next, so memory stays bounded by one family however large the corpus.

import { mkdir, open, utimes } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { compaction, converse, openSession, type Conversation, type ConversationOptions } from './pi-corpus/conversation.js';
import { copyAll, copyPath, copyPrefix, forkPoints } from './pi-corpus/copies.js';
import { featuresAt, VERSION_WINDOWS, type Catalog, type Features, type FormatVersion } from './pi-corpus/features.js';
import { mainModelChoices } from './pi-corpus/models.js';
import { Random } from './pi-corpus/random.js';
import { note, SessionDraft, type Coverage, type SessionKind } from './pi-corpus/session.js';
import { encodeCwd, fileTimestamp, PROJECTS, type Project } from './pi-corpus/text.js';
import { addTally, emptyTally, type Tally } from './pi-corpus/truth.js';

export type { Coverage, SessionKind } from './pi-corpus/session.js';
export type { Spend, Tally, TokenTotals } from './pi-corpus/truth.js';
export { TOKEN_KINDS } from './pi-corpus/truth.js';

export interface PiCorpusOptions {
  /** Session files to write (copies included; never-written origins not). */
  sessions: number;
  seed: number;
  /** Prompts per session, both ends included. Default [2, 7]; raise for benchmark corpora. */
  turns?: readonly [number, number];
  /** Rough size in characters of each tool output. Default 300. */
  payloadBytes?: number;
  /** Shares of v1 and v2 files among originals (the rest is v3). Default 0.08 and 0.04. */
  v1Share?: number;
  v2Share?: number;
  /**
   * Also write several copies of one never-written origin with no /import standing in for it.
   * On by default: the truth counts their shared entries once, in the oldest copy (entries
   * with the same id and timestamp count once, in the oldest file holding them).
   */
  siblingCopiesOfMissingOrigins?: boolean;
  /**
   * Whose rates the recorded costs follow: Pi's catalog (default; Gemini cache reads and
   * OpenRouter's billed totals differ from LiteLLM), or LiteLLM's table, where bough's own
   * price must agree with every session to the cent.
   */
  catalog?: Catalog;
  /**
   * When the originals start (ms), instead of across Pi's history: all then v3. With `edges`,
   * some start shortly before one of these instants (midnights, month starts in some zone), so
   * their turns fall on both sides of it.
   */
  window?: { from: number; to: number; edges?: readonly number[] };
}

/** One written file and what bough's summary.json should say about it. */
export interface SessionTruth extends Tally {
  /** Absolute path as written. */
  file: string;
  sessionId: string;
  cwd: string;
  kind: SessionKind;
  formatVersion: FormatVersion;
  /** Latest non-empty session_info name in file order; null when none or cleared. */
  name: string | null;
  /** The header's parentSession (or v1 branchedFrom) as recorded. */
  parentFile: string | null;
  /** Path of the present file it was copied from; undefined where the contract leaves it open. */
  origin: string | null | undefined;
  originMissing: boolean | undefined;
  /** Entry lines (header excluded). */
  entries: number;
  /** Entries first recorded in an older file of the lineage. */
  copiedEntries: number;
  /** Leaves of the entry tree. */
  branches: number;
  /**
   * The earlier file of the same session id that holds every entry this one does (an /import
   * never gone on with), or null. Such a file is no session of its own: it is listed in that
   * file's `duplicateFiles`, and counts nothing.
   */
  duplicateOf: string | null;
}

export interface ProjectTruth extends Tally {
  cwd: string;
  sessions: number;
}

export interface GroundTruth {
  dir: string;
  /** One per file written, those that only copy another file of their session (`duplicateOf`) included. */
  sessions: SessionTruth[];
  projects: ProjectTruth[];
  totals: Tally & { sessions: number; projects: number };
  /** How often each feature was generated (test that the corpus still covers what it should). */
  coverage: Coverage;
}

const DEFAULTS = { turns: [2, 7] as const, payloadBytes: 300, v1Share: 0.08, v2Share: 0.04, siblingCopiesOfMissingOrigins: true, catalog: 'pi' as const, window: null };

export async function generatePiCorpus(dir: string, options: PiCorpusOptions): Promise<GroundTruth> {
  const root = resolve(dir);
  const settings = { ...DEFAULTS, ...options };
  const corpus: CorpusContext = {
    root,
    rng: new Random(`pi-corpus:${options.seed}`),
    conversation: { turns: settings.turns, payloadBytes: settings.payloadBytes },
    shares: { v1: settings.v1Share, v2: settings.v2Share },
    siblingCopiesOfMissingOrigins: settings.siblingCopiesOfMissingOrigins,
    catalog: settings.catalog,
    window: settings.window,
    coverage: {},
    usedPaths: new Set(),
  };
  const sessions: SessionTruth[] = [];
  for (let family = 0; sessions.length < options.sessions; family++) {
    const drafts = generateFamily(corpus, family, options.sessions - sessions.length);
    const truths = familyTruth(corpus, drafts);
    for (const draft of drafts) if (!draft.missing) await writeSessionFile(corpus, draft);
    sessions.push(...truths);
  }
  return { dir: root, sessions, ...rollUp(sessions), coverage: corpus.coverage };
}

interface CorpusContext {
  root: string;
  rng: Random;
  conversation: ConversationOptions;
  shares: { v1: number; v2: number };
  siblingCopiesOfMissingOrigins: boolean;
  catalog: Catalog;
  window: PiCorpusOptions['window'] | null;
  coverage: Coverage;
  /** Relative paths already given to a file (imports must not clash). */
  usedPaths: Set<string>;
}

/** What Pi of that date wrote, priced from the corpus's catalog. */
function featuresOf(corpus: CorpusContext, ms: number, version: FormatVersion): Features {
  return { ...featuresAt(ms, version), catalog: corpus.catalog };
}

function pathOf(corpus: CorpusContext, draft: SessionDraft): string {
  return join(corpus.root, draft.relativePath);
}

// ───────────────────────────── families ─────────────────────────────

type CopyKind = Exclude<SessionKind, 'original'>;

/** An original and its copies, in the order they were made; `budget` caps the files written. */
function generateFamily(corpus: CorpusContext, index: number, budget: number): SessionDraft[] {
  const rng = corpus.rng.fork(`family-${index}`);
  const familyIds = new Set<string>();
  const origin = originalSession(corpus, rng, familyIds);
  const drafts = [origin];

  const missing = rng.chance(0.12);
  const wanted = rng.weighted([[0, 55], [1, 25], [2, 12], [3, 6], [4, 2]] as const);
  const copies = missing ? Math.min(Math.max(wanted, rng.int(1, 3)), budget) : Math.min(wanted, budget - 1);
  if (missing && copies > 0) {
    origin.missing = true;
    note(corpus.coverage, 'origin-missing');
  }
  for (let k = 0; k < copies; k++) {
    const sources = copySources(corpus, drafts);
    if (sources.length === 0) break;
    const source = rng.pick(sources);
    // Files of a family are made one after another, so creation order is also header-time order.
    const notBefore = Math.max(...drafts.map((d) => d.clock));
    const copy = copySession(corpus, rng.fork(`copy-${k}`), source, familyIds, notBefore, !(source.missing && k > 0));
    if (copy && source.missing && drafts.length > 1 && !standInOf(drafts, source)) note(corpus.coverage, 'sibling-copy-of-missing-origin');
    if (copy) drafts.push(copy);
    else if (origin.missing && drafts.length === 1) origin.missing = false; // nothing could copy it
  }
  return drafts;
}

/**
 * Which files a next copy may be taken from. A never-written origin gets a second copy only when
 * an /import of it is present: that stand-in holds its entries (bough must find it by session id).
 * Without one, two copies would each count the same entries and the contract does not say which
 * should. Imports are not copied again.
 */
function copySources(corpus: CorpusContext, drafts: readonly SessionDraft[]): SessionDraft[] {
  const copiable = (d: SessionDraft) =>
    !d.missing || drafts.length === 1 || standInOf(drafts, d) !== null || corpus.siblingCopiesOfMissingOrigins;
  return drafts.filter((d) => d.kind !== 'import' && copiable(d));
}

/** A present /import of a never-written file: it carries the same id and entries. */
function standInOf(drafts: readonly SessionDraft[], source: SessionDraft): SessionDraft | null {
  return drafts.find((d) => d.kind === 'import' && d.copiedFrom === source) ?? null;
}

function originalSession(corpus: CorpusContext, rng: Random, familyIds: Set<string>): SessionDraft {
  const version = corpus.window
    ? 3
    : rng.weighted<FormatVersion>([
        [1, corpus.shares.v1],
        [2, corpus.shares.v2],
        [3, 1 - corpus.shares.v1 - corpus.shares.v2],
      ]);
  const [from, to] = corpus.window ? [corpus.window.from, corpus.window.to] : VERSION_WINDOWS[version];
  const edges = corpus.window?.edges ?? [];
  const startMs =
    edges.length > 0 && rng.chance(0.25)
      ? rng.pick(edges) - rng.int(60_000, 40 * 60_000)
      : from + Math.floor(rng.next() * (to - from));
  const features = featuresOf(corpus, startMs, version);
  const project = rng.weighted(PROJECTS.map((p) => [p, p.weight] as const));
  const model = rng.weighted(mainModelChoices(features));
  const sessionId = newSessionId(rng, features, startMs);
  const headerExtras =
    version === 1 ? { provider: model.provider, modelId: model.model, thinkingLevel: rng.pick(['off', 'medium', 'high']) } : {};
  const draft = new SessionDraft({
    rng,
    features,
    kind: 'original',
    sessionId,
    startMs,
    cwd: project.cwd,
    model,
    familyIds,
    coverage: corpus.coverage,
    headerExtras,
  });
  // A custom flat session directory (formats/pi.md §1): no per-project folder.
  const folder = version === 3 && rng.chance(0.04) ? 'custom-sessions' : encodeCwd(project.cwd);
  place(corpus, draft, folder, `${fileTimestamp(startMs)}_${sessionId}.jsonl`);
  note(corpus.coverage, `file-v${version}`);
  if (folder === 'custom-sessions') note(corpus.coverage, 'flat-session-dir');
  if (!/^[0-9a-f]{8}-/.test(sessionId)) note(corpus.coverage, 'custom-session-id');
  draft.context = rng.int(4000, 12_000); // system prompt and tool definitions

  const c = conversationOf(corpus, draft, project);
  openSession(c);
  converse(c, rng.int(c.options.turns[0], c.options.turns[1]));
  if (draft.hasIds && rng.chance(0.05)) compaction(c); // a session can end on a compaction
  return draft;
}

/** UUID v4, then v7 from 0.67.1; sometimes an id the caller chose, which may hold `_` and `.`. */
function newSessionId(rng: Random, features: Features, atMs: number): string {
  if (features.customSessionId && rng.chance(0.1)) return `${rng.pick(['ci_run', 'nightly.build', 'review_q4'])}-${rng.hex(6)}`;
  return features.uuidV7 ? rng.uuidV7(atMs) : rng.uuidV4();
}

function conversationOf(corpus: CorpusContext, d: SessionDraft, project: Project): Conversation {
  return { d, project, options: corpus.conversation };
}

function projectOf(cwd: string): Project {
  return PROJECTS.find((p) => p.cwd === cwd) ?? (PROJECTS[0] as Project);
}

function place(corpus: CorpusContext, draft: SessionDraft, folder: string, name: string): void {
  let relative = join(folder, name);
  for (let n = 1; corpus.usedPaths.has(relative); n++) relative = join(folder, name.replace(/\.jsonl$/, `-${n}.jsonl`));
  corpus.usedPaths.add(relative);
  draft.relativePath = relative;
}

// ───────────────────────────── copies ─────────────────────────────

function copyKinds(source: SessionDraft, atMs: number, allowImport: boolean): (readonly [CopyKind, number])[] {
  const imports = allowImport ? (source.missing ? 5 : 2) : 0;
  if (source.features.version === 1) return [['v1-branch', 4], ['import', imports / 2]];
  if (source.features.version === 2) return [['fork', 4], ['import', imports / 2]];
  const later = featuresAt(atMs, 3);
  return [
    ['fork', 4],
    ['clone', later.clone ? 3 : 0],
    ['full-fork', later.fullFork ? 3 : 0],
    ['import', imports],
  ];
}

function copySession(
  corpus: CorpusContext,
  rng: Random,
  source: SessionDraft,
  familyIds: Set<string>,
  notBefore: number,
  allowImport: boolean,
): SessionDraft | null {
  // v1 and v2 were short-lived: their copies follow within hours; v3 copies within days.
  const gap = source.features.version === 3 ? rng.int(60_000, 4 * 86_400_000) : rng.int(60_000, 6 * 3_600_000);
  const atMs = Math.max(source.clock, notBefore) + gap;
  const kind = rng.weighted(copyKinds(source, atMs, allowImport));
  const copy = kind === 'import' ? importCopy(corpus, rng, source, atMs, familyIds) : lineageCopy(corpus, rng, source, kind, atMs, familyIds);
  if (!copy) return null;
  copy.copiedFrom = source;
  note(corpus.coverage, `copy-${kind}`);
  if (source.kind !== 'original') note(corpus.coverage, 'copy-of-copy');
  if (source.missing) note(corpus.coverage, `copy-of-missing-${kind}`);
  return copy;
}

/** /fork, /clone, `pi --fork` and v1 /branch: a new session whose header names its origin. */
function lineageCopy(
  corpus: CorpusContext,
  rng: Random,
  source: SessionDraft,
  kind: CopyKind,
  atMs: number,
  familyIds: Set<string>,
): SessionDraft | null {
  const version = source.features.version;
  const features = featuresOf(corpus, atMs, version);
  const forkAt = kind === 'fork' ? pickForkPoint(rng, source) : null;
  if (kind === 'fork' && !forkAt) return null;
  const v1Cut = kind === 'v1-branch' ? pickV1Cut(rng, source) : null;
  if (kind === 'v1-branch' && v1Cut === null) return null;
  if (kind === 'clone' && source.leaf === null) return null;

  const project = kind === 'full-fork' ? rng.pick(PROJECTS.filter((p) => p.cwd !== source.cwd)) : projectOf(source.cwd);
  const sessionId = newSessionId(rng, features, atMs);
  const recorded = recordedOriginPath(corpus, rng, source);
  const headerExtras: Record<string, unknown> =
    version === 1
      ? { provider: source.header['provider'], modelId: source.header['modelId'], thinkingLevel: source.header['thinkingLevel'], branchedFrom: recorded }
      : { parentSession: recorded };
  const copy = new SessionDraft({
    rng,
    features,
    kind,
    sessionId,
    startMs: atMs,
    cwd: project.cwd,
    model: source.model,
    familyIds,
    coverage: corpus.coverage,
    headerExtras,
  });
  copy.context = source.context;
  place(corpus, copy, encodeCwd(project.cwd), `${fileTimestamp(atMs)}_${sessionId}.jsonl`);

  if (kind === 'fork' && forkAt) copyPath(source, forkAt.parentId as string, copy);
  else if (kind === 'clone') copyPath(source, source.leaf as string, copy);
  else if (kind === 'full-fork') {
    copyAll(source, copy);
    fullForkSystemMessage(copy);
  } else if (kind === 'v1-branch') copyPrefix(source, v1Cut as number, copy);

  // Pi writes a file only once it holds a prompt or a reply: a copy without one is written when
  // the user sends something (after /fork, the chosen prompt is back in the editor).
  const mustContinue = !copy.entries.some((e) => e.isUserMessage || e.tally.replies > 0);
  if (mustContinue || rng.chance(0.8)) {
    converse(conversationOf(corpus, copy, project), rng.int(1, Math.max(1, corpus.conversation.turns[1] - 2)), false);
  }
  return copy;
}

/** `pi --fork` appends a system message that patches only the working directory (formats/pi.md §25.4). */
function fullForkSystemMessage(copy: SessionDraft): void {
  if (!copy.features.systemMessages) return;
  copy.append('message', { message: { role: 'system', content: '', sections: { cwd: copy.cwd }, timestamp: copy.clock } });
  note(copy.coverage, 'full-fork-system-message');
}

function pickForkPoint(rng: Random, source: SessionDraft) {
  const points = forkPoints(source);
  return points.length > 0 ? rng.pick(points) : null;
}

/** A v1 /branch copies the lines before a chosen user message (not the first one). */
function pickV1Cut(rng: Random, source: SessionDraft): number | null {
  const cuts = source.entries.map((e, i) => (e.isUserMessage && i > 0 ? i : -1)).filter((i) => i > 0);
  return cuts.length > 0 ? rng.pick(cuts) : null;
}

/** /import: a byte copy (same header, same id) under an imported name; Pi may go on in it. */
function importCopy(corpus: CorpusContext, rng: Random, source: SessionDraft, atMs: number, familyIds: Set<string>): SessionDraft {
  const copy = new SessionDraft({
    rng,
    features: featuresOf(corpus, atMs, source.features.version),
    kind: 'import',
    sessionId: source.sessionId,
    startMs: source.startMs,
    cwd: source.cwd,
    model: source.model,
    familyIds,
    coverage: corpus.coverage,
    header: source.header,
  });
  copyAll(source, copy);
  copy.clock = atMs;
  copy.context = source.context;
  const sourcePath = source.relativePath;
  const sourceName = sourcePath.split(/[\\/]/).pop() as string;
  const roll = rng.next();
  if (roll < 0.3 && !source.missing) {
    // Imported next to the original: Pi keeps the base name and adds -1 on the clash.
    place(corpus, copy, dirname(sourcePath), sourceName);
    note(corpus.coverage, 'import-name-clash');
  } else if (roll < 0.55 && !source.missing) {
    // Imported into another project's folder: no clash, so the agent's own name is kept.
    const project = rng.pick(PROJECTS.filter((p) => encodeCwd(p.cwd) !== dirname(sourcePath)));
    place(corpus, copy, encodeCwd(project.cwd), sourceName);
    note(corpus.coverage, 'import-same-name-other-folder');
  } else {
    const project = rng.weighted(PROJECTS.map((p) => [p, p.weight] as const));
    const name = rng.pick([`shared-session-${rng.hex(4)}.jsonl`, `bug-report-${rng.int(100, 999)}.jsonl`, 'from-laptop.jsonl']);
    place(corpus, copy, encodeCwd(project.cwd), name);
  }
  if (source.features.version === 3 && rng.chance(0.25)) {
    converse(conversationOf(corpus, copy, projectOf(source.cwd)), rng.int(1, 2), false);
    note(corpus.coverage, 'import-continued');
  }
  return copy;
}

/**
 * The origin path a copy records: this machine's path, or the path on the machine that wrote it
 * (another user, or Windows), so bough must match by file name or session id.
 */
function recordedOriginPath(corpus: CorpusContext, rng: Random, source: SessionDraft): string {
  const relative = source.relativePath;
  const name = relative.split(/[\\/]/).pop() as string;
  const roll = rng.next();
  const project = source.cwd.split(/[\\/]/).pop() as string;
  if (roll < 0.55) {
    note(corpus.coverage, 'parent-path-local');
    return join(corpus.root, relative);
  }
  if (roll < 0.9) {
    note(corpus.coverage, 'parent-path-other-machine');
    return `/home/someone-else/.pi/agent/sessions/${encodeCwd(`/home/someone-else/${project}`)}/${name}`;
  }
  note(corpus.coverage, 'parent-path-windows');
  return `C:\\Users\\someone\\.pi\\agent\\sessions\\${encodeCwd(`C:\\Users\\someone\\${project}`)}\\${name}`;
}

// ───────────────────────────── ground truth ─────────────────────────────

/**
 * Each entry counts once, in the first written file of the family that holds it (files are
 * made in lineage order, so that is its origin, or the oldest copy when the origin is missing).
 */
function familyTruth(corpus: CorpusContext, drafts: readonly SessionDraft[]): SessionTruth[] {
  const claimed = new Set<string>();
  const truths: SessionTruth[] = [];
  const written: { draft: SessionDraft; keys: Set<string> }[] = [];
  for (const draft of drafts) {
    if (draft.missing) continue;
    const holder = written.find((h) => h.draft.sessionId === draft.sessionId && draft.entries.every((e) => h.keys.has(e.key)))?.draft;
    written.push({ draft, keys: new Set(draft.entries.map((e) => e.key)) });
    const tally = emptyTally();
    let copiedEntries = 0;
    for (const entry of draft.entries) {
      if (claimed.has(entry.key)) {
        copiedEntries++;
        continue;
      }
      claimed.add(entry.key);
      addTally(tally, entry.tally);
    }
    const { origin, originMissing } = expectedOrigin(corpus, drafts, draft);
    truths.push({
      ...tally,
      file: pathOf(corpus, draft),
      sessionId: draft.sessionId,
      cwd: draft.cwd,
      kind: draft.kind,
      formatVersion: draft.features.version,
      name: nameOf(draft),
      parentFile: recordedParent(draft),
      origin,
      originMissing,
      entries: draft.entries.length,
      copiedEntries,
      branches: leavesOf(draft),
      duplicateOf: holder ? pathOf(corpus, holder) : null,
    });
  }
  return truths;
}

function recordedParent(draft: SessionDraft): string | null {
  const parent = draft.header['parentSession'] ?? draft.header['branchedFrom'];
  return typeof parent === 'string' ? parent : null;
}

/**
 * What bough must link a file to; left open (undefined) for imports of files that are copies
 * themselves (linked by path or by id, both defensible).
 */
function expectedOrigin(
  corpus: CorpusContext,
  drafts: readonly SessionDraft[],
  draft: SessionDraft,
): Pick<SessionTruth, 'origin' | 'originMissing'> {
  const source = draft.copiedFrom;
  if (!source) return { origin: null, originMissing: false };
  if (draft.kind === 'import') {
    if (recordedParent(source) !== null) return { origin: undefined, originMissing: undefined };
    return { origin: source.missing ? null : pathOf(corpus, source), originMissing: false };
  }
  if (!source.missing) return { origin: pathOf(corpus, source), originMissing: false };
  const standIn = standInOf(drafts, source);
  if (standIn) {
    note(corpus.coverage, 'origin-found-by-session-id');
    return { origin: pathOf(corpus, standIn), originMissing: false };
  }
  return { origin: null, originMissing: true };
}

function nameOf(draft: SessionDraft): string | null {
  let name: string | null = null;
  for (const entry of draft.entries) if (entry.sessionName !== undefined) name = entry.sessionName.trim() || null;
  return name;
}

function leavesOf(draft: SessionDraft): number {
  if (!draft.hasIds) return draft.entries.length > 0 ? 1 : 0;
  const parents = new Set(draft.entries.map((e) => e.parentId));
  return draft.entries.filter((e) => !parents.has(e.id)).length;
}

function rollUp(files: readonly SessionTruth[]): Pick<GroundTruth, 'projects' | 'totals'> {
  const sessions = files.filter((file) => file.duplicateOf === null);
  const totals = { ...emptyTally(), sessions: sessions.length, projects: 0 };
  const projects = new Map<string, ProjectTruth>();
  for (const session of sessions) {
    addTally(totals, session);
    let project = projects.get(session.cwd);
    if (!project) {
      project = { ...emptyTally(), cwd: session.cwd, sessions: 0 };
      projects.set(session.cwd, project);
    }
    project.sessions++;
    addTally(project, session);
  }
  totals.projects = projects.size;
  return { projects: [...projects.values()], totals };
}

// ───────────────────────────── writing ─────────────────────────────

const FLUSH_BYTES = 1 << 20;

/** Header, then entry lines, written in chunks; mtime = when Pi last wrote it. */
async function writeSessionFile(corpus: CorpusContext, draft: SessionDraft): Promise<void> {
  const path = pathOf(corpus, draft);
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(path, 'wx');
  try {
    let chunk = `${JSON.stringify(draft.header)}\n`;
    for (const entry of draft.entries) {
      chunk += `${entry.line}\n`;
      if (chunk.length >= FLUSH_BYTES) {
        await handle.write(chunk);
        chunk = '';
      }
    }
    await handle.write(chunk);
  } finally {
    await handle.close();
  }
  const mtime = new Date(draft.clock);
  await utimes(path, mtime, mtime);
}
