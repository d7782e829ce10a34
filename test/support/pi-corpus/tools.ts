// Tool calls and their results as Pi stores them (formats/pi.md §6, §15): read, bash, edit, write,
// grep, the subagent extension, codemode with nested calls, and an extension tool that spends tokens.

import { MODELS, usageRecord, type ModelSpec } from './models.js';
import type { SessionDraft } from './session.js';
import { subagentTool } from './subagents.js';
import { codeText, TINY_PNG, type Project } from './text.js';
import { emptyTally, spendTally, subagentTally, type Tally } from './truth.js';

export type ToolName = 'read' | 'bash' | 'edit' | 'write' | 'grep' | 'subagent' | 'codemode' | 'summarize_url';

export interface ToolRun {
  call: { type: 'toolCall'; id: string; name: ToolName; arguments: Record<string, unknown> };
  /** The toolResult message without its timestamp. */
  result: Record<string, unknown>;
  /** Usage carried by the result: its own `usage` and sub-agent spend. */
  tally: Tally;
  /** Characters of result text, for context growth. */
  size: number;
}

export function availableTools(d: SessionDraft): (readonly [ToolName, number])[] {
  const f = d.features;
  return [
    ['read', 8],
    ['bash', 6],
    ['edit', 5],
    ['write', 2],
    ['grep', 2],
    ['subagent', f.version === 3 ? 2 : 0],
    ['codemode', f.nestedCalls ? 1 : 0],
    ['summarize_url', f.extraUsage ? 1 : 0],
  ];
}

export function runTool(d: SessionDraft, project: Project, name: ToolName, payloadBytes: number): ToolRun {
  const id = d.model.provider === 'anthropic' ? `toolu_01${d.rng.hex(22)}` : `call_${d.rng.hex(24)}`;
  const made = TOOL_BUILDERS[name](d, project, payloadBytes);
  d.note(`tool-${name}`);
  const result: Record<string, unknown> = { role: 'toolResult', toolCallId: id, toolName: name, content: made.content };
  if (made.details !== undefined) result['details'] = made.details;
  if (made.usage) result['usage'] = made.usage;
  if (made.nestedCalls) result['nestedCalls'] = made.nestedCalls;
  result['isError'] = made.isError ?? false;
  const size = made.content.reduce((n, block) => n + (typeof block['text'] === 'string' ? block['text'].length : 1000), 0);
  return { call: { type: 'toolCall', id, name, arguments: made.arguments }, result, tally: made.tally ?? emptyTally(), size };
}

interface MadeTool {
  arguments: Record<string, unknown>;
  content: Record<string, unknown>[];
  details?: unknown;
  isError?: boolean;
  usage?: Record<string, unknown>;
  nestedCalls?: Record<string, unknown>;
  tally?: Tally;
}

type ToolBuilder = (d: SessionDraft, project: Project, payloadBytes: number) => MadeTool;

const text = (t: string) => ({ type: 'text', text: t });

const TOOL_BUILDERS: Record<ToolName, ToolBuilder> = {
  read(d, project, payloadBytes) {
    if (d.rng.chance(0.06)) {
      return { arguments: { path: 'docs/screenshot.png' }, content: [text('Read image file [image/png]'), { type: 'image', data: TINY_PNG, mimeType: 'image/png' }] };
    }
    const path = d.rng.pick(project.files);
    if (d.rng.chance(0.05)) {
      return { arguments: { path: `${path}.bak` }, content: [text(`ENOENT: no such file or directory, access '${path}.bak'`)], details: {}, isError: true };
    }
    const args = d.rng.chance(0.3) ? { path, offset: d.rng.int(1, 200), limit: 120 } : { path };
    return { arguments: args, content: [text(codeText(d.rng, payloadBytes))] };
  },

  bash(d, _project, payloadBytes) {
    const command = d.rng.pick(['npm test', 'git status --short', 'ls -la src', 'pytest -q', 'rg TODO', 'cargo build']);
    const output = codeText(d.rng, Math.max(40, Math.floor(payloadBytes / 2)));
    const roll = d.rng.next();
    if (roll < 0.12) {
      return { arguments: { command }, content: [text(`${output}\n\nCommand exited with code 1`)], isError: true };
    }
    if (roll < 0.18) {
      const truncation = { truncated: true, truncatedBy: 'lines', totalLines: 5400, totalBytes: 260_000, outputLines: 2000, outputBytes: 51_200, maxLines: 2000, maxBytes: 51_200 };
      return { arguments: { command, timeout: 120 }, content: [text(output)], details: { truncation, fullOutputPath: `/tmp/pi-bash-${d.rng.hex(8)}.log` } };
    }
    return { arguments: { command }, content: [text(output)] };
  },

  edit(d, project) {
    const path = d.rng.pick(project.files);
    const oldText = 'return items.reduce((sum, item) => sum + item.price, 0);';
    const newText = 'return items.reduce((sum, item) => sum + item.price * item.quantity, 0);';
    const line = d.rng.int(3, 300);
    const diff = `  ${line - 1} export function total(items: Item[]): number {\n-${line} ${oldText}\n+${line} ${newText}\n  ${line + 1} }`;
    if (!d.features.editsArray) {
      return { arguments: { path, oldText, newText }, content: [text(`Successfully replaced text in ${path}.`)], details: { diff, firstChangedLine: line } };
    }
    if (d.rng.chance(0.05)) {
      // Models sometimes send `edits` as a JSON string; Pi reports the problem as an error result.
      return { arguments: { path, edits: JSON.stringify([{ oldText }]) }, content: [text('Validation failed: edits[0].newText is required')], isError: true };
    }
    const edits = d.rng.chance(0.4) ? [{ oldText, newText }, { oldText: '// TODO', newText: '// done' }] : [{ oldText, newText }];
    const details: Record<string, unknown> = { diff };
    if (d.features.editPatch) details['patch'] = unifiedPatch(path, line, oldText, newText);
    details['firstChangedLine'] = line;
    return { arguments: { path, edits }, content: [text(`Successfully replaced ${edits.length} block(s) in ${path}.`)], details };
  },

  write(d, project, payloadBytes) {
    const path = d.rng.pick(project.files).replace(/(\.\w+)$/, `.new$1`);
    const content = codeText(d.rng, Math.max(60, Math.floor(payloadBytes / 2)));
    return { arguments: { path, content }, content: [text(`Successfully wrote ${Buffer.byteLength(content)} bytes to ${path}`)] };
  },

  grep(d, project) {
    const hits = project.files.slice(0, 3).map((f, i) => `${f}:${10 + i}: // TODO: handle the empty case`);
    const details = d.rng.chance(0.3) ? { matchLimitReached: 100 } : undefined;
    return { arguments: { pattern: 'TODO', path: '.', limit: 100 }, content: [text(hits.join('\n'))], ...(details ? { details } : {}) };
  },

  subagent(d) {
    const run = subagentTool(d);
    return { arguments: run.arguments, content: [text(run.summary)], details: run.details, tally: subagentTally(run.spend) };
  },

  codemode(d, project) {
    // Model work done inside the tool: recorded as toolResult.usage (0.81+), counted by Pi.
    const usage = usageRecord(d.rng, toolModel(d, MODELS.haiku), { seen: 0, fresh: d.rng.int(800, 4000), output: d.rng.int(50, 400) }, d.features);
    d.note('tool-result-usage');
    const path = d.rng.pick(project.files);
    const calls = [
      { id: `nc_${d.rng.hex(6)}`, name: 'read', arguments: { path }, status: 'ok', durationMs: d.rng.int(2, 40) },
      { id: `nc_${d.rng.hex(6)}`, name: 'grep', arguments: { pattern: 'total' }, status: d.rng.chance(0.2) ? 'error' : 'ok', durationMs: d.rng.int(2, 90) },
    ];
    return {
      arguments: { code: `const src = await read({ path: ${JSON.stringify(path)} });\nreturn grep({ pattern: 'total' });` },
      content: [text('2 matches')],
      usage: usage.json,
      nestedCalls: { calls, complete: true },
      tally: spendTally(usage.spend),
    };
  },

  summarize_url(d) {
    const usage = usageRecord(d.rng, toolModel(d, MODELS.gpt5mini), { seen: 0, fresh: d.rng.int(2000, 12_000), output: d.rng.int(100, 600) }, d.features);
    d.note('tool-result-usage');
    return {
      arguments: { url: 'https://example.com/changelog' },
      content: [text('The changelog lists three breaking changes in 4.0: …')],
      usage: usage.json,
      tally: spendTally(usage.spend),
    };
  },
};

/**
 * The model a tool's own usage was billed at. Pi's record names none (bough leaves it unpriced);
 * a corpus meant to be priced exactly (LiteLLM catalog) bills it as the model in use.
 */
function toolModel(d: SessionDraft, elsewhere: ModelSpec): ModelSpec {
  return d.features.catalog === 'litellm' ? d.model : elsewhere;
}

function unifiedPatch(path: string, line: number, oldText: string, newText: string): string {
  return [
    `--- ${path}`,
    `+++ ${path}`,
    `@@ -${line - 1},3 +${line - 1},3 @@`,
    ' export function total(items: Item[]): number {',
    `-  ${oldText}`,
    `+  ${newText}`,
    ' }',
    '',
  ].join('\n');
}
