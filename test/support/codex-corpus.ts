// A deterministic generator of Codex rollouts (formats/codex.md) that returns the ground truth of
// what bough must count, written down while the numbers are invented.
//
//   const truth = await generateCodexCorpus(root, { seed: 7, size: { sessions: 5 } });
//
// Files go to `<root>/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`. Usage is written as Codex
// does: cumulative `token_count` events, a null-info one first, re-emits of the same totals after
// the next turn_context, and now and then a compaction sentinel (last usage zero, totals unchanged).

import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { payload, sizeReached, type AgentCorpusOptions, type AgentCorpusTruth } from './claude-corpus.js';
import { Random } from './pi-corpus/random.js';
import { zeroTokens } from './pi-corpus/truth.js';

/** Prompts are `event_msg user_message` events (role:user items are not all typed); in tokens, input is the non-cached part, cacheRead the cached one, reasoning part of output. */
export type CodexCorpusTruth = AgentCorpusTruth;

const PROJECTS = ['/home/dev/code/shop-api', '/Users/ana/work/bough-site', '/work/demo'];
const MODELS = ['gpt-5.2-codex', 'gpt-5.1-codex-mini', 'gpt-5.3-codex'];
const TASKS = ['Fix the failing test', 'Add a --dry-run flag', 'Why is the build slow?', 'Rename the cart helper', 'Write tests for the parser'];
const START = Date.UTC(2026, 0, 5);
const SPAN = 150 * 86_400_000;
const CONTEXT_WINDOW = 258_400;

export async function generateCodexCorpus(dir: string, options: AgentCorpusOptions): Promise<CodexCorpusTruth> {
  const root = resolve(dir);
  const rng = new Random(`codex-corpus:${options.seed}`);
  const truth: CodexCorpusTruth = { root, files: [], bytes: 0, sessions: 0, prompts: 0, tokens: zeroTokens() };
  const settings = { turns: options.turns ?? ([2, 6] as const), payloadBytes: options.payloadBytes ?? 300 };
  while (!sizeReached(options.size, truth.sessions, truth.bytes)) {
    const rollout = generateRollout(rng.fork(`session-${truth.sessions}`), settings, truth);
    const path = join(root, 'sessions', rollout.folder, rollout.name);
    const text = `${rollout.lines.join('\n')}\n`;
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, text, { flag: 'wx' });
    truth.files.push(path);
    truth.bytes += Buffer.byteLength(text);
    truth.sessions++;
  }
  return truth;
}

interface Usage {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
}

interface Rollout {
  rng: Random;
  lines: string[];
  clock: number;
  /** Cumulative usage of the thread, as the last token_count said. */
  total: Usage;
  context: number;
}

function emptyUsage(): Usage {
  return { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
}

function emit(rollout: Rollout, type: string, payload: Record<string, unknown>): void {
  rollout.clock += rollout.rng.int(100, 6_000);
  rollout.lines.push(JSON.stringify({ timestamp: new Date(rollout.clock).toISOString(), type, payload }));
}

function generateRollout(rng: Random, settings: { turns: readonly [number, number]; payloadBytes: number }, truth: CodexCorpusTruth): { folder: string; name: string; lines: string[] } {
  const started = START + Math.floor(rng.next() * SPAN);
  const id = rng.uuidV7(started);
  const cwd = rng.pick(PROJECTS);
  const rollout: Rollout = { rng, lines: [], clock: started, total: emptyUsage(), context: rng.int(6_000, 15_000) };
  emit(rollout, 'session_meta', { id, timestamp: new Date(started).toISOString(), cwd, originator: 'codex-tui', cli_version: '0.125.0', source: 'cli', model_provider: 'openai', git: { branch: 'main' } });
  // Codex-tui writes one turn_context per turn; Desktop one per request (then usage is re-emitted after it).
  const desktop = rng.chance(0.5);
  let model = rng.pick(MODELS);
  const turns = rng.int(settings.turns[0], settings.turns[1]);
  for (let turn = 0; turn < turns; turn++) {
    const turnId = rng.uuidV7(rollout.clock);
    if (rng.chance(0.2)) model = rng.pick(MODELS); // `/model` between turns
    emit(rollout, 'event_msg', { type: 'task_started', turn_id: turnId, model_context_window: CONTEXT_WINDOW });
    emit(rollout, 'turn_context', { turn_id: turnId, cwd, model, effort: 'medium', approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write' } });
    if (turn === 0) {
      emit(rollout, 'response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>\nworkspace-write\n</permissions instructions>' }] });
      emit(rollout, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `# AGENTS.md instructions for ${cwd}\n\n<INSTRUCTIONS>\nBe brief.\n</INSTRUCTIONS>` }] });
    }
    const prompt = `${rng.pick(TASKS)} (${turn + 1})`;
    emit(rollout, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] });
    emit(rollout, 'event_msg', { type: 'user_message', message: prompt, images: [], local_images: [] });
    truth.prompts++;
    if (turn === 0) emit(rollout, 'event_msg', { type: 'token_count', info: null, rate_limits: { primary: { used_percent: 10.0, window_minutes: 300 } } });
    const requests = rng.int(1, 5);
    for (let r = 0; r < requests; r++) {
      const last = r === requests - 1;
      if (r > 0 && desktop) {
        emit(rollout, 'turn_context', { turn_id: turnId, cwd, model, effort: 'medium', approval_policy: 'on-request' });
        if (rng.chance(0.7)) tokenCount(rollout, rollout.total, rollout.total); // re-emit: same totals again
      }
      emit(rollout, 'response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Looking at the code**' }], content: null, encrypted_content: `gAAAAAB${rng.hex(120)}` });
      emit(rollout, 'event_msg', { type: 'agent_reasoning', text: '**Looking at the code**' });
      if (last) {
        const answer = `Done: ${payload(rng, 80)}`;
        emit(rollout, 'event_msg', { type: 'agent_message', message: answer, phase: 'final_answer' });
        emit(rollout, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }], phase: 'final_answer' });
        sample(rollout, truth);
      } else {
        const callId = `call_${rng.hex(24)}`;
        emit(rollout, 'response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'npm test', workdir: cwd }), call_id: callId });
        sample(rollout, truth);
        emit(rollout, 'response_item', { type: 'function_call_output', call_id: callId, output: `Chunk ID: ${r}\nProcess exited with code 0\nOutput:\n${payload(rng, settings.payloadBytes)}` });
      }
    }
    if (rng.chance(0.1)) compaction(rollout);
    emit(rollout, 'event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: 'Done.' });
  }
  const stamp = new Date(started).toISOString();
  const folder = `${stamp.slice(0, 4)}/${stamp.slice(5, 7)}/${stamp.slice(8, 10)}`;
  return { folder, name: `rollout-${stamp.slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`, lines: rollout.lines };
}

/** One sampling request: its usage invented, added to the truth, and written as a cumulative token_count. */
function sample(rollout: Rollout, truth: CodexCorpusTruth): void {
  const { rng } = rollout;
  const input = rollout.context + rng.int(100, 3_000);
  const cached = Math.min(input, Math.floor(rollout.context * (0.5 + rng.next() * 0.5)));
  rollout.context = input;
  const output = rng.int(10, 2_000);
  const reasoning = rng.int(0, output);
  const last: Usage = { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output };
  const t = rollout.total;
  rollout.total = {
    input_tokens: t.input_tokens + input,
    cached_input_tokens: t.cached_input_tokens + cached,
    output_tokens: t.output_tokens + output,
    reasoning_output_tokens: t.reasoning_output_tokens + reasoning,
    total_tokens: t.total_tokens + input + output,
  };
  truth.tokens.input += input - cached;
  truth.tokens.cacheRead += cached;
  truth.tokens.output += output;
  truth.tokens.reasoning += reasoning;
  tokenCount(rollout, rollout.total, last);
}

function tokenCount(rollout: Rollout, total: Usage, last: Usage): void {
  emit(rollout, 'event_msg', {
    type: 'token_count',
    info: { total_token_usage: total, last_token_usage: last, model_context_window: CONTEXT_WINDOW },
    rate_limits: { primary: { used_percent: 20.0, window_minutes: 300 }, plan_type: null },
  });
}

/** Remote compaction: a sentinel token_count (last usage zero, totals unchanged), the checkpoint, a smaller context. */
function compaction(rollout: Rollout): void {
  tokenCount(rollout, rollout.total, { ...emptyUsage(), total_tokens: 940_499 });
  emit(rollout, 'compacted', { message: '', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Summary of the work so far.' }] }] });
  emit(rollout, 'event_msg', { type: 'context_compacted' });
  rollout.context = rollout.rng.int(20_000, 50_000);
}
