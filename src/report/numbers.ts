// The numbers every page shows the same way: money (unknown is never $0), stat cards, token
// rows and model rows, formatted here so templates only place them.

import { filterLabels, inSentence, localDay } from '../ledger/scope.js';
import { totalTokens, type ModelTotals, type ReportData, type Tally, type UsageTotals } from './data.js';
import { formatCompact, formatCount, formatUsd, plural, shownUsd } from './format.js';

export interface StatCard {
  label: string;
  value: string;
  detail: string;
  tone: 'plain' | 'error' | 'money' | 'warn';
}

export interface TokenRow {
  kind: string;
  value: string;
  subagents: string;
  note: string;
}

/**
 * bough's price of some usage: "$1.23"; "$1.23 + unknown" when some records could not be priced
 * (in whole or in part); "unknown" when none could; "—" when there was nothing to price.
 */
export function boughCost(usage: UsageTotals): string {
  const unknown = usage.unpriced + usage.partial > 0;
  if (usage.cost.bough === null) return unknown ? 'unknown' : usage.records === 0 ? '—' : '$0.00';
  return unknown ? `${formatUsd(usage.cost.bough)} + unknown` : formatUsd(usage.cost.bough);
}

/**
 * Whose cost the agent stored: only some agents do (Pi; Claude Code before 1.0.9), so the recorded
 * total beside bough's is of part of the usage, and says so rather than look like a discount.
 */
function recordedDetail(tally: UsageTotals): string {
  const part = recordedPart(tally);
  return part === null ? 'as the agent stored it' : `as the agent stored it, ${part}`;
}

/** "for 455 of 656 usage records" where the agents stored a cost for some records only; null otherwise. */
export function recordedPart(tally: UsageTotals): string | null {
  if (tally.withRecordedCost === 0 || tally.withRecordedCost >= tally.records) return null;
  return `for ${formatCount(tally.withRecordedCost)} of ${plural(tally.records, 'usage record')}`;
}

/** What the agent recorded: "—" when it recorded nothing. */
export function recordedCost(usage: UsageTotals): string {
  return formatUsd(usage.cost.recorded);
}

/** What a sub-agent's transcript shown as its own session holds: its tasks and replies are no one's prompts. */
export interface SubagentTurns {
  tasks: number;
  replies: number;
  errorReplies: number;
}

/**
 * Why a tally counts no usage record: its files hold none (old Codex, a trimmed file, a fork whose
 * every record is its origin's), so tokens and cost are unknown, not 0; or all they hold lies
 * outside the report's period, counted in another period's report.
 */
export type NoUsage = 'none-recorded' | 'outside-period';

/** Why `tally` counts no usage record, or null when it counts some; `whole`: the same sessions' tallies over all time. */
export function noUsageOf(tally: Tally, whole: readonly Tally[]): NoUsage | null {
  if (tally.records > 0) return null;
  return whole.some((t) => t.records > 0) ? 'outside-period' : 'none-recorded';
}

/**
 * `noUsage`: why the tally counts no usage record (see NoUsage), said on the cards instead of 0.
 * `subagentTurns`: the page is a sub-agent's transcript read without its session's, whose turns
 * the tally does not count as the user's; the cards count them as the title line does.
 */
export function statCards(tally: Tally, branches: number | null, noUsage: NoUsage | null = null, subagentTurns: SubagentTurns | null = null): StatCard[] {
  const noUsageWords = noUsage === 'outside-period' ? NO_USAGE_IN_PERIOD : NO_USAGE;
  const turns = subagentTurns ?? { tasks: tally.prompts, replies: tally.replies, errorReplies: tally.errorReplies };
  const cards: StatCard[] = [
    subagentTurns
      ? { label: 'Tasks', value: formatCount(turns.tasks), detail: 'given to the sub-agent', tone: 'plain' }
      : { label: 'Prompts', value: formatCount(turns.tasks), detail: 'typed by the user', tone: 'plain' },
    // A sub-agent's replies are its work, not the conversation's: the lists and summary.json, which
    // count the user's conversation, give this session none, so they are named apart here.
    {
      label: subagentTurns ? 'Sub-agent replies' : 'Replies',
      value: formatCount(turns.replies),
      detail: tally.abortedReplies > 0 ? `${formatCount(tally.abortedReplies)} aborted` : subagentTurns ? 'its work: no replies in the lists' : 'from the agent',
      tone: 'plain',
    },
    { label: subagentTurns ? 'Sub-agent errors' : 'Error replies', value: formatCount(turns.errorReplies), detail: 'failed requests', tone: turns.errorReplies > 0 ? 'error' : 'plain' },
    noUsage === null
      ? {
          label: 'Tokens',
          value: formatCompact(totalTokens(tally.tokens)),
          detail: tally.outputPartial > 0 ? `at least ${formatCount(totalTokens(tally.tokens))} in all: ${outputPartialWords(tally.outputPartial)}` : `${formatCount(totalTokens(tally.tokens))} in all`,
          tone: 'plain',
        }
      : { label: 'Tokens', value: '—', detail: noUsageWords, tone: 'plain' },
    {
      label: 'Cost (bough)',
      value: boughCost(tally),
      detail: noUsage === null ? boughDetail(tally) : noUsageWords,
      tone: tally.unpriced + tally.partial > 0 ? 'warn' : 'money',
    },
    { label: 'Cost recorded', value: recordedCost(tally), detail: recordedDetail(tally), tone: 'money' },
  ];
  if (branches !== null) cards.splice(3, 0, { label: 'Branches', value: formatCount(branches), detail: 'leaves of the tree', tone: 'plain' });
  if (tally.subagents.records > 0) {
    cards.push({
      label: 'Sub-agents',
      value: formatCompact(totalTokens(tally.subagents.tokens)),
      detail: `tokens, ${boughCost(tally.subagents)} by bough (included above)`,
      tone: 'plain',
    });
  }
  return cards;
}

export const NO_USAGE = 'no usage recorded';
/** Usage recorded, all of it outside the report's period: not "no usage recorded", which it is not. */
export const NO_USAGE_IN_PERIOD = 'none in this period';

function boughDetail(usage: UsageTotals): string {
  const unknown = [
    usage.unpriced > 0 ? `${plural(usage.unpriced, 'record')} unpriced` : '',
    usage.partial > 0 ? `${plural(usage.partial, 'record')} priced in part` : '',
  ].filter(Boolean);
  if (unknown.length > 0) return `${unknown.join(' and ')}: their cost is unknown`;
  return usage.records === 0 ? 'nothing to price' : "from LiteLLM's price table";
}

/** Why output is a lower bound: responses whose final count the agent never wrote (claude.md §9.5). */
export function outputPartialWords(responses: number): string {
  return `the agent did not write the final output count of ${plural(responses, 'response')}`;
}

export function tokenRows(tally: Tally): TokenRow[] {
  const { tokens } = tally;
  const sub = tally.subagents.tokens;
  const row = (kind: string, value: number, subagents: number, note: string): TokenRow => ({
    kind,
    value: formatCount(value),
    subagents: formatCount(subagents),
    note,
  });
  return [
    row('Input', tokens.input, sub.input, 'not read from or written to cache'),
    row(
      'Output',
      tokens.output,
      sub.output,
      tally.outputPartial > 0 ? `reasoning included; at least this much: ${outputPartialWords(tally.outputPartial)}` : 'reasoning included',
    ),
    row('Cache read', tokens.cacheRead, sub.cacheRead, ''),
    row('Cache write', tokens.cacheWrite, sub.cacheWrite, tokens.cacheWrite1h > 0 ? `${formatCount(tokens.cacheWrite1h)} with one-hour retention` : ''),
    row('Reasoning', tokens.reasoning, sub.reasoning, 'part of output, where the provider reports it'),
    row('Total', totalTokens(tokens), totalTokens(sub), 'input + output + cache read + cache write'),
  ];
}

/** How bough priced a model, for a badge: "unpriced", "priced in part", "$0 by rule", or null when simply priced. */
export function priceBadge(m: ModelTotals): { label: string; tone: 'error' | 'warn' | 'plain'; title: string } | null {
  const title = m.priceNote ?? '';
  if (m.unpriced > 0) return { label: 'unpriced', tone: 'error', title: title || "not in LiteLLM's price table: its cost is unknown" };
  if (m.partial > 0) return { label: 'priced in part', tone: 'warn', title };
  switch (m.priceState) {
    case 'free':
      return { label: 'free model', tone: 'plain', title };
    case 'local':
      return { label: 'local: $0', tone: 'plain', title };
    case 'subscription':
      return { label: 'subscription: $0', tone: 'plain', title };
    default:
      // pricing.md: a subscription priced at API rates is labelled so, not passed off as a bill.
      if (m.apiEquivalent) return { label: 'API-equivalent', tone: 'plain', title: ['a subscription, priced at API rates (--price-subscriptions): what it would cost, not what was paid', title].filter(Boolean).join('; ') };
      return title ? { label: 'note', tone: 'plain', title } : null;
  }
}

/** Why a report of a scope is empty, and what the inputs would have given. */
export function emptyScopeSentence(data: ReportData, label: string): string {
  const { available, scope } = data;
  // Mid-sentence: "Nothing falls in all time · UTC", "Nothing falls since 2099-12-31 · UTC".
  const lower = inSentence(label);
  const scopeLabel = /^(since|until)\b/.test(lower) ? lower : `in ${lower}`;
  if (available.read === 0) return 'No sessions were read.';
  const filters = filterLabels(scope);
  if (available.sessions === 0) {
    // The filters, not the period, left nothing: say so, not that the sessions lie outside the dates.
    const none =
      available.read === 1 ? 'the one session read does not match' : `none of the ${formatCount(available.read)} sessions read matches`;
    return `Nothing falls ${scopeLabel}: ${none} ${filters.join(' and ')}.`;
  }
  const [first, last] = [available.firstAt, available.lastAt].map((at) => (at === null ? null : localDay(at, scope.timeZone)));
  const span = first === null || last === null ? '' : first === last ? ` (${first})` : ` (${first} to ${last})`;
  const which = filters.length === 0 ? 'read' : `read of ${filters.join(' and ')}`;
  const read =
    available.sessions === 1 ? `The one session ${which}${span} lies` : `The ${formatCount(available.sessions)} sessions ${which}${span} lie`;
  return `Nothing falls ${scopeLabel}. ${read} outside it.`;
}

/**
 * A user adds a table's rows up: where the costs, rounded each on its own, miss their sum, a
 * sentence saying so; null where they do not. A row showing no cost ("—": no usage, or none
 * priced) adds nothing to either sum (regression: one such row dropped the note of the rest).
 */
export function roundingNote(amounts: readonly (number | null)[]): string | null {
  let shown = 0;
  let exact = 0;
  let added = 0;
  for (const amount of amounts) {
    if (amount === null) continue;
    // "<$0.0001" cannot be added up.
    const rounded = shownUsd(amount);
    if (rounded === null) return null;
    shown += rounded;
    exact += amount;
    added++;
  }
  if (added < 2 || formatUsd(shown) === formatUsd(exact)) return null;
  return `Costs rounded one by one: the rows as shown add up to ${formatUsd(shown)}; the exact sum is ${formatUsd(exact)}.`;
}
