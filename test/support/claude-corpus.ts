// A deterministic generator of Claude Code transcript trees (formats/claude.md) that returns the
// ground truth of what bough must count, written down while the numbers are invented.
//
//   const truth = await generateClaudeCorpus(root, { seed: 7, size: { sessions: 5 } });
//
// Files go to `<root>/projects/<encoded-cwd>/<session>.jsonl`, with sub-agents in
// `<session>/subagents/agent-<id>.jsonl`. What the truth must not count is written on purpose:
// every block of a response on its own line repeating the usage (output growing), agent_progress
// copies of sub-agent usage, the Task result's usage summary, and `<synthetic>` lines.

import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Random } from './pi-corpus/random.js';
import { TOKEN_KINDS, zeroTokens, type TokenTotals } from './pi-corpus/truth.js';

export interface AgentCorpusOptions {
  seed: number;
  /** Stop after this many sessions, or once this many bytes are written. */
  size: { sessions: number } | { bytes: number };
  /** Prompts per session, both ends included. Default [2, 6]. */
  turns?: readonly [number, number];
  /** Rough size in characters of each tool output. Default 300. */
  payloadBytes?: number;
}

/** What a generated corpus of one agent holds, as bough should count it. */
export interface AgentCorpusTruth {
  root: string;
  /** Every file written. */
  files: string[];
  bytes: number;
  sessions: number;
  /** What the human typed. */
  prompts: number;
  /** All counted usage, in bough's kinds. */
  tokens: TokenTotals;
}

/** Files are main transcripts and sub-agent files; sessions are main transcripts (sub-agent files folded in); prompts are main threads' (sub-agent task prompts are not the user's); tokens include sub-agents'. */
export interface ClaudeCorpusTruth extends AgentCorpusTruth {
  /** The sub-agents' part of `tokens`. */
  subagents: TokenTotals;
  subagentFiles: number;
}

const PROJECTS = ['/home/dev/code/shop-api', '/Users/ana/work/bough-site', '/home/dev/code/my_app.v2', 'C:\\Users\\ana\\src\\invoice-tool'];
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'claude-opus-4-7'];
const SUBAGENT_MODEL = 'claude-haiku-4-5-20251001';
const VERSION = '2.1.39';
const TASKS = ['Fix the failing test in {f}', 'Why does {f} throw on an empty list?', 'Add validation to {f}', 'Refactor {f} into smaller functions', 'Explain what {f} does'];
const FILES = ['src/cart.ts', 'src/routes/checkout.ts', 'app/main.py', 'README.md', 'test/cart.test.ts'];
const START = Date.UTC(2026, 0, 5);
const SPAN = 150 * 86_400_000;

/** Claude Code's project folder name: every character outside [A-Za-z0-9] becomes `-`. */
export function encodeClaudeCwd(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

export async function generateClaudeCorpus(dir: string, options: AgentCorpusOptions): Promise<ClaudeCorpusTruth> {
  const root = resolve(dir);
  const rng = new Random(`claude-corpus:${options.seed}`);
  const truth: ClaudeCorpusTruth = { root, files: [], bytes: 0, sessions: 0, prompts: 0, tokens: zeroTokens(), subagents: zeroTokens(), subagentFiles: 0 };
  const settings = { turns: options.turns ?? ([2, 6] as const), payloadBytes: options.payloadBytes ?? 300 };
  while (!sizeReached(options.size, truth.sessions, truth.bytes)) {
    const session = generateSession(rng.fork(`session-${truth.sessions}`), settings, truth);
    const folder = join(root, 'projects', encodeClaudeCwd(session.cwd));
    await writeLines(truth, join(folder, `${session.id}.jsonl`), session.lines);
    for (const agent of session.agents) {
      const subagents = join(folder, session.id, 'subagents');
      await writeLines(truth, join(subagents, `agent-${agent.id}.jsonl`), agent.lines);
      await writeFile(join(subagents, `agent-${agent.id}.meta.json`), JSON.stringify({ agentType: 'general-purpose', description: agent.description }));
      truth.subagentFiles++;
    }
    truth.sessions++;
  }
  return truth;
}

export function sizeReached(size: AgentCorpusOptions['size'], sessions: number, bytes: number): boolean {
  return 'sessions' in size ? sessions >= size.sessions : bytes >= size.bytes;
}

async function writeLines(truth: { files: string[]; bytes: number }, path: string, lines: readonly string[]): Promise<void> {
  const text = `${lines.join('\n')}\n`;
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text, { flag: 'wx' });
  truth.files.push(path);
  truth.bytes += Buffer.byteLength(text);
}

/** A tool output of about `bytes` characters, different each time. */
export function payload(rng: Random, bytes: number): string {
  const words = ['ok', 'PASS', 'const', 'return', 'items', 'total', 'error:', 'at', 'line', '✓', 'expected', 'got'];
  const out: string[] = [];
  for (let length = 0; length < bytes; ) {
    const word = rng.pick(words);
    out.push(rng.chance(0.1) ? `${word}\n` : word);
    length += word.length + 1;
  }
  return out.join(' ');
}

// ───────────────────────────── one session ─────────────────────────────

interface Session {
  id: string;
  cwd: string;
  lines: string[];
  agents: { id: string; description: string; lines: string[] }[];
}

interface Thread {
  rng: Random;
  sessionId: string;
  cwd: string;
  lines: string[];
  clock: number;
  parent: string | null;
  /** Present on every line of a sub-agent file. */
  agentId: string | null;
  /** Where this thread's counted usage goes. */
  counts: TokenTotals[];
  /** Cache writes of this session are all one-hour (Claude Code 2.1.x main threads often are). */
  oneHour: boolean;
  context: number;
}

function generateSession(rng: Random, settings: { turns: readonly [number, number]; payloadBytes: number }, truth: ClaudeCorpusTruth): Session {
  const session: Session = { id: rng.uuidV4(), cwd: rng.pick(PROJECTS), lines: [], agents: [] };
  const main: Thread = {
    rng,
    sessionId: session.id,
    cwd: session.cwd,
    lines: session.lines,
    clock: START + Math.floor(rng.next() * SPAN),
    parent: null,
    agentId: null,
    counts: [truth.tokens],
    oneHour: rng.chance(0.5),
    context: rng.int(8_000, 20_000),
  };
  const model = rng.pick(MODELS);
  if (rng.chance(0.3)) main.lines.push(JSON.stringify({ type: 'summary', summary: 'An earlier session', leafUuid: rng.uuidV4() }));
  const turns = rng.int(settings.turns[0], settings.turns[1]);
  for (let turn = 0; turn < turns; turn++) {
    if (rng.chance(0.1)) {
      line(main, 'user', { isMeta: true, message: { role: 'user', content: '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages.</local-command-caveat>' } });
    }
    const file = rng.pick(FILES);
    line(main, 'user', { message: { role: 'user', content: rng.pick(TASKS).replace('{f}', file) } });
    truth.prompts++;
    const requests = rng.int(1, 5);
    for (let r = 0; r < requests; r++) {
      const last = r === requests - 1;
      const spawn = !last && rng.chance(0.08);
      if (spawn) {
        session.agents.push(subagent(main, model, settings.payloadBytes, truth));
        continue;
      }
      const tools = last ? 0 : rng.int(1, 3);
      response(main, model, tools, settings.payloadBytes);
    }
    if (rng.chance(0.08)) {
      // Written by Claude Code itself, not the model: no usage, never a model in the lists.
      line(main, 'assistant', { message: { id: rng.uuidV4(), model: '<synthetic>', role: 'assistant', type: 'message', content: [{ type: 'text', text: 'No response requested.' }], stop_reason: 'stop_sequence', usage: usageObject(0, 0, 0, 0, false) } });
    }
  }
  return session;
}

interface Written {
  uuid: string;
}

/** Appends one record with Claude Code's envelope; returns its uuid. */
function line(thread: Thread, type: string, fields: Record<string, unknown>, options: { parent?: string | null; advance?: boolean } = {}): Written {
  const uuid = thread.rng.uuidV4();
  thread.clock += thread.rng.int(200, 9_000);
  const parentUuid = options.parent === undefined ? thread.parent : options.parent;
  const record = {
    parentUuid,
    isSidechain: thread.agentId !== null,
    userType: 'external',
    cwd: thread.cwd,
    sessionId: thread.sessionId,
    version: VERSION,
    gitBranch: 'main',
    ...(thread.agentId !== null ? { agentId: thread.agentId } : {}),
    type,
    uuid,
    timestamp: new Date(thread.clock).toISOString(),
    ...fields,
  };
  thread.lines.push(JSON.stringify(record));
  if (options.advance !== false) thread.parent = uuid;
  return { uuid };
}

function usageObject(input: number, cacheWrite: number, cacheRead: number, output: number, oneHour: boolean): Record<string, unknown> {
  return {
    input_tokens: input,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: oneHour ? 0 : cacheWrite, ephemeral_1h_input_tokens: oneHour ? cacheWrite : 0 },
    output_tokens: output,
    service_tier: 'standard',
  };
}

interface Request {
  messageId: string;
  requestId: string;
  usage: (output: number) => Record<string, unknown>;
  /** Output of each line, growing; the last is the count that holds. */
  outputs: number[];
}

/** One API response: numbers invented here, counted once in the truth (its largest output). */
function request(thread: Thread, blocks: number): Request {
  const { rng } = thread;
  const input = rng.int(1, 12);
  const cacheWrite = rng.int(100, 4_000);
  const cacheRead = thread.context;
  thread.context += cacheWrite + rng.int(0, 500);
  const final = rng.int(20, 1_500);
  // The message_start placeholder first, then growing counts, the full count on the last line.
  const outputs = Array.from({ length: blocks }, (_, i) => (i === blocks - 1 ? final : Math.min(final - 1, rng.int(1, 8) + i * 3)));
  for (const counts of thread.counts) {
    counts.input += input;
    counts.cacheRead += cacheRead;
    counts.cacheWrite += cacheWrite;
    if (thread.oneHour) counts.cacheWrite1h += cacheWrite;
    counts.output += final;
  }
  return {
    messageId: `msg_01${rng.hex(22)}`,
    requestId: `req_011C${rng.hex(20)}`,
    usage: (output) => usageObject(input, cacheWrite, cacheRead, output, thread.oneHour),
    outputs,
  };
}

function assistantLine(thread: Thread, model: string, req: Request, index: number, block: Record<string, unknown>, stopReason: string | null): Written {
  return line(thread, 'assistant', {
    requestId: req.requestId,
    message: { id: req.messageId, type: 'message', role: 'assistant', model, content: [block], stop_reason: stopReason, stop_sequence: null, usage: req.usage(req.outputs[index] ?? 0) },
  });
}

/**
 * A response of thinking, text and `tools` tool calls, each block its own line; then the tool
 * results. Now and then a result is written right after its call, before the response's next
 * line (so one response's lines are spread among its results).
 */
function response(thread: Thread, model: string, tools: number, payloadBytes: number): void {
  const { rng } = thread;
  const thinking = rng.chance(0.4);
  const blocks = (thinking ? 1 : 0) + 1 + tools;
  const req = request(thread, blocks);
  // Recording bug of 2.1.38/39: no line of the response has a stop reason.
  const stopWritten = rng.chance(0.8);
  let index = 0;
  const stop = () => (index === blocks - 1 && stopWritten ? (tools > 0 ? 'tool_use' : 'end_turn') : null);
  if (thinking) {
    assistantLine(thread, model, req, index, { type: 'thinking', thinking: rng.chance(0.5) ? '' : 'Let me look at the file first.', signature: rng.hex(40) }, stop());
    index++;
  }
  assistantLine(thread, model, req, index, { type: 'text', text: tools > 0 ? 'Let me check.' : `Done: ${payload(rng, 60)}` }, stop());
  index++;
  const pending: { id: string; call: string }[] = [];
  for (let t = 0; t < tools; t++) {
    const id = `toolu_01${rng.hex(22)}`;
    const name = rng.pick(['Read', 'Bash', 'Edit', 'Grep']);
    const call = assistantLine(thread, model, req, index, { type: 'tool_use', id, name, input: name === 'Bash' ? { command: 'npm test', description: 'Run tests' } : { file_path: `${thread.cwd}/${rng.pick(FILES)}` } }, stop());
    index++;
    pending.push({ id, call: call.uuid });
    if (rng.chance(0.25)) toolResult(thread, pending.splice(0), payloadBytes);
  }
  if (rng.chance(0.3) && thread.agentId === null) {
    line(thread, 'progress', { data: { type: 'hook_progress', hookEvent: 'PostToolUse', hookName: 'PostToolUse:Bash', command: 'echo ok' }, toolUseID: pending[0]?.id ?? 'none' });
  }
  toolResult(thread, pending, payloadBytes);
}

function toolResult(thread: Thread, calls: readonly { id: string; call: string }[], payloadBytes: number): void {
  for (const { id, call } of calls) {
    const output = payload(thread.rng, payloadBytes);
    line(thread, 'user', {
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: false }] },
      toolUseResult: { stdout: output, stderr: '', interrupted: false },
      sourceToolAssistantUUID: call,
    });
  }
}

/**
 * A Task call in the main thread and the sub-agent's own file. While it runs, the main file gets
 * agent_progress copies of the sub-agent's usage, and the Task result a summary of its last
 * request: neither may be counted.
 */
function subagent(main: Thread, model: string, payloadBytes: number, truth: ClaudeCorpusTruth): { id: string; description: string; lines: string[] } {
  const { rng } = main;
  const agentId = rng.hex(rng.int(8, 17));
  const description = `Search for callers of ${rng.pick(FILES)}`;
  const req = request(main, 2);
  const toolUseId = `toolu_01${rng.hex(22)}`;
  assistantLine(main, model, req, 0, { type: 'text', text: 'I will ask an agent.' }, null);
  const call = assistantLine(main, model, req, 1, { type: 'tool_use', id: toolUseId, name: 'Task', input: { description, prompt: description, subagent_type: 'general-purpose' } }, 'tool_use');

  const agent: Thread = {
    rng: rng.fork(`agent-${agentId}`),
    sessionId: main.sessionId,
    cwd: main.cwd,
    lines: [],
    clock: main.clock,
    parent: null,
    agentId,
    counts: [truth.tokens, truth.subagents],
    oneHour: false,
    context: rng.int(3_000, 9_000),
  };
  line(agent, 'user', { message: { role: 'user', content: description } });
  const requests = rng.int(1, 4);
  let lastUsage: Record<string, unknown> = {};
  for (let r = 0; r < requests; r++) {
    const tools = r === requests - 1 ? 0 : 1;
    const before = agent.lines.length;
    response(agent, SUBAGENT_MODEL, tools, payloadBytes);
    // The main thread shows the agent's progress with copies of its messages, usage and all.
    for (const copied of agent.lines.slice(before)) {
      const record = JSON.parse(copied) as { type: string; requestId?: string; message?: { usage?: Record<string, unknown> } };
      if (record.type !== 'assistant') continue;
      lastUsage = record.message?.usage ?? lastUsage;
      line(main, 'progress', { data: { type: 'agent_progress', agentId, message: { type: 'assistant', message: record.message, requestId: record.requestId } }, toolUseID: toolUseId, parentToolUseID: toolUseId });
    }
  }
  main.clock = Math.max(main.clock, agent.clock);
  const answer = `Found 2 callers. agentId: ${agentId}`;
  line(main, 'user', {
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: [{ type: 'text', text: answer }] }] },
    toolUseResult: { status: 'completed', agentId, prompt: description, content: [{ type: 'text', text: answer }], totalDurationMs: 12_000, totalTokens: 12_345, totalToolUseCount: requests - 1, usage: lastUsage },
    sourceToolAssistantUUID: call.uuid,
  });
  return { id: agentId, description, lines: agent.lines };
}

/** Field-wise sum, for callers adding truths of several corpora. */
export function addTokens(into: TokenTotals, from: TokenTotals): void {
  for (const kind of TOKEN_KINDS) into[kind] += from[kind];
}
