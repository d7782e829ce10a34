// The machine-readable outputs users script against: summary.json and `bough stats --json`. Their
// shapes are contracts, written here once as zod schemas (README documents each field); the
// builders' results are typed by them, and tests validate real output against them.

import { z } from 'zod';
import { SOURCES } from '../types.js';

const count = z.number().int().nonnegative();
/** USD, rounded to 1e-10; null when unknown (bough) or not recorded (the agent). */
const usd = z.number().nullable();

export const tokensSchema = z.object({
  input: count,
  output: count,
  cacheRead: count,
  cacheWrite: count,
  cacheWrite1h: count,
  reasoning: count,
});

export const costSchema = z.object({ bough: usd, recorded: usd });

export const usageTotalsSchema = z.object({
  tokens: tokensSchema,
  cost: costSchema,
  usageRecords: count,
  /** Usage records with a cost the agent stored: `cost.recorded` is of these only. */
  recordedCostRecords: count,
  /** Web searches the provider ran, billed apart from tokens (in `cost.bough` where priced). */
  webSearches: count,
  /** Records whose cost bough does not know, in whole or in part. */
  unpricedRecords: count,
  /** Of those, the records it priced in part (a fast-mode or search price missing): the known part is in `cost.bough`. */
  partiallyPricedRecords: count,
});

const counts = {
  prompts: count,
  replies: count,
  errorReplies: count,
  abortedReplies: count,
  usageRecords: count,
  /** Usage records with a cost the agent stored: `cost.recorded` is of these only. */
  recordedCostRecords: count,
  /** Web searches the provider ran, billed apart from tokens (in `cost.bough` where priced). */
  webSearches: count,
  /** Usage records whose output count the agent may not have written in full: output is a lower bound. */
  outputPossiblyPartialRecords: count,
};

export const priceStateSchema = z.enum(['priced', 'partial', 'free', 'local', 'subscription', 'unpriced']);

export const modelSchema = usageTotalsSchema.extend({
  provider: z.string().nullable(),
  model: z.string().nullable(),
  /** Served in fast mode: billed at the model's fast-mode multiple, a row apart from its standard-speed records. */
  fast: z.boolean(),
  /** Served in OpenAI's flex tier (Codex): billed at its rates, a row apart from its standard records. */
  flex: z.boolean(),
  local: z.boolean(),
  priceKey: z.string().nullable(),
  priceState: priceStateSchema.nullable(),
  sessions: count,
});

export const totalsSchema = z.object({
  /** Sessions the report lists: not those of Claude Code's start-up warmups alone (below), whose spend the totals count. */
  sessions: count,
  /**
   * Sessions of nothing but Claude Code 2.0's start-up warmups, never given a prompt (claude.md
   * §8.4): in `sessions` below marked `warmupOnly`, listed as no session. Optional: a summary.json
   * written before it was added reads as before.
   */
  warmupOnlySessions: count.optional(),
  projects: count,
  ...counts,
  tokens: tokensSchema,
  cost: costSchema,
  unpricedRecords: count,
  /** "provider/model" of models the table does not know. */
  unpricedModels: z.array(z.string()),
  partiallyPricedModels: z.array(z.string()),
  subagents: usageTotalsSchema,
  models: z.array(modelSchema),
});

export const periodSchema = z.object({
  /** As given: a day (YYYY-MM-DD) or an ISO time; null when open. --month gives its first and last day. */
  since: z.string().nullable(),
  until: z.string().nullable(),
  tz: z.string(),
  label: z.string(),
  /** The first instant included and the first one no longer included, as ISO times; null when open. */
  start: z.string().nullable(),
  end: z.string().nullable(),
});

export const filtersSchema = z.object({
  project: z.string().nullable(),
  sources: z.array(z.enum(SOURCES)).nullable(),
});

export const STATS_GROUPINGS = ['day', 'week', 'month', 'project', 'model', 'agent', 'session'] as const;
export type StatsGrouping = (typeof STATS_GROUPINGS)[number];

export const rowSchema = z.object({
  key: z.string(),
  label: z.string(),
  sessions: count,
  /** Null in a model's row: prompts are no model's, and replies are counted by usage record there. */
  prompts: count.nullable(),
  replies: count.nullable(),
  errorReplies: count.nullable(),
  tokens: tokensSchema,
  cost: costSchema,
  usageRecords: count,
  /** Usage records with a cost the agent stored: `cost.recorded` is of these only. */
  recordedCostRecords: count,
  /** Web searches the provider ran, billed apart from tokens (in `cost.bough` where priced). */
  webSearches: count,
  unpricedRecords: count,
  /** By session only: when it started (its first counted entry, in or out of the period), and its project. */
  startedAt: z.string().optional(),
  project: z.string().optional(),
  /** By session only: part of it lies outside the period, and only its part in it is counted (as summary.json says). */
  partlyOutsidePeriod: z.boolean().optional(),
  /** By session only: it recorded usage, all of it outside the period (its "—" is none in the period, not none written). */
  usageOutsidePeriod: z.boolean().optional(),
  /** By session only: nothing but Claude Code's start-up warmups (its `sessions` is 0: no session is listed for it). */
  warmupOnly: z.boolean().optional(),
});

/** What was read, skipped and flagged: counts (summary.json also lists each problem). */
const diagnosticCountsSchema = z.object({
  files: count,
  sessionFiles: count,
  goneFiles: count,
  /** Session files still there that no longer read as the session an earlier build archived (emptied, damaged, unreadable), whose sessions it kept: not gone, not read as sessions. */
  unreadFiles: count,
  skippedFiles: count,
  skippedLines: count,
  byReason: z.record(z.string(), count),
});

export const statsSchema = z.object({
  period: periodSchema,
  filters: filtersSchema,
  by: z.enum(STATS_GROUPINGS),
  totals: totalsSchema,
  rows: z.array(rowSchema),
  diagnostics: diagnosticCountsSchema,
});

const costCheckSchema = z
  .object({
    differs: z.boolean(),
    incomplete: z.boolean(),
    reason: z.string().nullable(),
    difference: usd,
    /** Usage records the agent stored no cost for, left out of the comparison. */
    unrecordedRecords: count,
    /** Usage records whose own price differs from their recorded cost by more than $0.0001 and 1%. */
    differingRecords: count,
  })
  .nullable();

export const sessionSummarySchema = z.object({
  key: z.string(),
  source: z.enum(SOURCES),
  id: z.string(),
  file: z.string(),
  cwd: z.string().nullable(),
  name: z.string().nullable(),
  title: z.string(),
  page: z.string(),
  /** The first and last entry the session counts (its header time when it counts none). */
  startedAt: z.string(),
  lastAt: z.string(),
  /** Part of what the session counts lies outside the period; its numbers here count the part inside. */
  partlyOutsidePeriod: z.boolean(),
  parentFile: z.string().nullable(),
  /** Null while the session's file is present; else when an earlier build last read it (the session is kept, its numbers count). */
  sourceLastSeen: z.string().nullable(),
  /**
   * Its file as the lists mark it: read now; gone (kept from an earlier build); there but no longer
   * read as it (emptied, damaged, unreadable: "file unread"); or holding less of it than an
   * earlier build read ("file holds less"). The last two are kept as the archive has them.
   */
  sourceState: z.enum(['read', 'gone', 'unread', 'holds-less']),
  origin: z.string().nullable(),
  originMissing: z.boolean(),
  /** Nothing but Claude Code 2.0's start-up warmups, never given a prompt: counted in the totals, listed as no session. Optional for older summaries. */
  warmupOnly: z.boolean().optional(),
  /** Other files holding this session (or one of its sub-agents) and nothing more, such as another config root or an archived copy: read, counted nothing, no session of their own. */
  duplicateFiles: z.array(z.string()),
  ...counts,
  branches: count,
  entries: count,
  copiedEntries: count,
  tokens: tokensSchema,
  cost: costSchema,
  costCheck: costCheckSchema,
  unpricedModels: z.array(z.string()),
  subagents: usageTotalsSchema,
  /** Sub-agents that ran in files of their own, counted in this session (in `subagents` too). */
  subagentFiles: z.array(z.object({ file: z.string(), label: z.string(), usage: usageTotalsSchema })),
  tools: z.object({
    calls: count,
    failures: count,
    filesTouched: count,
    linesAdded: count,
    linesRemoved: count,
    commits: count,
    failedCommits: count,
  }),
});

export const projectSummarySchema = z.object({
  cwd: z.string().nullable(),
  // Optional: a summary.json written before it was added reads as before.
  folder: z.string().nullable().optional(),
  name: z.string(),
  page: z.string(),
  sessions: count,
  ...counts,
  tokens: tokensSchema,
  cost: costSchema,
  subagents: usageTotalsSchema,
});

export const summarySchema = z.object({
  generator: z.object({ name: z.literal('bough'), version: z.string() }),
  // Optional: a summary.json written before it was added reads as before.
  samples: z.boolean().optional(),
  prices: z.object({ source: z.literal('litellm'), snapshot: z.string().nullable(), date: z.string().nullable(), origin: z.string() }),
  sharing: z.object({ redacted: z.boolean(), redactions: z.record(z.string(), count), omitted: z.array(z.string()) }),
  period: periodSchema,
  filters: filtersSchema,
  totals: totalsSchema,
  months: z.array(rowSchema),
  days: z.array(rowSchema),
  projects: z.array(projectSummarySchema),
  sessions: z.array(sessionSummarySchema),
  diagnostics: diagnosticCountsSchema.extend({
    listed: count,
    items: z.array(
      // `count`: how many problems the item stands for (past a file's first thousand, the rest of a reason are one item).
      z.object({ file: z.string(), line: z.number().int().nullable(), reason: z.string(), detail: z.string(), skippedLine: z.boolean(), count: count.min(1) }),
    ),
  }),
});

export type Summary = z.infer<typeof summarySchema>;
export type StatsJson = z.infer<typeof statsSchema>;
export type TotalsJson = z.infer<typeof totalsSchema>;
export type RowJson = z.infer<typeof rowSchema>;
export type PeriodJson = z.infer<typeof periodSchema>;
export type FiltersJson = z.infer<typeof filtersSchema>;
