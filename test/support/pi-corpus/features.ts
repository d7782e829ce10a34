// What the Pi version that wrote a session could store (formats/pi.md §19). A session's date picks
// its Pi version, so an old file never holds a field that did not exist yet.

export type FormatVersion = 1 | 2 | 3;

/** Whose prices the recorded costs follow. */
export type Catalog = 'pi' | 'litellm';

export interface Features {
  version: FormatVersion;
  /** Set per corpus, not by date. */
  catalog?: Catalog;
  /** Skill prompts as `<skill name=… location=…>` (else the older "Skill location:" text). */
  skillTag: boolean;
  sessionInfo: boolean;
  fullFork: boolean;
  uuidV7: boolean;
  /** Caller-chosen session ids (`--session-id`). */
  customSessionId: boolean;
  clone: boolean;
  /** `edit` takes `edits[]` (else top-level oldText/newText). */
  editsArray: boolean;
  editPatch: boolean;
  cacheWrite1h: boolean;
  reasoning: boolean;
  /** `usage` on toolResult, compaction and branch_summary. */
  extraUsage: boolean;
  systemMessages: boolean;
  usageEntries: boolean;
  contextEdit: boolean;
  nestedCalls: boolean;
  durationMs: boolean;
  totalFromProvider: boolean;
  /** Aborted replies say "This operation was aborted" (1.x) rather than "Request was aborted.". */
  newAbortMessage: boolean;
}

const day = (iso: string) => Date.parse(`${iso}T00:00:00.000Z`);

/** Release dates of the changes that matter (formats/pi.md §19). */
const SINCE = {
  v2: day('2026-01-02'),
  v3: day('2026-01-05'),
  sessionInfo: day('2026-01-12'),
  skillTag: day('2026-01-22'),
  fullFork: day('2026-03-18'),
  editsArray: day('2026-03-29'),
  uuidV7: day('2026-04-13'),
  clone: day('2026-04-20'),
  customSessionId: day('2026-05-27'),
  editPatch: day('2026-05-23'),
  cacheWrite1h: day('2026-06-15'),
  reasoning: day('2026-06-30'),
  extraUsage: day('2026-07-21'),
  systemMessages: day('2026-09-19'),
  contextEdit: day('2026-09-21'),
  nestedCalls: day('2026-09-29'),
  durationMs: day('2026-10-07'),
  totalFromProvider: day('2026-11-02'),
  newAbortMessage: day('2026-05-07'),
};

/** The window each format version was written in. */
export const VERSION_WINDOWS: Record<FormatVersion, [number, number]> = {
  1: [day('2025-11-08'), day('2025-12-30')],
  2: [SINCE.v2, day('2026-01-04')],
  3: [SINCE.v3, day('2026-11-26')],
};

export function featuresAt(ms: number, version: FormatVersion): Features {
  const since = (key: keyof typeof SINCE) => version === 3 && ms >= SINCE[key];
  return {
    version,
    skillTag: since('skillTag'),
    sessionInfo: since('sessionInfo'),
    fullFork: since('fullFork'),
    uuidV7: since('uuidV7'),
    customSessionId: since('customSessionId'),
    clone: since('clone'),
    editsArray: since('editsArray'),
    editPatch: since('editPatch'),
    cacheWrite1h: since('cacheWrite1h'),
    reasoning: since('reasoning'),
    extraUsage: since('extraUsage'),
    systemMessages: since('systemMessages'),
    usageEntries: since('systemMessages'),
    contextEdit: since('contextEdit'),
    nestedCalls: since('nestedCalls'),
    durationMs: since('durationMs'),
    totalFromProvider: since('totalFromProvider'),
    newAbortMessage: since('newAbortMessage'),
  };
}
