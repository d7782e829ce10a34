// Ground-truth bookkeeping: what each generated entry contributes to bough's counts (design.md §6),
// written down by the generator at the moment it invents the numbers, never read back from files.

export interface TokenTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Part of cacheWrite, never added to it. */
  cacheWrite1h: number;
  /** Part of output, never added to it. */
  reasoning: number;
}

export interface Spend {
  tokens: TokenTotals;
  /** Sum of the recorded `usage.cost.total` (a sub-agent aggregate: its `cost` number). */
  recordedCost: number;
}

/** What one entry, one session or the whole corpus adds up to. */
export interface Tally extends Spend {
  prompts: number;
  replies: number;
  errorReplies: number;
  abortedReplies: number;
  /** Sub-agent spend: also included in `tokens` and `recordedCost`. */
  subagents: Spend;
}

export const TOKEN_KINDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'reasoning'] as const;

export function zeroTokens(): TokenTotals {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 };
}

export function emptySpend(): Spend {
  return { tokens: zeroTokens(), recordedCost: 0 };
}

export function emptyTally(): Tally {
  return { ...emptySpend(), prompts: 0, replies: 0, errorReplies: 0, abortedReplies: 0, subagents: emptySpend() };
}

export function addSpend(into: Spend, from: Spend): void {
  for (const kind of TOKEN_KINDS) into.tokens[kind] += from.tokens[kind];
  into.recordedCost += from.recordedCost;
}

export function addTally(into: Tally, from: Tally): void {
  addSpend(into, from);
  addSpend(into.subagents, from.subagents);
  into.prompts += from.prompts;
  into.replies += from.replies;
  into.errorReplies += from.errorReplies;
  into.abortedReplies += from.abortedReplies;
}

/** An entry's contribution when it is ordinary (non-sub-agent) usage. */
export function spendTally(spend: Spend): Tally {
  const tally = emptyTally();
  addSpend(tally, spend);
  return tally;
}

/** An entry's contribution when it is sub-agent usage: counted in the totals and apart. */
export function subagentTally(spend: Spend): Tally {
  const tally = spendTally(spend);
  addSpend(tally.subagents, spend);
  return tally;
}
