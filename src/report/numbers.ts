// The numbers every page shows the same way: stat cards and a token table, formatted here so
// templates only place them.

import { totalTokens, type Stats } from '../model/stats.js';
import { formatCompact, formatCount, formatUsd } from './format.js';

export interface StatCard {
  label: string;
  value: string;
  detail: string;
  tone: 'plain' | 'error' | 'money';
}

export interface TokenRow {
  kind: string;
  value: string;
  subagents: string;
  note: string;
}

export function statCards(stats: Stats, branches: number | null): StatCard[] {
  const cards: StatCard[] = [
    { label: 'Prompts', value: formatCount(stats.prompts), detail: 'typed by the user', tone: 'plain' },
    {
      label: 'Replies',
      value: formatCount(stats.replies),
      detail: stats.abortedReplies > 0 ? `${formatCount(stats.abortedReplies)} aborted` : 'from the agent',
      tone: 'plain',
    },
    { label: 'Error replies', value: formatCount(stats.errorReplies), detail: 'failed requests', tone: stats.errorReplies > 0 ? 'error' : 'plain' },
    { label: 'Tokens', value: formatCompact(totalTokens(stats.tokens)), detail: `${formatCount(totalTokens(stats.tokens))} in all`, tone: 'plain' },
    { label: 'Cost recorded', value: formatUsd(stats.cost.recorded), detail: 'as the agent stored it', tone: 'money' },
    {
      label: 'Cost (bough)',
      value: formatUsd(stats.cost.bough),
      detail: stats.cost.bough === null ? 'not priced yet' : "from LiteLLM's price table",
      tone: 'money',
    },
  ];
  if (branches !== null) cards.splice(3, 0, { label: 'Branches', value: formatCount(branches), detail: 'leaves of the tree', tone: 'plain' });
  if (stats.subagents.records > 0) {
    cards.push({
      label: 'Sub-agents',
      value: formatCompact(totalTokens(stats.subagents.tokens)),
      detail: `tokens, ${formatUsd(stats.subagents.cost.recorded)} recorded (included above)`,
      tone: 'plain',
    });
  }
  return cards;
}

export function tokenRows(stats: Stats): TokenRow[] {
  const { tokens } = stats;
  const sub = stats.subagents.tokens;
  const row = (kind: string, value: number, subagents: number, note: string): TokenRow => ({
    kind,
    value: formatCount(value),
    subagents: formatCount(subagents),
    note,
  });
  return [
    row('Input', tokens.input, sub.input, 'not read from or written to cache'),
    row('Output', tokens.output, sub.output, 'reasoning included'),
    row('Cache read', tokens.cacheRead, sub.cacheRead, ''),
    row('Cache write', tokens.cacheWrite, sub.cacheWrite, tokens.cacheWrite1h > 0 ? `${formatCount(tokens.cacheWrite1h)} with one-hour retention` : ''),
    row('Reasoning', tokens.reasoning, sub.reasoning, 'part of output, where the provider reports it'),
    row('Total', totalTokens(tokens), totalTokens(sub), 'input + output + cache read + cache write'),
  ];
}

export interface ModelRow {
  provider: string;
  model: string;
  local: boolean;
  records: string;
  input: string;
  output: string;
  cacheRead: string;
  cacheWrite: string;
  recorded: string;
  bough: string;
}

/** Usage by billed model, most tokens first. */
export function modelRows(stats: Stats): ModelRow[] {
  return [...stats.byModel.values()]
    .sort((a, b) => totalTokens(b.tokens) - totalTokens(a.tokens))
    .map((m) => ({
      provider: m.provider ?? '(unknown provider)',
      model: m.model ?? '(unknown model)',
      local: m.local,
      records: formatCount(m.records),
      input: formatCount(m.tokens.input),
      output: formatCount(m.tokens.output),
      cacheRead: formatCount(m.tokens.cacheRead),
      cacheWrite: formatCount(m.tokens.cacheWrite),
      recorded: formatUsd(m.cost.recorded),
      bough: formatUsd(m.cost.bough),
    }));
}
