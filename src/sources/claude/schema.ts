// Claude Code's raw records as they appear on disk (formats/claude.md §3–§5), validated at the
// file boundary. Loose objects: Claude Code adds fields every few releases, and fields may be null.

import { z } from 'zod';

const optionalString = z.string().nullish();
const optionalNumber = z.number().nullish();
const optionalBoolean = z.boolean().nullish();

/** What every conversation record (user, assistant, system, progress, attachment) carries. */
export const rawEnvelope = z.looseObject({
  type: optionalString,
  uuid: optionalString,
  parentUuid: optionalString,
  logicalParentUuid: optionalString,
  isSidechain: optionalBoolean,
  sessionId: optionalString,
  agentId: optionalString,
  timestamp: z.unknown().optional(),
  cwd: optionalString,
  version: optionalString,
  isMeta: optionalBoolean,
  isCompactSummary: optionalBoolean,
  /**
   * A user line the user typed says so (2.1.3xx: `typed`, `queued` while a reply streamed), and one
   * sent by `claude -p` or the SDK (2.1.1xx on: `sdk`); none on what the app wrote.
   */
  promptSource: z.string().nullish().catch(null),
  /** Who a user line is from: absent or `human` for the user, `task-notification` for a background task's notice. */
  origin: z.looseObject({ kind: optionalString }).nullish().catch(null),
});
export type RawEnvelope = z.infer<typeof rawEnvelope>;

/** Usage is checked on its own, so a reply with unreadable usage keeps its text. */
export const rawUsage = z.looseObject({
  input_tokens: optionalNumber,
  output_tokens: optionalNumber,
  cache_creation_input_tokens: optionalNumber,
  cache_read_input_tokens: optionalNumber,
  cache_creation: z.looseObject({ ephemeral_5m_input_tokens: optionalNumber, ephemeral_1h_input_tokens: optionalNumber }).nullish(),
  /** "fast": billed at the model's fast-mode multiple (claude.md §9.1); anything else is standard. */
  speed: z.unknown().optional(),
  /** "us": served by US-only inference, billed at the model's data-residency multiple (claude.md §9.1, pricing.md §1). */
  inference_geo: z.unknown().optional(),
  /** Server-side tool calls, billed per request. Read leniently: an odd shape here must not cost the tokens. */
  server_tool_use: z.unknown().optional(),
});
export type RawUsage = z.infer<typeof rawUsage>;

/** One line of a response: one content block (or, in old or hand-made files, several). */
export const rawAssistantLine = z.looseObject({
  requestId: optionalString,
  isApiErrorMessage: optionalBoolean,
  error: z.unknown().optional(),
  /** Read on its own (read.ts): a cost written as text must not cost the line its reply and tokens. */
  costUSD: z.unknown().optional(),
  message: z.looseObject({
    id: optionalString,
    /** A model that is not text is unknown (read.ts says so): the reply and its tokens are kept, as priced in part. */
    model: optionalString.catch(null),
    content: z.unknown().optional(),
    stop_reason: optionalString,
    usage: z.unknown().optional(),
  }),
});
export type RawAssistantLine = z.infer<typeof rawAssistantLine>;

export const rawUserLine = z.looseObject({
  message: z.looseObject({ content: z.unknown().optional() }),
  toolUseResult: z.unknown().optional(),
});

export const rawSystemLine = z.looseObject({
  subtype: optionalString,
  content: z.unknown().optional(),
  level: optionalString,
  compactMetadata: z.looseObject({ trigger: optionalString, preTokens: optionalNumber }).nullish(),
});

export const rawSummaryLine = z.looseObject({ summary: z.string(), leafUuid: z.string() });
export const rawCustomTitleLine = z.looseObject({ customTitle: optionalString });
export const rawAiTitleLine = z.looseObject({ aiTitle: optionalString });

export const rawTextBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
export const rawThinkingBlock = z.looseObject({ type: z.literal('thinking'), thinking: optionalString, signature: optionalString });
export const rawToolUseBlock = z.looseObject({ type: z.enum(['tool_use', 'server_tool_use']), id: optionalString, name: z.string(), input: z.unknown().optional() });
/** A server tool's results in the response itself (the API ran the search): each found page's title and address. */
export const rawWebSearchResultBlock = z.looseObject({
  type: z.literal('web_search_tool_result'),
  content: z.union([z.array(z.looseObject({ title: optionalString, url: optionalString })), z.looseObject({ error_code: optionalString })]),
});
export const rawToolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: optionalString,
  content: z.unknown().optional(),
  is_error: optionalBoolean,
});
export const rawImageBlock = z.looseObject({
  type: z.literal('image'),
  source: z.looseObject({ type: optionalString, media_type: optionalString, data: optionalString }),
});

/** `toolUseResult` of Edit/MultiEdit/Write: the hunks the UI showed. */
export const rawPatchResult = z.looseObject({
  filePath: optionalString,
  structuredPatch: z.array(
    z.looseObject({
      oldStart: z.number(),
      oldLines: z.number(),
      newStart: z.number(),
      newLines: z.number(),
      lines: z.array(z.string()),
    }),
  ),
});
export type RawPatchResult = z.infer<typeof rawPatchResult>;

/** `agent-<id>.meta.json` beside a 2.1.x sub-agent transcript. */
export const rawAgentMeta = z.looseObject({ agentType: optionalString, description: optionalString, toolUseId: optionalString });

/** An `attachment` record's `attachment` when it carries words typed while the agent worked (claude.md §4). */
export const rawQueuedCommand = z.looseObject({
  type: z.literal('queued_command'),
  prompt: z.union([z.string(), z.array(z.unknown())]),
  commandMode: optionalString,
  /** Who sent it: `human`, or `peer` (another session's message); absent in older versions (the user). */
  origin: z.looseObject({ kind: optionalString }).nullish().catch(null),
  isMeta: z.boolean().nullish().catch(null),
});

/** An `attachment` record's `attachment` when `--max-turns` stopped the agent (`claude -p`, the SDK). */
export const rawMaxTurns = z.looseObject({ type: z.literal('max_turns_reached'), maxTurns: z.number().int().nonnegative().nullish().catch(null) });

/** Of each model, what a process of Claude Code used so far, as its `cost-state` record keeps it (2.1.3xx). */
export const rawCostState = z.looseObject({
  startTime: z.unknown().optional(),
  modelUsage: z.record(
    z.string(),
    z.looseObject({
      inputTokens: optionalNumber,
      outputTokens: optionalNumber,
      cacheReadInputTokens: optionalNumber,
      cacheCreationInputTokens: optionalNumber,
      cacheCreationEphemeral1hInputTokens: optionalNumber,
      webSearchRequests: optionalNumber,
    }),
  ),
});
export type RawCostState = z.infer<typeof rawCostState>;

/** Record types that carry no conversation (formats/claude.md §4): skipped, their uuid kept for linking. */
export const CLAUDE_BOOKKEEPING_TYPES = [
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
  'permission-mode',
  'last-prompt',
  'agent-name',
  'agent-color',
  'agent-setting',
  'pr-link',
  'tag',
  // 2.1.3xx: what the process sent (each request, its shape, its messages), its running cost,
  // the tools it used, its mode. The conversation and usage are in the records above, but for a
  // compaction's request, which only the running cost holds (read for it: cost-state.ts).
  'api-request',
  'api-request-shape',
  'api-request-blob',
  'cost-state',
  'tools-used',
  'mode',
  'atis-latch',
  // 2.1.332: the first line of a sub-agent forked from the conversation (`/btw`, then fork): the
  // parent's entry it goes on from. Its task and work follow as the sub-agent's own lines.
  'fork-context-ref',
  // 2.1.332: "Move to background and exit" names the session that goes on in the background (a
  // file of its own, whose copies of this one link them).
  'continued-in',
] as const;
