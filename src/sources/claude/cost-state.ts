// A compaction's request that Claude Code (2.1.3xx) writes nowhere but in its running totals.
// Earlier versions wrote it as a sub-agent's transcript (agent-acompact-*.jsonl, claude.md §8.3);
// 2.1.332 writes no line for it at all, only the process's `cost-state` record after it, whose
// totals by model then grew by more than the requests written between the two records. That
// difference is the compaction's spend (a manual /compact's: 80% of a short session's), counted
// on the compaction, where it was made. Only where nothing else can be in it: between two records
// of one process holding a compaction, no sub-agent at work (its requests are in its own file,
// and in the totals too) and nothing counted twice (no count of any kind fell short of those
// written).

import type { Entry, TokenCounts, Usage } from '../../types.js';
import type { RawCostState } from './schema.js';
import { countProblem } from '../usage-check.js';

/** What one model had used by a `cost-state` record. */
interface ModelTotals extends Omit<TokenCounts, 'reasoning'> {
  webSearches: number;
  cost: number | null;
}

/** One `cost-state` record: a process's totals by model, where it was written. */
export interface CostState {
  line: number;
  /** When the process started: two records of different processes are not compared. */
  startTime: unknown;
  /** Null for a record that does not read (not of the documented shape, or a count no agent could mean): nothing is compared across it. */
  models: Map<string, ModelTotals> | null;
}

/** A record's totals, or one that compares with none when they do not read (`record` null). */
export function costState(record: RawCostState | null, line: number): CostState {
  const unread = { line, startTime: null, models: null };
  if (record === null) return unread;
  const models = new Map<string, ModelTotals>();
  for (const [model, used] of Object.entries(record.modelUsage)) {
    const counts = [used.inputTokens, used.outputTokens, used.cacheReadInputTokens, used.cacheCreationInputTokens, used.cacheCreationEphemeral1hInputTokens, used.webSearchRequests].map((n) => n ?? 0);
    if (counts.some((n) => countProblem(n) !== null)) return unread;
    const [input, output, cacheRead, cacheWrite, cacheWrite1h, webSearches] = counts as [number, number, number, number, number, number];
    const cost = typeof used.costUSD === 'number' && Number.isFinite(used.costUSD) && used.costUSD >= 0 ? used.costUSD : null;
    models.set(model, { input, output, cacheRead, cacheWrite, cacheWrite1h: Math.min(cacheWrite1h, cacheWrite), webSearches, cost });
  }
  return { line, startTime: record.startTime ?? null, models };
}

/** An entry of the main conversation as read, and whether a sub-agent wrote it (an inline sidechain). */
export interface ReadEntry {
  entry: Entry;
  sidechain: boolean;
}

/** The spend of compactions found so, each with the compaction entry it is counted on; and the compactions whose spend could not be told apart. */
export interface CompactionSpend {
  counted: { compaction: Entry; usage: Usage[] }[];
  /** Compactions between two records whose difference holds a sub-agent's spend too (or is not all theirs): not counted. */
  untold: Entry[];
}

const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);

/**
 * `states` and `entries` in file order; `subagentCalls`: the call ids of the file known to have
 * started a sub-agent. `usage` makes the normalised record of a model's counts.
 */
export function compactionSpend(
  states: readonly CostState[],
  entries: readonly ReadEntry[],
  subagentCalls: ReadonlySet<string>,
  usage: (model: string, counts: TokenCounts, webSearches: number, recordedCost: number | null, at: Entry) => Usage,
): CompactionSpend {
  const found: CompactionSpend = { counted: [], untold: [] };
  if (states.length < 2) return found;
  let next = 0;
  // Sub-agents started in the background and not yet heard from: their requests may fall anywhere.
  let background = 0;
  for (let i = 1; i < states.length; i++) {
    const from = states[i - 1] as CostState;
    const to = states[i] as CostState;
    const compactions: Entry[] = [];
    const written = new Map<string, TokenCounts & { webSearches: number }>();
    let subagentAtWork = background > 0;
    for (; next < entries.length && (entries[next] as ReadEntry).entry.line < to.line; next++) {
      const { entry, sidechain } = entries[next] as ReadEntry;
      const inside = entry.line > from.line;
      if (entry.kind === 'reply') {
        for (const block of entry.content) {
          if (block.type !== 'toolCall' || !(SUBAGENT_TOOLS.has(block.name) || subagentCalls.has(block.id))) continue;
          if (inside) subagentAtWork = true;
          if (isBackground(block.arguments)) background++;
        }
      }
      if (entry.kind === 'notice' && entry.label === 'task notification') background = Math.max(0, background - 1);
      if (!inside) continue;
      if (sidechain) subagentAtWork = true;
      if (entry.kind === 'compaction') compactions.push(entry);
      for (const record of entry.usage) {
        const sum = written.get(record.model ?? '') ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0, webSearches: 0 };
        for (const kind of ['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h'] as const) sum[kind] += record[kind];
        sum.webSearches += record.webSearches;
        written.set(record.model ?? '', sum);
      }
    }
    const compaction = compactions[0];
    if (compaction === undefined) continue;
    const rest = subagentAtWork || from.models === null || to.models === null || from.startTime !== to.startTime ? null : unwritten(from.models, to.models, written);
    if (rest === null) {
      // Totals of another process, or fallen, hold nothing to compare; a sub-agent's or a count
      // short of what was written, no compaction's spend alone.
      if (from.models === null || to.models === null || !isZero(from.models, to.models)) found.untold.push(compaction);
      continue;
    }
    if (rest.length > 0) found.counted.push({ compaction, usage: rest.map(({ model, counts, webSearches, cost }) => usage(model, counts, webSearches, cost, compaction)) });
  }
  return found;
}

function isBackground(args: unknown): boolean {
  return typeof args === 'object' && args !== null && (args as Record<string, unknown>)['run_in_background'] === true;
}

/** Whether the totals did not move between the two records (nothing spent, so nothing lost). */
function isZero(from: ReadonlyMap<string, ModelTotals>, to: ReadonlyMap<string, ModelTotals>): boolean {
  for (const [model, after] of to) {
    const before = from.get(model);
    if (before === undefined || KINDS.some((kind) => after[kind] !== before[kind])) return false;
  }
  return true;
}

const KINDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'webSearches'] as const;

/** What each model's totals grew by beyond the requests written between the records; null when any fell or fell short. */
function unwritten(
  from: ReadonlyMap<string, ModelTotals>,
  to: ReadonlyMap<string, ModelTotals>,
  written: ReadonlyMap<string, TokenCounts & { webSearches: number }>,
): { model: string; counts: TokenCounts; webSearches: number; cost: number | null }[] | null {
  for (const model of from.keys()) if (!to.has(model)) return null;
  for (const model of written.keys()) if (!to.has(model)) return null;
  const rest: { model: string; counts: TokenCounts; webSearches: number; cost: number | null }[] = [];
  for (const [model, after] of to) {
    const before = from.get(model);
    const seen = written.get(model);
    const grown = (kind: (typeof KINDS)[number]) => after[kind] - (before?.[kind] ?? 0) - (seen?.[kind] ?? 0);
    if (KINDS.some((kind) => grown(kind) < 0)) return null;
    const counts = { input: grown('input'), output: grown('output'), cacheRead: grown('cacheRead'), cacheWrite: grown('cacheWrite'), cacheWrite1h: Math.min(grown('cacheWrite1h'), grown('cacheWrite')), reasoning: 0 };
    const webSearches = grown('webSearches');
    if (webSearches === 0 && counts.input + counts.output + counts.cacheRead + counts.cacheWrite === 0) continue;
    // Claude Code's own price of the rest, when nothing written between holds part of it.
    const cost = seen === undefined && after.cost !== null && (before === undefined || before.cost !== null) ? after.cost - (before?.cost ?? 0) : null;
    rest.push({ model, counts, webSearches, cost: cost !== null && cost >= 0 ? cost : null });
  }
  return rest;
}
