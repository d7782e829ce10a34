// Pi's subagent example extension (formats/pi.md §18): child runs whose transcripts survive only
// inside the `subagent` tool result's `details.results[]`. Children write no session files.

import { SUBAGENT_MODELS, usageRecord, type ModelSpec } from './models.js';
import type { SessionDraft } from './session.js';
import { codeText, replyText } from './text.js';
import { addSpend, emptySpend, zeroTokens, type Spend } from './truth.js';

/** How a child run is stored: full transcript, or only the extension's aggregate. */
type RunShape = 'transcript' | 'aggregate-only' | 'empty-messages' | 'failed';

export interface SubagentRun {
  /** One `details.results[]` item. */
  result: Record<string, unknown>;
  /** What the run costs per the contract: its child replies' usage, or the aggregate when no messages. */
  spend: Spend;
}

export interface SubagentTool {
  arguments: Record<string, unknown>;
  details: Record<string, unknown>;
  summary: string;
  spend: Spend;
}

const AGENTS = ['scout', 'planner', 'reviewer', 'worker'];
const TASKS = ['find where the cart total is computed', 'list the failing tests', 'review the last diff', 'draft a migration plan'];

export function subagentTool(d: SessionDraft): SubagentTool {
  const mode = d.rng.weighted([
    ['single', 3],
    ['parallel', 3],
    ['chain', 2],
  ] as const);
  const count = mode === 'single' ? 1 : d.rng.int(2, 3);
  const tasks = Array.from({ length: count }, () => ({ agent: d.rng.pick(AGENTS), task: d.rng.pick(TASKS) }));
  const runs = tasks.map((t, i) => subagentRun(d, t.agent, t.task, mode === 'chain' ? i + 1 : null));
  const spend = emptySpend();
  for (const run of runs) addSpend(spend, run.spend);
  d.note('subagent-tool-results');

  const args =
    mode === 'single' ? { agent: tasks[0]?.agent, task: tasks[0]?.task } : mode === 'parallel' ? { tasks } : { chain: tasks };
  // 1.x adds status/isError; 0.58's details carried the agent scope instead.
  const details = d.features.newAbortMessage
    ? { mode, isError: false, results: runs.map((r) => r.result) }
    : { mode, agentScope: 'user', projectAgentsDir: null, results: runs.map((r) => r.result) };
  return { arguments: args, details, summary: `${runs.length} sub-agent run(s) finished.`, spend };
}

function subagentRun(d: SessionDraft, agent: string, task: string, step: number | null): SubagentRun {
  const { rng } = d;
  const shape = rng.weighted<RunShape>([
    ['transcript', 7],
    ['aggregate-only', 2],
    ['empty-messages', 1],
    ['failed', 1],
  ]);
  d.note(`subagent-run-${shape}`);
  const spec = rng.pick(SUBAGENT_MODELS);
  // An aggregate keeps four token sums: one-hour cache writes and per-request sizes are lost,
  // so a corpus meant to be priced exactly writes none there.
  const exact = d.features.catalog === 'litellm' && (shape === 'aggregate-only' || shape === 'empty-messages');
  const transcript = childTranscript(d, spec, task, shape === 'failed', exact);

  const aggregate = aggregateOf(transcript.replies);
  const result: Record<string, unknown> = { agent, agentSource: 'user', task };
  if (d.features.newAbortMessage) result['status'] = shape === 'failed' ? 'failed' : 'completed';
  result['exitCode'] = shape === 'failed' ? 1 : 0;
  if (shape === 'transcript' || shape === 'failed') result['messages'] = transcript.messages;
  if (shape === 'empty-messages') result['messages'] = [];
  result['stderr'] = '';
  result['usage'] = aggregate.json;
  result['model'] = spec.model;
  result['stopReason'] = shape === 'failed' ? 'error' : 'stop';
  if (shape === 'failed') result['errorMessage'] = 'terminated';
  if (step !== null) result['step'] = step;

  // With messages, the children's own usage is the truth; without, only the aggregate is known.
  const spend = shape === 'transcript' || shape === 'failed' ? sumOf(transcript.replies) : aggregate.spend;
  return { result, spend };
}

interface ChildReply {
  json: Record<string, unknown>;
  spend: Spend;
  totalTokens: number;
}

function childTranscript(d: SessionDraft, spec: ModelSpec, task: string, fails: boolean, plainCache: boolean) {
  const features = plainCache ? { ...d.features, cacheWrite1h: false } : d.features;
  const { rng } = d;
  let time = d.clock;
  const messages: Record<string, unknown>[] = [{ role: 'user', content: [{ type: 'text', text: task }], timestamp: time }];
  const replies: ChildReply[] = [];
  let context = rng.int(1500, 9000);
  let seen = 0;
  const turns = rng.int(1, 3);
  for (let turn = 0; turn < turns; turn++) {
    const last = turn === turns - 1;
    const failsHere = fails && last;
    const output = rng.int(40, 900);
    const usage = usageRecord(rng, spec, { seen, fresh: context - seen, output }, features, { zero: failsHere && rng.chance(0.6) });
    replies.push({ json: usage.json, spend: usage.spend, totalTokens: (usage.json['totalTokens'] as number | undefined) ?? 0 });
    time += rng.int(800, 9000);
    const callId = `toolu_${rng.hex(20)}`;
    const content = failsHere
      ? []
      : last
        ? [{ type: 'text', text: replyText(rng) }]
        : [{ type: 'toolCall', id: callId, name: 'read', arguments: { path: 'src/cart.ts' } }];
    const message: Record<string, unknown> = {
      role: 'assistant',
      content,
      api: spec.api,
      provider: spec.provider,
      model: spec.model,
      usage: usage.json,
      stopReason: failsHere ? 'error' : last ? 'stop' : 'toolUse',
      timestamp: time,
    };
    if (failsHere) message['errorMessage'] = 'terminated';
    messages.push(message);
    seen = context;
    context += output;
    if (!last) {
      const text = codeText(rng, 200);
      messages.push({ role: 'toolResult', toolCallId: callId, toolName: 'read', content: [{ type: 'text', text }], isError: false, timestamp: time + 50 });
      context += Math.ceil(text.length / 4);
    }
  }
  return { messages, replies };
}

/** The extension's own aggregate: four token sums, `cost` as a number, context of the last reply, turns. */
function aggregateOf(replies: readonly ChildReply[]) {
  const tokens = zeroTokens();
  let cost = 0;
  for (const reply of replies) {
    tokens.input += reply.spend.tokens.input;
    tokens.output += reply.spend.tokens.output;
    tokens.cacheRead += reply.spend.tokens.cacheRead;
    tokens.cacheWrite += reply.spend.tokens.cacheWrite;
    cost += reply.spend.recordedCost;
  }
  const json = {
    input: tokens.input,
    output: tokens.output,
    cacheRead: tokens.cacheRead,
    cacheWrite: tokens.cacheWrite,
    cost,
    contextTokens: replies.at(-1)?.totalTokens ?? 0,
    turns: replies.length,
  };
  return { json, spend: { tokens, recordedCost: cost } satisfies Spend };
}

function sumOf(replies: readonly ChildReply[]): Spend {
  const spend = emptySpend();
  for (const reply of replies) addSpend(spend, reply.spend);
  return spend;
}
