// Writes a conversation into a SessionDraft the way Pi appends it: prompts, replies, tool rounds,
// failures and retries, compactions, /tree moves and the side entries (labels, names, usage
// entries, custom state, shell commands, model changes). Every reply, prompt and usage record is
// tallied as it is invented.

import { mainModelChoices, usageRecord, type ModelSpec } from './models.js';
import type { DraftEntry, SessionDraft } from './session.js';
import { followUp, replyText, skillPrompt, taskPrompt, thinkingText, TINY_PNG, tokensOf, type Project } from './text.js';
import { availableTools, runTool, type ToolName } from './tools.js';
import { emptyTally, spendTally, type Tally } from './truth.js';

export interface ConversationOptions {
  /** Turns (prompts) per session, both ends included. */
  turns: readonly [number, number];
  /** Rough size in characters of tool outputs such as file reads. */
  payloadBytes: number;
}

export interface Conversation {
  d: SessionDraft;
  project: Project;
  options: ConversationOptions;
}

// ───────────────────────────── session start ─────────────────────────────

/** What Pi writes before the first prompt (formats/pi.md §5, §6). */
export function openSession(c: Conversation): void {
  const { d } = c;
  if (d.features.version === 1) {
    if (d.rng.chance(0.3)) d.append('thinking_level_change', { thinkingLevel: d.rng.pick(['low', 'medium', 'high']) });
    return;
  }
  d.append('model_change', { provider: d.model.provider, modelId: d.model.model }, emptyTally(), { parentId: null });
  d.append('thinking_level_change', { thinkingLevel: d.rng.pick(['off', 'medium', 'high']) });
  if (d.features.systemMessages) {
    d.append('message', {
      message: {
        role: 'system',
        content: '',
        sections: { preamble: 'You are an expert coding assistant operating inside pi.', tools: '<tools>read, bash, edit, write</tools>', cwd: d.cwd },
        toolsAdded: ['read', 'bash', 'edit', 'write'].map((name) => ({ name, description: `The ${name} tool`, parameters: {} })),
        timestamp: d.clock,
      },
    });
    d.note('system-message');
  }
  if (d.features.sessionInfo && d.rng.chance(0.3)) setName(d, d.rng.pick(['cart fixes', 'release prep', 'flaky CI 🔥', 'docs pass']));
}

// ───────────────────────────── turns ─────────────────────────────

/** `turns` prompts with their replies, and whatever happens between them. */
export function converse(c: Conversation, turns: number, firstPrompt = true): void {
  for (let turn = 0; turn < turns; turn++) {
    if (turn > 0 || !firstPrompt) betweenTurns(c);
    const words = turn === 0 && firstPrompt ? taskPrompt(c.d.rng, c.project) : followUp(c.d.rng);
    if (turn === turns - 1 && c.d.features.version === 3 && c.d.rng.chance(0.04)) {
      // Pi 1.x writes the file once a prompt exists: a session can end before its reply came.
      prompt(c, words);
      c.d.note('trailing-prompt-without-reply');
      return;
    }
    promptAndReply(c, words);
  }
  if (c.d.hasIds && c.d.rng.chance(0.08)) labelOlderEntryLast(c);
}

export function promptAndReply(c: Conversation, words: string): void {
  prompt(c, words);
  const rounds = c.d.rng.weighted([
    [0, 3],
    [1, 4],
    [2, 3],
    [3, 1],
  ] as const);
  for (let round = 0; round < rounds; round++) {
    if (failedAttempts(c)) return;
    toolRound(c);
  }
  if (failedAttempts(c)) return;
  finalReply(c);
}

function prompt(c: Conversation, words: string): DraftEntry {
  const { d } = c;
  const f = d.features;
  const roll = d.rng.next();
  let content: unknown;
  if (roll < 0.08) {
    content = [{ type: 'text', text: skillPrompt(d.rng, f.skillTag) }];
    d.note(f.skillTag ? 'skill-prompt-tag' : 'skill-prompt-old');
  } else if (roll < 0.16 && f.version === 3) {
    content = words; // SDK and extension callers store a plain string
    d.note('prompt-string-content');
  } else if (roll < 0.2) {
    content = [{ type: 'text', text: words }, { type: 'image', data: TINY_PNG, mimeType: 'image/png' }];
    d.note('prompt-with-image');
  } else {
    content = [{ type: 'text', text: words }];
  }
  const time = d.tick(20_000, 600_000);
  d.context += tokensOf(JSON.stringify(content));
  const tally = emptyTally();
  tally.prompts = 1;
  return d.append('message', { message: { role: 'user', content, timestamp: time - d.rng.int(1, 20) } }, tally, { time });
}

/** An assistant round that calls tools, then one result entry per call. */
function toolRound(c: Conversation): void {
  const { d } = c;
  const names = Array.from({ length: d.rng.weighted([[1, 6], [2, 3], [3, 1]] as const) }, () => d.rng.weighted<ToolName>(availableTools(d)));
  const runs = names.map((name) => runTool(d, c.project, name, c.options.payloadBytes));
  const content: Record<string, unknown>[] = [];
  if (d.rng.chance(0.5)) content.push(thinkingBlock(c));
  if (d.rng.chance(0.6)) content.push({ type: 'text', text: 'Let me look at that.' });
  content.push(...runs.map((run) => run.call));
  reply(c, content, 'toolUse');
  for (const run of runs) {
    const time = d.tick(30, 8000);
    const message: Record<string, unknown> = { ...run.result, timestamp: time };
    if (d.features.durationMs) message['durationMs'] = d.rng.int(5, 4000);
    d.append('message', { message }, run.tally, { time });
    d.context += Math.ceil(run.size / 4);
  }
}

function finalReply(c: Conversation): void {
  const { d } = c;
  if (d.rng.chance(0.05)) {
    // Ran out of output tokens: Pi compacts, then retries below the compaction (formats/pi.md §25.8).
    reply(c, [{ type: 'text', text: replyText(d.rng).slice(0, 20) }], 'length');
    d.note('stop-length');
    compaction(c);
  }
  const content: Record<string, unknown>[] = [];
  if (d.rng.chance(0.4)) content.push(thinkingBlock(c));
  content.push({ type: 'text', text: replyText(d.rng) });
  reply(c, content, 'stop');
}

function thinkingBlock(c: Conversation): Record<string, unknown> {
  return { type: 'thinking', thinking: thinkingText(c.d.rng), thinkingSignature: c.d.rng.hex(48) };
}

type UsageShape = 'normal' | 'zero' | 'absent';

/** One assistant message with its usage, tallied; the entry time is when the reply ended. */
function reply(
  c: Conversation,
  content: Record<string, unknown>[],
  stopReason: string,
  options: { usage?: UsageShape; errorMessage?: string } = {},
): DraftEntry {
  const { d } = c;
  const spec = d.model;
  const start = d.tick(100, 3000);
  const end = start + d.rng.int(800, 45_000);
  const shape = options.usage ?? 'normal';
  const output = contentTokens(content) + d.rng.int(10, 400);
  const seen = Math.min(d.seen, d.context);
  const usage =
    shape === 'absent'
      ? null
      : usageRecord(d.rng, spec, { seen, fresh: d.context - seen, output }, d.features, {
          zero: shape === 'zero',
          omitTotalTokens: d.features.version === 1 && d.startMs < Date.parse('2025-11-25T00:00:00Z'),
        });

  const message: Record<string, unknown> = { role: 'assistant', content, api: spec.api, provider: spec.provider, model: spec.model };
  if (spec.responseModel && d.features.version === 3) message['responseModel'] = spec.responseModel;
  if (usage) message['usage'] = usage.json;
  message['stopReason'] = stopReason;
  if (options.errorMessage) message['errorMessage'] = options.errorMessage;
  message['timestamp'] = start;
  if (d.features.durationMs) message['durationMs'] = end - start;

  const tally: Tally = usage ? spendTally(usage.spend) : emptyTally();
  tally.replies = 1;
  if (stopReason === 'error') tally.errorReplies = 1;
  if (stopReason === 'aborted') tally.abortedReplies = 1;
  const entry = d.append('message', { message }, tally, { time: end });
  if (shape === 'normal') {
    d.seen = d.context;
    d.context += output;
  }
  return entry;
}

function contentTokens(content: readonly Record<string, unknown>[]): number {
  return content.reduce((n, block) => n + tokensOf(JSON.stringify(block)), 0);
}

// ───────────────────────────── failures ─────────────────────────────

const PROVIDER_ERRORS = [
  '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
  '429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}',
  '500 Internal server error',
  'fetch failed',
  'Provider finish_reason: content_filter',
];

/**
 * Maybe a failed attempt before the next reply (formats/pi.md §10). Errors are retried on the
 * same path; an abort ends the turn. Returns true when the turn is over.
 */
function failedAttempts(c: Conversation): boolean {
  const { d } = c;
  const roll = d.rng.next();
  if (roll < 0.035) {
    const failed = reply(c, [], 'error', { usage: 'zero', errorMessage: d.rng.pick(PROVIDER_ERRORS) });
    d.note('error-reply-empty');
    omitFromContext(c, [failed]);
    return false;
  }
  if (roll < 0.055) {
    erroredMidStream(c);
    return false;
  }
  if (roll < 0.085) {
    aborted(c);
    return true;
  }
  return false;
}

/** The stream broke after some output: partial content, real usage, tool calls Pi never ran. */
function erroredMidStream(c: Conversation): void {
  const { d } = c;
  const callId = d.model.provider === 'anthropic' ? `toolu_01${d.rng.hex(22)}` : `call_${d.rng.hex(24)}`;
  const content = [
    { type: 'text', text: 'I will update the tests now.' },
    { type: 'toolCall', id: callId, name: 'edit', arguments: { path: d.rng.pick(c.project.files) } },
  ];
  const failed = reply(c, content, 'error', { errorMessage: 'terminated' });
  d.note('error-reply-partial');
  const omitted = [failed];
  if (d.rng.chance(0.6)) {
    const time = d.tick(5, 50);
    const message = {
      role: 'toolResult',
      toolCallId: callId,
      toolName: 'edit',
      content: [{ type: 'text', text: 'Tool call skipped: the request failed.' }],
      isError: true,
      timestamp: time,
    };
    omitted.push(d.append('message', { message }, emptyTally(), { time }));
  }
  omitFromContext(c, omitted);
}

/** Auto-retry (0.87+): the failed reply and its tool results are hidden from the model. */
function omitFromContext(c: Conversation, entries: readonly DraftEntry[]): void {
  const { d } = c;
  if (!d.features.contextEdit) return;
  for (const entry of entries) d.append('context_edit', { targetId: entry.id, replacement: null });
  d.note('context-edit-retry');
}

function aborted(c: Conversation): void {
  const { d } = c;
  const usage = d.rng.weighted<UsageShape>([
    ['normal', 3],
    ['zero', 2],
    ['absent', 1],
  ]);
  const content = d.rng.chance(0.6) ? [{ type: 'text', text: 'Looking at the' }] : [];
  const errorMessage = d.features.newAbortMessage ? 'This operation was aborted' : 'Request was aborted.';
  reply(c, content, 'aborted', { usage, errorMessage });
  d.note(`aborted-reply-usage-${usage}`);
}

// ───────────────────────────── between turns ─────────────────────────────

/** Side entries and /tree moves between two prompts, each with its own odds. */
function betweenTurns(c: Conversation): void {
  const { d } = c;
  const r = d.rng;
  if (d.hasIds) {
    const move = r.next();
    if (move < 0.14) navigateToEarlierPrompt(c, r.chance(d.features.version === 2 ? 0.5 : 0.6));
    else if (move < 0.18) navigateToEarlierReply(c);
    else if (move < 0.21) resetToRoot(c);
    else if (move < 0.24) loseParent(c);
  }
  if (d.context > 25_000 && r.chance(0.12)) compaction(c);
  if (r.chance(0.07)) changeModel(c);
  if (r.chance(0.06)) shellCommand(c);
  if (d.features.version > 1 && r.chance(d.features.version === 2 ? 0.3 : 0.06)) extensionEntry(c); // custom entries arrived with v2
  if (d.features.usageEntries && r.chance(0.08)) cacheWarm(c);
  if (d.hasIds && r.chance(0.08)) labelSomething(c);
  if (d.features.sessionInfo && r.chance(0.05)) setName(d, r.chance(0.25) ? '' : r.pick(['refactor', 'bugfix: cart', 'nächster Versuch']));
}

/** /tree to an earlier prompt: the next prompt becomes a second child of that prompt's parent. */
function navigateToEarlierPrompt(c: Conversation, withSummary: boolean): void {
  const { d } = c;
  const prompts = d.activePath().filter((e) => e.isUserMessage).slice(0, -1);
  if (prompts.length === 0) return;
  const chosen = d.rng.pick(prompts);
  const oldLeaf = d.leaf;
  // A prompt whose parent is missing is a root for Pi: going "above" it resets to no parent.
  d.leaf = chosen.parentId !== null && d.byId.has(chosen.parentId) ? chosen.parentId : null;
  d.note('tree-branch-from-prompt');
  if (withSummary) branchSummary(c, oldLeaf);
  if (d.leaf !== null && d.rng.chance(0.3)) addLabel(d, d.leaf, d.rng.pick(['before refactor', 'good state', 'checkpoint']));
}

function navigateToEarlierReply(c: Conversation): void {
  const { d } = c;
  const replies = d.activePath().filter((e) => e.type === 'message' && !e.isUserMessage && e.line.includes('"stopReason":"stop"'));
  if (replies.length < 2) return;
  d.leaf = d.rng.pick(replies.slice(0, -1)).id;
  d.note('tree-branch-from-reply');
}

function branchSummary(c: Conversation, fromId: string | null): void {
  const { d } = c;
  const payload: Record<string, unknown> = {
    fromId: fromId ?? 'root',
    summary: 'The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\nTried memoising the cart total; it did not help.',
    details: { readFiles: [d.rng.pick(c.project.files)], modifiedFiles: [] },
  };
  let tally = emptyTally();
  if (d.features.extraUsage) {
    const usage = usageRecord(d.rng, d.model, { seen: 0, fresh: d.rng.int(3000, 30_000), output: d.rng.int(150, 700) }, d.features);
    payload['usage'] = usage.json;
    tally = spendTally(usage.spend);
    d.note('branch-summary-usage');
  }
  d.append('branch_summary', payload, tally);
  d.note('branch-summary');
}

/** /tree to a root prompt: the next entry is another root of the same file. */
function resetToRoot(c: Conversation): void {
  c.d.leaf = null;
  c.d.note('tree-extra-root');
}

/** The parent's line was lost: the next entry points at an id no line carries (an orphan). */
function loseParent(c: Conversation): void {
  c.d.leaf = c.d.newId();
  c.d.note('tree-orphan');
}

/** The last line ends on an older branch: the user went back and only labelled something. */
function labelOlderEntryLast(c: Conversation): void {
  const { d } = c;
  const older = d.activePath().filter((e) => e.type === 'message');
  if (older.length < 3) return;
  const target = d.rng.pick(older.slice(0, -2));
  d.leaf = target.id;
  addLabel(d, target.id as string, 'look again');
  d.note('leaf-on-older-branch');
}

export function compaction(c: Conversation): void {
  const { d } = c;
  const tokensBefore = d.context;
  const summary = '## Goal\nFix the cart total.\n\n## Progress\n- found the bug\n- tests added\n\n## Next\n- release';
  const details = { readFiles: [d.rng.pick(c.project.files)], modifiedFiles: [d.rng.pick(c.project.files)] };
  let payload: Record<string, unknown>;
  let id: string | undefined;
  if (d.hasIds) {
    id = d.newId();
    const kept = d.activePath().filter((e) => e.type === 'message' && e.id !== null).slice(-4);
    const retainNone = d.rng.chance(0.15) || kept.length === 0;
    if (retainNone) d.note('compaction-retain-none');
    payload = { summary, firstKeptEntryId: retainNone ? id : (kept[0] as DraftEntry).id, tokensBefore, details };
  } else {
    // v1: the index of a kept message among the parsed lines, header included.
    const messages = d.entries.map((e, i) => [e, i + 1] as const).filter(([e]) => e.type === 'message');
    const kept = messages.slice(-3)[0];
    payload = { summary, firstKeptEntryIndex: kept ? kept[1] : 1, tokensBefore };
  }
  let tally = emptyTally();
  if (d.features.extraUsage) {
    const usage = usageRecord(d.rng, d.model, { seen: 0, fresh: tokensBefore, output: d.rng.int(400, 1500) }, d.features);
    payload['usage'] = usage.json;
    tally = spendTally(usage.spend);
    d.note('compaction-usage');
  }
  if (d.features.systemMessages) payload['systemMessage'] = { role: 'system', content: '', sections: { cwd: d.cwd }, timestamp: d.clock };
  d.append('compaction', payload, tally, id ? { id } : {});
  d.note('compaction');
  d.context = tokensOf(summary) + Math.floor(tokensBefore / 5);
  d.seen = 0;
}

function changeModel(c: Conversation): void {
  const { d } = c;
  const next: ModelSpec = d.rng.weighted(mainModelChoices(d.features));
  if (next === d.model) return;
  d.model = next;
  d.seen = 0; // another provider has nothing cached
  d.append('model_change', { provider: next.provider, modelId: next.model });
  // Pi may write the new model's thinking level unasked (formats/pi.md §25.3).
  if (d.rng.chance(0.5)) d.append('thinking_level_change', { thinkingLevel: d.rng.pick(['off', 'low', 'high']) });
  d.note(`model-${next.provider}`);
}

/** `!cmd` typed by the user: a bashExecution message, not a prompt. */
function shellCommand(c: Conversation): void {
  const { d } = c;
  const time = d.tick(5000, 60_000);
  const message: Record<string, unknown> = { role: 'bashExecution', command: d.rng.pick(['git log -3 --oneline', 'ls', 'npm run lint']) };
  const killed = d.rng.chance(0.2);
  message['output'] = killed ? '' : 'a1b2c3d Fix cart total\n9f8e7d6 Add tests\n';
  if (!killed) message['exitCode'] = d.rng.chance(0.15) ? 1 : 0;
  message['cancelled'] = killed;
  message['truncated'] = false;
  if (d.features.version === 3 && d.rng.chance(0.3)) message['excludeFromContext'] = true;
  message['timestamp'] = time;
  d.append('message', { message }, emptyTally(), { time });
  d.note(killed ? 'bash-execution-killed' : 'bash-execution');
}

/** Extension state and extension messages (v2 stores the latter as role hookMessage). */
function extensionEntry(c: Conversation): void {
  const { d } = c;
  if (d.rng.chance(0.5)) {
    const data = d.rng.chance(0.5)
      ? { provider: d.model.provider, modelId: d.model.model, state: { route: 'fast' } }
      : { todos: [{ text: 'write tests', done: false }] };
    d.append('custom', { customType: 'provider' in data ? 'pi.virtual-model-state' : 'todo-list', data });
    d.note('custom');
    return;
  }
  const display = d.rng.chance(0.6);
  const content = d.rng.chance(0.5) ? 'git: 2 files changed' : [{ type: 'text', text: 'Reminder: run the linter before committing.' }];
  if (d.features.version === 2) {
    d.append('message', { message: { role: 'hookMessage', customType: 'git-status', content, display, details: {}, timestamp: d.clock } });
    d.note('hook-message');
  } else {
    d.append('custom_message', { customType: 'git-status', content, display, details: { files: 2 } });
    d.note(display ? 'custom-message' : 'custom-message-hidden');
  }
}

/** Pi re-sends the prompt to keep a provider cache warm: a `usage` entry, counted. */
function cacheWarm(c: Conversation): void {
  const { d } = c;
  if (d.model.caching !== 'anthropic' || d.seen === 0) return;
  const usage = usageRecord(d.rng, d.model, { seen: d.seen, fresh: 0, output: 1 }, d.features);
  d.append(
    'usage',
    { kind: 'cache_warm', provider: d.model.provider, model: d.model.responseModel ?? d.model.model, usage: usage.json, note: 'idle 4m; cache kept warm' },
    spendTally(usage.spend),
  );
  d.note('usage-entry-cache-warm');
}

function labelSomething(c: Conversation): void {
  const { d } = c;
  const targets = d.activePath().filter((e) => e.type === 'message');
  if (targets.length === 0) return;
  const target = d.rng.pick(targets).id as string;
  addLabel(d, target, d.rng.pick(['bug found here', 'nice answer', 'ask Bob', '⭐']));
  if (d.rng.chance(0.2)) addLabel(d, target, ''); // cleared later
}

export function addLabel(d: SessionDraft, targetId: string, text: string): void {
  d.append('label', text === '' ? { targetId } : { targetId, label: text }, emptyTally(), { label: { targetId, text } });
  d.note(text === '' ? 'label-clear' : 'label');
}

function setName(d: SessionDraft, name: string): void {
  d.append('session_info', { name }, emptyTally(), { sessionName: name });
  d.note(name === '' ? 'session-name-clear' : 'session-name');
}
