// The numbers every page shows the same way: stat cards and a token table, formatted here so
// templates only place them.

import { totalTokens, type ModelUsage, type Stats } from '../model/stats.js';
import { formatCompact, formatCount, formatUsd, plural } from './format.js';

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
      detail: boughDetail(stats),
      tone: stats.unpriced + stats.partial > 0 ? 'warn' : 'money',
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

function boughDetail(stats: Stats): string {
  const unknown = [
    stats.unpriced > 0 ? `${plural(stats.unpriced, 'record')} unpriced` : '',
    stats.partial > 0 ? `${plural(stats.partial, 'record')} priced in part` : '',
  ].filter(Boolean);
  if (unknown.length > 0) return `plus ${unknown.join(' and ')}: cost unknown`;
  return stats.cost.bough === null ? 'nothing to price' : "from LiteLLM's price table";
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
  priceKey: string;
  /** How bough priced it, for a badge: "unpriced", "priced in part", "$0 by rule", or null when simply priced. */
  priceBadge: { label: string; tone: 'error' | 'warn' | 'plain'; title: string } | null;
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
      priceKey: m.priceKey ?? '',
      priceBadge: priceBadge(m),
      records: formatCount(m.records),
      input: formatCount(m.tokens.input),
      output: formatCount(m.tokens.output),
      cacheRead: formatCount(m.tokens.cacheRead),
      cacheWrite: formatCount(m.tokens.cacheWrite),
      recorded: formatUsd(m.cost.recorded),
      bough: formatUsd(m.cost.bough),
    }));
}

function priceBadge(m: ModelUsage): ModelRow['priceBadge'] {
  const title = m.priceNote ?? '';
  if (m.unpriced > 0) return { label: 'unpriced', tone: 'error', title: title || "not in LiteLLM's price table" };
  if (m.partial > 0) return { label: 'priced in part', tone: 'warn', title };
  switch (m.priceState) {
    case 'free':
      return { label: 'free model', tone: 'plain', title };
    case 'local':
      return { label: 'local: $0', tone: 'plain', title };
    case 'subscription':
      return { label: 'subscription: $0', tone: 'plain', title };
    default:
      return title ? { label: 'note', tone: 'plain', title } : null;
  }
}
