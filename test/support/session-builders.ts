// Small typed builders of normalised sessions, so model and report tests state their case in a
// few lines without going through any agent's reader.
//
//   const file = sessionFile({ path: '/s/a.jsonl', cwd: '/p/shop' }, [
//     prompt('p1', '2026-10-31T23:50:00Z', 'Fix the cart'),
//     reply('r1', '2026-11-01T00:10:00Z', { input: 100, output: 10, recordedCost: 0.01 }),
//   ]);

import type { Entry, ReplyOutcome, SessionFile, Source, Usage } from '../../src/types.js';

let line = 0;

function base(id: string, time: string | null, parentId: string | null): Pick<Entry, 'key' | 'id' | 'parentId' | 'timestamp' | 'line' | 'usage' | 'recovered'> {
  const timestamp = time === null ? null : Date.parse(time);
  return { key: `${id}\0${timestamp ?? ''}`, id, parentId, timestamp, line: ++line, usage: [], recovered: false };
}

export interface UsageSpec extends Partial<Omit<Usage, 'timestamp'>> {
  /** The record's own time, when it differs from its entry's. */
  at?: string | null;
}

export function usage(spec: UsageSpec = {}, entryTime: number | null = null): Usage {
  const { at, ...rest } = spec;
  return {
    origin: 'reply',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    requestedModel: null,
    responseModel: null,
    recordedCost: null,
    recordedCostFromProvider: false,
    modelGuessed: false,
    claim: null,
    outputPartial: false,
    responseId: null,
    fast: false,
    webSearches: 0,
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    cacheWrite1h: 0,
    reasoning: 0,
    ...rest,
    timestamp: at === undefined ? entryTime : at === null ? null : Date.parse(at),
  };
}

export function prompt(id: string, time: string | null, text: string, parentId: string | null = null): Entry {
  return { ...base(id, time, parentId), kind: 'prompt', content: [{ type: 'text', text }], skill: null };
}

export function reply(id: string, time: string | null, spend: UsageSpec | null, options: { parentId?: string | null; outcome?: ReplyOutcome } = {}): Entry {
  const entry = base(id, time, options.parentId ?? null);
  return {
    ...entry,
    usage: spend === null ? [] : [usage(spend, entry.timestamp)],
    kind: 'reply',
    content: [{ type: 'text', text: `reply ${id}` }],
    outcome: options.outcome ?? 'ok',
    stopReason: options.outcome ?? 'stop',
    errorMessage: null,
    provider: spend?.provider ?? 'anthropic',
    model: spend?.model ?? 'claude-sonnet-4-5',
    responseModel: null,
  };
}

export function sessionFile(
  facts: {
    path: string;
    cwd?: string | null;
    projectFolder?: string | null;
    source?: Source;
    sessionId?: string;
    startedAt?: string | null;
    parentFile?: string | null;
    parentSessionId?: string | null;
    subagentOf?: string | null;
    subagentLabel?: string | null;
    mtime?: number;
  },
  entries: Entry[],
): SessionFile {
  const id = facts.sessionId ?? facts.path.replace(/\W+/g, '-');
  return {
    source: facts.source ?? 'pi',
    path: facts.path,
    size: 1000,
    mtime: facts.mtime ?? Date.parse('2026-12-01T00:00:00Z'),
    sessionId: id,
    cwd: facts.cwd === undefined ? '/home/ana/shop' : facts.cwd,
    projectFolder: facts.projectFolder ?? null,
    startedAt: facts.startedAt ? Date.parse(facts.startedAt) : (entries[0]?.timestamp ?? null),
    parentFile: facts.parentFile ?? null,
    namedByAgent: true,
    parentSessionId: facts.parentSessionId ?? null,
    subagentOf: facts.subagentOf ?? null,
    subagentLabel: facts.subagentLabel ?? null,
    subagentId: null,
    startedSubagents: [],
    entryTitles: [],
    formatVersion: 3,
    entries,
    diagnostics: [],
    lineCount: entries.length + 1,
  };
}
