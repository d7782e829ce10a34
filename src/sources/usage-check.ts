// Numbers no agent could have meant: negative, fractional, infinite or absurdly large token
// counts, a part larger than its whole, and costs that are negative or not finite. Each is left out of every sum (a count as
// 0, a cost as not recorded) and listed, so one bad record can neither cancel real usage nor
// turn a total into "$∞". Shared by every source: it runs on what a reader emits.

import { diagnostic, FileDiagnostics, type Diagnostic } from '../diagnostics.js';
import { TOKEN_KINDS, type Entry, type SessionFile, type Usage } from '../types.js';

/** More tokens than any model takes or gives in one request, by orders of magnitude. */
export const MAX_TOKENS_PER_RECORD = 1e9;
/**
 * More than the largest context any model has (10 million tokens) in one request: counted, as a
 * count no agent could mean is not, but said, so that one damaged line cannot add thousands of
 * dollars unseen. A record that sums several requests (a sub-agent run's) may hold more.
 */
export const UNLIKELY_TOKENS_PER_REQUEST = 10_000_000;
/** More than any single request has cost. */
export const MAX_COST_PER_RECORD = 10_000;


/** Checks every usage record of a file (sub-agent transcripts included) in place; returns what it left out (past a thousand, counted by kind). */
export function checkUsageNumbers(file: SessionFile): Diagnostic[] {
  const problems = new FileDiagnostics();
  // In the file's order (a sub-agent run's entries after the result that holds them): past a
  // thousand, the rest are said "from line N on".
  const pending: Entry[] = [...file.entries].reverse();
  while (pending.length > 0) {
    const entry = pending.pop() as Entry;
    for (const usage of entry.usage) {
      const found = fixUsage(usage);
      if (found.length > 0) problems.push(diagnostic('absurd-number', file.path, entry.line, `${found.join('; ')}: left out of the sums`));
      const unlikely = usage.largestPrompt === undefined ? TOKEN_KINDS.filter((kind) => usage[kind] > UNLIKELY_TOKENS_PER_REQUEST) : [];
      if (unlikely.length > 0) {
        const said = diagnostic('unlikely-count', file.path, entry.line, `${unlikely.map((kind) => `${kind} ${describe(usage[kind])}`).join('; ')} in one request: more than any model’s context, counted as written`, false);
        // When it was made: a report counts it only in its period.
        const time = usage.timestamp ?? entry.timestamp;
        problems.push(time === null ? said : { ...said, time });
      }
    }
    if (entry.kind === 'toolResult') for (const run of [...entry.subagents].reverse()) pending.push(...[...run.entries].reverse());
  }
  return problems.list();
}

function fixUsage(usage: Usage): string[] {
  const found: string[] = [];
  for (const kind of TOKEN_KINDS) {
    const value = usage[kind];
    const why = countProblem(value);
    if (why === null) continue;
    found.push(`${kind} ${describe(value)} (${why})`);
    usage[kind] = 0;
    usage.countsLeftOut = true;
  }
  // A part larger than its whole: which of the two is wrong cannot be told, so the part goes. The
  // one-hour writes' rate is then unknown (priced in part); reasoning moves no price.
  if (usage.cacheWrite1h > usage.cacheWrite) {
    found.push(`cacheWrite1h ${describe(usage.cacheWrite1h)} (more than the cache writes it is part of, ${describe(usage.cacheWrite)})`);
    usage.cacheWrite1h = 0;
    usage.countsLeftOut = true;
  }
  if (usage.reasoning > usage.output) {
    found.push(`reasoning ${describe(usage.reasoning)} (more than the output it is part of, ${describe(usage.output)})`);
    usage.reasoning = 0;
  }
  const cost = usage.recordedCost;
  if (cost !== null) {
    const why = !Number.isFinite(cost) ? 'not finite' : cost < 0 ? 'negative' : cost > MAX_COST_PER_RECORD ? 'absurdly large' : null;
    if (why !== null) {
      found.push(`recorded cost ${describe(cost)} (${why})`);
      usage.recordedCost = null;
    }
  }
  return found;
}

/** Why a token count is one no agent could mean (`max`: the most it could be), or null. */
export function countProblem(value: number, max = MAX_TOKENS_PER_RECORD): string | null {
  if (!Number.isFinite(value)) return 'not finite';
  if (value < 0) return 'negative';
  if (!Number.isInteger(value)) return 'not a whole number';
  if (value > max) return 'absurdly large';
  return null;
}

export function describe(value: number): string {
  return Number.isFinite(value) && Math.abs(value) < 1e15 ? String(value) : value.toExponential(3);
}
