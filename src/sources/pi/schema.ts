// Pi's raw records as they appear on disk (formats/pi.md §3–§8), validated at the file boundary.
// Loose objects: Pi adds fields over time, and unknown fields must not reject a record.

import { z } from 'zod';

const optionalString = z.string().nullish();
const optionalNumber = z.number().nullish();

/**
 * Raw content: a string, or an array of blocks whose shapes are checked one by one by the
 * reader. Any other shape is kept and shown as it is: a message is not lost for its content.
 */
export const rawContent = z.unknown().optional();
/** Usage is checked by the reader on its own, so a message with unreadable usage keeps its text. */
const looseUsage = z.unknown().optional();

export const rawTextBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
export const rawThinkingBlock = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string().nullish(),
  redacted: z.boolean().nullish(),
});
export const rawToolCallBlock = z.looseObject({
  type: z.literal('toolCall'),
  id: z.string().nullish(),
  name: z.string(),
  arguments: z.unknown().optional(),
  argumentsError: z.unknown().optional(),
});
export const rawImageBlock = z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string() });

export const rawUsage = z.looseObject({
  input: optionalNumber,
  output: optionalNumber,
  cacheRead: optionalNumber,
  cacheWrite: optionalNumber,
  cacheWrite1h: optionalNumber,
  reasoning: optionalNumber,
  totalTokens: optionalNumber,
  cost: z
    .looseObject({
      input: optionalNumber,
      output: optionalNumber,
      cacheRead: optionalNumber,
      cacheWrite: optionalNumber,
      total: optionalNumber,
      totalFromProvider: z.boolean().nullish(),
    })
    .nullish(),
});
export type RawUsage = z.infer<typeof rawUsage>;

export const rawHeader = z.looseObject({
  type: z.literal('session'),
  id: z.string().min(1),
  version: z.union([z.number(), z.string()]).nullish(),
  timestamp: optionalString,
  cwd: optionalString,
  parentSession: optionalString,
  /** The v1 name of parentSession. */
  branchedFrom: optionalString,
  provider: optionalString,
  modelId: optionalString,
  thinkingLevel: optionalString,
});
export type RawHeader = z.infer<typeof rawHeader>;

/** What every entry line has; v1 lines have no id or parentId. */
export const rawEnvelope = z.looseObject({
  type: z.string(),
  id: z.string().min(1).nullish(),
  parentId: z.string().nullish(),
  timestamp: z.unknown().optional(),
});

export const rawUserMessage = z.looseObject({ role: z.literal('user'), content: rawContent, timestamp: z.unknown().optional() });

export const rawAssistantMessage = z.looseObject({
  role: z.literal('assistant'),
  content: rawContent,
  provider: optionalString,
  model: optionalString,
  responseModel: optionalString,
  api: optionalString,
  usage: looseUsage,
  stopReason: optionalString,
  errorMessage: optionalString,
});

export const rawToolResultMessage = z.looseObject({
  role: z.literal('toolResult'),
  toolCallId: optionalString,
  toolName: optionalString,
  content: rawContent,
  details: z.unknown().optional(),
  usage: looseUsage,
  isError: z.boolean().nullish(),
  /** Calls a code-mode tool made inside itself (0.99+). */
  nestedCalls: z
    .looseObject({ calls: z.array(z.looseObject({ name: z.string(), status: optionalString, error: optionalString })).nullish() })
    .nullish(),
});

export const rawBashExecutionMessage = z.looseObject({
  role: z.literal('bashExecution'),
  command: z.string(),
  output: z.string().nullish(),
  exitCode: z.number().nullish(),
  cancelled: z.boolean().nullish(),
  truncated: z.boolean().nullish(),
  excludeFromContext: z.boolean().nullish(),
});

export const rawSystemMessage = z.looseObject({
  role: z.literal('system'),
  content: rawContent,
  sections: z.record(z.string(), z.string().nullable()).nullish(),
  toolsAdded: z.array(z.looseObject({ name: z.string() })).nullish(),
  toolsRemoved: z.array(z.looseObject({ name: z.string() })).nullish(),
});

/** Legacy extension messages stored as `message` entries (v2 `hookMessage`, migrated to `custom`). */
export const rawCustomRoleMessage = z.looseObject({
  role: z.enum(['custom', 'hookMessage']),
  customType: optionalString,
  content: rawContent,
  display: z.boolean().nullish(),
  details: z.unknown().optional(),
});

export const rawMessageEntry = z.looseObject({ message: z.looseObject({ role: z.string() }) });
export const rawModelChange = z.looseObject({ provider: optionalString, modelId: optionalString });
export const rawThinkingLevelChange = z.looseObject({ thinkingLevel: optionalString });
export const rawCompaction = z.looseObject({
  summary: z.string().nullish(),
  tokensBefore: optionalNumber,
  firstKeptEntryId: optionalString,
  firstKeptEntryIndex: optionalNumber,
  usage: looseUsage,
});
export const rawBranchSummary = z.looseObject({
  summary: z.string().nullish(),
  fromId: optionalString,
  usage: looseUsage,
});
export const rawCustom = z.looseObject({ customType: optionalString, data: z.unknown().optional() });
export const rawCustomMessage = z.looseObject({
  customType: optionalString,
  content: rawContent,
  display: z.boolean().nullish(),
  details: z.unknown().optional(),
});
export const rawLabel = z.looseObject({ targetId: optionalString, label: optionalString });
export const rawSessionInfo = z.looseObject({ name: optionalString });
export const rawUsageEntry = z.looseObject({
  kind: optionalString,
  provider: optionalString,
  model: optionalString,
  usage: looseUsage,
  note: optionalString,
});
export const rawContextEdit = z.looseObject({
  targetId: optionalString,
  replacement: z.looseObject({ content: rawContent }).nullable().optional(),
});

/** The subagent example extension's tool result details (formats/pi.md §18). */
export const rawSubagentResult = z.looseObject({
  agent: optionalString,
  task: optionalString,
  status: optionalString,
  model: optionalString,
  stopReason: optionalString,
  errorMessage: optionalString,
  /** The child process's exit code: 0.58's results say a failure by it alone (no `status`). */
  exitCode: z.number().nullish(),
  messages: z.array(z.unknown()).nullish(),
  /** The run's spend in all, read as a message's usage is (its cost may be a number, the total). */
  usage: z.unknown().optional(),
});

/** Every entry type of formats/pi.md §5. */
export const PI_ENTRY_TYPES = [
  'message',
  'model_change',
  'thinking_level_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
  'usage',
  'context_edit',
] as const;
