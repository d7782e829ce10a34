// Claude Code 2.1.3xx's running totals of a session (`cost-state`), by model, as read: what they
// hold beyond the session's files is spend it wrote nowhere else (its compactions, side
// questions, the titles it asks a model for), counted in ledger/running-totals.ts. Earlier
// versions wrote a compaction's request as a sub-agent's transcript (agent-acompact-*.jsonl,
// claude.md §8.3); 2.1.332 writes none.

import type { RunningTotals } from '../../types.js';
import type { RawCostState } from './schema.js';
import { countProblem } from '../usage-check.js';

/** One `cost-state` record: the session's totals by model, where it was written. */
export interface CostState {
  line: number;
  /** Null for a record that does not read (not of the documented shape, or a count no agent could mean). */
  models: RunningTotals['models'] | null;
}

/** A record's totals; none when they do not read (`record` null). */
export function costState(record: RawCostState | null, line: number): CostState {
  const unread = { line, models: null };
  if (record === null) return unread;
  const models: RunningTotals['models'] = [];
  for (const [model, used] of Object.entries(record.modelUsage)) {
    const counts = [used.inputTokens, used.outputTokens, used.cacheReadInputTokens, used.cacheCreationInputTokens, used.cacheCreationEphemeral1hInputTokens, used.webSearchRequests].map((n) => n ?? 0);
    if (counts.some((n) => countProblem(n) !== null)) return unread;
    const [input, output, cacheRead, cacheWrite, cacheWrite1h, webSearches] = counts as [number, number, number, number, number, number];
    models.push({ model, counts: { input, output, cacheRead, cacheWrite, cacheWrite1h: Math.min(cacheWrite1h, cacheWrite), reasoning: 0 }, webSearches });
  }
  return { line, models };
}
