// Codex rollout records as they appear on disk (formats/codex.md §2–§8), validated at the file
// boundary. Loose objects throughout: Codex calls the format "an implementation detail" and adds
// fields every few releases, so unknown fields must never reject a record.

import { z } from 'zod';

const optionalString = z.string().nullish();
const optionalNumber = z.number().nullish();

/** `{timestamp, type, payload}`: every line since autumn 2025. */
export const rawEnvelope = z.looseObject({
  timestamp: z.unknown().optional(),
  type: z.string(),
  payload: z.unknown().optional(),
});

/** The pre-envelope header (mid-2025): a bare `{id, timestamp, instructions?}` on line 1. */
export const rawLegacyHeader = z.looseObject({
  id: z.string().min(1),
  timestamp: optionalString,
  instructions: z.unknown().optional(),
  cwd: optionalString,
});
export const LEGACY_HEADER_KEYS: ReadonlySet<string> = new Set(['id', 'timestamp', 'instructions', 'cwd', 'git', 'originator', 'cli_version']);

const rawThreadSpawn = z.looseObject({
  parent_thread_id: optionalString,
  depth: optionalNumber,
  /** 0.169's second multi-agent version: where the agent sits in its team (`/root/alpha`); its last part is the task name the parent's calls use. */
  agent_path: optionalString,
  agent_nickname: optionalString,
  agent_role: optionalString,
});

/** `session_meta.payload.source`: a word, or `{subagent: "review" | "compact" | {thread_spawn} | {other}}`. */
export const rawSource = z.union([
  z.string(),
  z.looseObject({
    subagent: z.union([z.string(), z.looseObject({ thread_spawn: rawThreadSpawn.optional(), other: z.unknown().optional() })]).optional(),
  }),
]);

export const rawSessionMeta = z.looseObject({
  id: z.string().min(1),
  timestamp: optionalString,
  cwd: optionalString,
  originator: optionalString,
  cli_version: optionalString,
  source: z.unknown().optional(),
  model_provider: optionalString,
  forked_from_id: optionalString,
  /** 0.169+: every sub-agent thread's parent, a review's too (whose `source` names none). */
  parent_thread_id: optionalString,
  /**
   * 0.169+: a rollout that goes on from an earlier point of a thread's history, kept in another
   * rollout (a prompt edited, turns undone): that thread, and where its history is cut.
   */
  history_base: z.looseObject({ thread_id: optionalString }).nullish().catch(null),
  agent_path: optionalString,
  agent_nickname: optionalString,
  agent_role: optionalString,
});
export type RawSessionMeta = z.infer<typeof rawSessionMeta>;

export const rawTurnContext = z.looseObject({
  turn_id: optionalString,
  cwd: optionalString,
  model: optionalString,
  effort: optionalString,
});

/** One usage object of a `token_count` event: cached ⊆ input, reasoning ⊆ output, total = input + output. */
export const rawTokenUsage = z.looseObject({
  input_tokens: optionalNumber,
  cached_input_tokens: optionalNumber,
  cache_write_input_tokens: optionalNumber,
  output_tokens: optionalNumber,
  reasoning_output_tokens: optionalNumber,
  total_tokens: optionalNumber,
});
export type RawTokenUsage = z.infer<typeof rawTokenUsage>;

/** 0.169's record of one response's usage (`token_usage_record`), beside the running totals. */
export const rawUsageRecord = z.looseObject({
  thread_id: z.string().nullish(),
  response_id: z.string().min(1),
  usage: rawTokenUsage,
});

export const rawTokenCount = z.looseObject({
  type: z.literal('token_count'),
  info: z
    .looseObject({
      total_token_usage: rawTokenUsage.nullish(),
      last_token_usage: rawTokenUsage.nullish(),
      // Names, read where they are strings: one of another type must not cost the counts beside it.
      model: z.unknown().optional(),
      model_name: z.unknown().optional(),
    })
    .nullish(),
});

export const rawMessage = z.looseObject({
  type: z.literal('message'),
  role: z.string(),
  content: z.unknown().optional(),
  phase: optionalString,
  /** 0.169+: what each content item is (`user.text`: words the user typed; `environments.…`: injected). */
  internal_chat_message_metadata_passthrough: z
    .looseObject({ content_item_kinds: z.array(z.unknown()).nullish().catch(null) })
    .nullish()
    .catch(null),
});
export type RawMessage = z.infer<typeof rawMessage>;

export const rawReasoning = z.looseObject({
  type: z.literal('reasoning'),
  summary: z.array(z.looseObject({ text: z.string().nullish() })).nullish(),
  content: z.array(z.looseObject({ text: z.string().nullish() })).nullish(),
});

export const rawFunctionCall = z.looseObject({
  type: z.literal('function_call'),
  name: z.string(),
  arguments: z.unknown().optional(),
  call_id: optionalString,
  namespace: optionalString,
});

export const rawCustomToolCall = z.looseObject({
  type: z.literal('custom_tool_call'),
  name: z.string(),
  input: z.unknown().optional(),
  call_id: optionalString,
  status: optionalString,
});

export const rawLocalShellCall = z.looseObject({
  type: z.literal('local_shell_call'),
  call_id: optionalString,
  id: optionalString,
  status: optionalString,
  action: z.looseObject({ command: z.array(z.string()).nullish(), working_directory: optionalString }).nullish(),
});

export const rawWebSearchCall = z.looseObject({
  type: z.literal('web_search_call'),
  id: optionalString,
  status: optionalString,
  action: z.looseObject({ type: optionalString, query: optionalString, queries: z.array(z.unknown()).nullish(), url: optionalString }).nullish(),
});

export const rawToolOutput = z.looseObject({
  type: z.string(),
  call_id: optionalString,
  output: z.unknown().optional(),
});

export const rawUserMessageEvent = z.looseObject({
  type: z.literal('user_message'),
  message: z.string().nullish(),
  images: z.array(z.string()).nullish(),
  /** `plain` for what the user typed; `user_instructions`, `environment_context` for what Codex injected. */
  kind: z.unknown().optional(),
});

export const rawTextEvent = z.looseObject({ type: z.string(), message: optionalString, text: optionalString });

export const rawTurnAborted = z.looseObject({ type: z.literal('turn_aborted'), reason: optionalString });

export const rawRolledBack = z.looseObject({ type: z.literal('thread_rolled_back'), num_turns: optionalNumber });

export const rawThreadName = z.looseObject({ type: z.literal('thread_name_updated'), thread_id: optionalString, thread_name: optionalString, name: optionalString });

/** `collab_agent_spawn_end`, and the `collab_tool_call` some builds write for the same spawn. */
export const rawSpawnEnd = z.looseObject({ call_id: optionalString, new_thread_id: optionalString });
/** 0.169's second multi-agent version: `item_completed` of a `SubAgentActivity`, the call (`id`) that started (`kind`) a thread. */
export const rawSubAgentActivity = z.looseObject({ type: z.literal('SubAgentActivity'), id: optionalString, kind: optionalString, agent_thread_id: optionalString });
/** 0.169's second multi-agent version: a message between agents, each named by its path (`/root`, `/root/beta`). */
export const rawAgentMessage = z.looseObject({ author: optionalString, recipient: optionalString, content: z.unknown().optional() });
export type RawAgentMessage = z.infer<typeof rawAgentMessage>;

export const rawExecEnd = z.looseObject({
  type: z.literal('exec_command_end'),
  call_id: optionalString,
  exit_code: optionalNumber,
});

const rawChanges = z.record(z.string(), z.looseObject({ type: optionalString, unified_diff: optionalString, content: optionalString, move_path: optionalString.catch(null) })).nullish();

export const rawPatchApplyEnd = z.looseObject({
  type: z.literal('patch_apply_end'),
  call_id: optionalString,
  success: z.boolean().nullish(),
  stdout: optionalString,
  stderr: optionalString,
  changes: rawChanges,
});
export type RawPatchApplyEnd = z.infer<typeof rawPatchApplyEnd>;

/** 0.169's item_completed of a patch (and what `codex migrate-rollouts` writes for patch_apply_end). */
export const rawFileChange = z.looseObject({
  type: z.literal('FileChange'),
  status: optionalString,
  stdout: optionalString,
  stderr: optionalString,
  changes: rawChanges,
});

export const rawCompacted = z.looseObject({ message: optionalString });

/** A line of `session_index.jsonl`: the thread's name as the user last set it. */
export const rawIndexLine = z.looseObject({ id: z.string(), thread_name: optionalString, updated_at: optionalString });
