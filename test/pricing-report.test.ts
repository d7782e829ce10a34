import { createServer, type Server } from 'node:http';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import { main, type CliIo } from '../src/cli.js';
import type { Summary } from '../src/report/schema.js';
import { localProvidersIn } from '../src/sources/codex/config.js';
import { ALL_UTC, FIXTURES, piFixture, tempDir } from './support/fixtures.js';

async function buildOf(inputs: string[], env: Record<string, string> = {}, pricesFile: string | null = null) {
  const out = join(await tempDir(), 'report');
  const result = await build({
    inputs,
    out,
    pricesFile,
    scope: ALL_UTC,
    environment: { env, home: await tempDir() },
    now: new Date('2026-11-30T12:00:00Z'),
  });
  return { out, summary: result.summary, warnings: result.warnings };
}

describe('prices in the report', () => {
  let out: string;
  let summary: Summary;
  beforeAll(async () => ({ out, summary } = await buildOf([piFixture('pricing.jsonl')])));

  it('prices every record itself: tiers, one-hour writes, free and fallback models', () => {
    const session = summary.sessions[0];
    expect(session?.cost.bough).toBeCloseTo(0.99975, 10);
    expect(session?.cost.recorded).toBeCloseTo(1.01975, 10);
  });

  it('lists a model no table knows as unpriced, and compares nothing with an unknown cost', () => {
    expect(summary.totals.unpricedModels).toEqual(['anthropic/claude-fable-9']);
    expect(summary.sessions[0]?.costCheck).toEqual({ differs: false, incomplete: true, reason: 'unpriced model', difference: null, unrecordedRecords: 0, differingRecords: 0 });
  });

  // Regression: one unpriced reply made the page say nothing of a $0.20 difference on the replies bough priced.
  it('still compares the records it priced in a session with an unpriced model', async () => {
    const dir = await tempDir();
    const at = (s: number) => `2026-10-05T10:00:0${s}.000Z`;
    const reply = (id: string, parentId: string, model: string, input: number, total: number) => ({
      type: 'message',
      id,
      parentId,
      timestamp: at(Number(id.slice(1))),
      message: { role: 'assistant', provider: 'anthropic', model, content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', usage: { input, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: input, cost: { total } } },
    });
    const lines = [
      { type: 'session', version: 3, id: 'm1', timestamp: at(0), cwd: '/home/u/projM' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'p1' } },
      reply('a2', 'u1', 'claude-sonnet-4-5', 100_000, 0.5),
      { type: 'message', id: 'u3', parentId: 'a2', timestamp: at(3), message: { role: 'user', content: 'p2' } },
      reply('a4', 'u3', 'claude-nonexistent-9', 10, 0.00003),
    ];
    await writeFile(join(dir, 'm1.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const built = await buildOf([dir]);
    expect(built.summary.sessions[0]?.costCheck).toMatchObject({ differs: true, incomplete: true, differingRecords: 1, difference: null });
    const page = await readFile(join(built.out, built.summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('Of the records it priced, 1 usage record differs from its recorded cost by more than 1%. Likely reason: different catalog.');
  });

  // Regression: a reply a relay answered under its own id (responseModel, pi.md §9), which the
  // table does not know, was unpriced though the model asked for has a price, as Pi prices it.
  it('prices a reply answered under an id the table does not know as the model asked for, and says so', async () => {
    const dir = await tempDir();
    const at = (s: number) => `2026-10-21T10:00:0${s}.000Z`;
    const relay = (id: string, parentId: string, responseModel: string) => ({
      type: 'message',
      id,
      parentId,
      timestamp: at(Number(id.slice(1))),
      message: { role: 'assistant', api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', responseModel, content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100, cost: { total: 0.0045 } } },
    });
    const lines = [
      { type: 'session', version: 3, id: 'relay', timestamp: at(0), cwd: '/home/u/relay' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'hi' } },
      relay('a2', 'u1', 'claude-sonnet-4-5-relay'),
      { type: 'message', id: 'u3', parentId: 'a2', timestamp: at(3), message: { role: 'user', content: 'again' } },
      // A fallback the table knows is still priced as the model that answered.
      relay('a4', 'u3', 'claude-opus-4-5'),
    ];
    await writeFile(join(dir, 'relay.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const built = await buildOf([dir]);
    // Sonnet 4.5: 1,000 × $3/M + 100 × $15/M; Opus 4.5: 1,000 × $5/M + 100 × $25/M.
    expect(built.summary.totals.unpricedModels).toEqual([]);
    expect(built.summary.totals.cost.bough).toBeCloseTo(0.0045 + 0.0075, 10);
    const csv = await readFile(join(built.out, 'usage.csv'), 'utf8');
    expect(csv).toContain(",anthropic,claude-sonnet-4-5-relay,claude-sonnet-4-5,priced,");
    const page = await readFile(join(built.out, built.summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('priced as claude-sonnet-4-5, the model asked for: the table does not know claude-sonnet-4-5-relay, which answered');
  });

  // Regression (an outside review of prices): a compaction's usage, which names no model, was
  // priced as the model in use without a word of it on the page.
  it('says a summary was priced as the model in use, where its cost is shown', async () => {
    const dir = await tempDir();
    const at = (s: number) => `2026-10-23T10:00:0${s}.000Z`;
    const lines = [
      { type: 'session', version: 3, id: 'summ', timestamp: at(0), cwd: '/home/u/summ' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'go' } },
      { type: 'message', id: 'a2', parentId: 'u1', timestamp: at(2), message: { role: 'assistant', provider: 'openai', model: 'gpt-5', content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100 } } },
      { type: 'compaction', id: 'c3', parentId: 'a2', timestamp: at(3), summary: 'They said go.', firstKeptEntryId: 'a2', tokensBefore: 5000, usage: { input: 5000, output: 500, cacheRead: 0, cacheWrite: 0, totalTokens: 5500 } },
    ];
    await writeFile(join(dir, 'summ.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const built = await buildOf([dir]);
    // gpt-5: 5,000 × $1.25/M + 500 × $10/M for the summary.
    expect(built.summary.totals.cost.bough).toBeCloseTo(0.00225 + 0.01125, 10);
    const page = await readFile(join(built.out, built.summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('summariser: in 5,000 · out 500 · cache read 0 · cache write 0 · $0.0113 bough · priced as gpt-5, the model in use');
  });

  // Regression (an outside review of prices): a provider Pi's models.json or Codex's config.toml
  // points at this machine was $0 whatever it served; a LiteLLM proxy there in front of OpenAI bills.
  it('prices gpt-5 through a proxy at this machine\'s address as gpt-5, and a model run there at $0', async () => {
    const home = await tempDir();
    const at = (s: number) => `2026-10-24T10:00:0${s}.000Z`;
    const reply = (id: string, parentId: string, provider: string, model: string) => ({ type: 'message', id, parentId, timestamp: at(Number(id.slice(1))), message: { role: 'assistant', provider, model, content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', usage: { input: 100_000, output: 10_000, cacheRead: 0, cacheWrite: 0, totalTokens: 110_000 } } });
    const lines = [
      { type: 'session', version: 3, id: 'proxy', timestamp: at(0), cwd: '/home/u/proxy' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'go' } },
      reply('a2', 'u1', 'openai', 'gpt-5'),
      reply('a3', 'a2', 'my-llama', 'qwen3-coder:30b'),
    ];
    const agent = join(home, 'agent');
    await mkdir(agent, { recursive: true });
    await writeFile(join(agent, 'models.json'), JSON.stringify({ providers: { openai: { baseUrl: 'http://localhost:4000/v1' }, 'my-llama': { baseUrl: 'http://127.0.0.1:11434/v1' } } }));
    await writeFile(join(home, 'proxy.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const built = await buildOf([join(home, 'proxy.jsonl')], { PI_CODING_AGENT_DIR: agent });
    // gpt-5: 100,000 × $1.25/M + 10,000 × $10/M; the local model $0.
    expect(built.summary.totals.cost.bough).toBeCloseTo(0.225, 10);
    expect(built.summary.totals.models.map((m) => [m.model, m.priceState, m.priceKey])).toEqual(expect.arrayContaining([['gpt-5', 'priced', 'gpt-5'], ['qwen3-coder:30b', 'local', 'my-llama/qwen3-coder:30b']]));
  });

  // Regression (an outside review of Codex's format): a Codex home given as an input had its
  // config.toml left unread: a provider it points at this machine was unpriced, $0 only with
  // CODEX_HOME set to it.
  it('reads the config.toml of a Codex home given as an input', async () => {
    const home = join(await tempDir(), 'copied-codex-home');
    const day = join(home, 'sessions', '2026', '07', '16');
    await mkdir(day, { recursive: true });
    await writeFile(join(home, 'config.toml'), '[model_providers.mylocal]\nname = "Ollama"\nbase_url = "http://localhost:11434/v1"\n');
    const counts = { input_tokens: 80_000, cached_input_tokens: 0, output_tokens: 1000, reasoning_output_tokens: 0, total_tokens: 81_000 };
    const lines = [
      { timestamp: '2026-07-16T09:00:00.000Z', type: 'session_meta', payload: { id: '0198aaaa-0000-7000-8000-0000000000c1', timestamp: '2026-07-16T09:00:00.000Z', cwd: '/home/ana/local', originator: 'codex_cli_rs', cli_version: '0.60.0', model_provider: 'mylocal' } },
      { timestamp: '2026-07-16T09:00:01.000Z', type: 'turn_context', payload: { cwd: '/home/ana/local', model: 'qwen3-coder:30b' } },
      { timestamp: '2026-07-16T09:00:02.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'go' } },
      { timestamp: '2026-07-16T09:00:03.000Z', type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: counts, last_token_usage: counts } } },
    ];
    await writeFile(join(day, 'rollout-2026-07-16T09-00-00-0198aaaa-0000-7000-8000-0000000000c1.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    for (const input of [home, join(home, 'sessions')]) {
      const { summary } = await buildOf([input]);
      expect(summary.totals.models.map((m) => [m.model, m.priceState])).toEqual([['qwen3-coder:30b', 'local']]);
      expect(summary.totals.cost.bough).toBe(0);
    }
  });

  // Regression (a review that ran Codex against a mock): one home's provider pointed at this
  // machine made every other home's sessions of that provider's name $0, though their own
  // config.toml pointed it at a paid server (two homes built together, or CODEX_HOME and a copied one).
  it('takes each Codex home’s config.toml for its own rollouts only', async () => {
    const root = await tempDir();
    const homeOf = async (name: string, baseUrl: string, rollout: boolean) => {
      const home = join(root, name, '.codex');
      const day = join(home, 'sessions', '2026', '07', '16');
      await mkdir(day, { recursive: true });
      await writeFile(join(home, 'config.toml'), `model_provider = "mock"\n\n[model_providers.mock]\nname = "Mock"\nbase_url = "${baseUrl}"\nwire_api = "responses"\n`);
      if (!rollout) return home;
      const counts = { input_tokens: 80_000, cached_input_tokens: 0, output_tokens: 1000, reasoning_output_tokens: 0, total_tokens: 81_000 };
      const id = name === 'paid' ? '0198aaaa-0000-7000-8000-0000000000d1' : '0198aaaa-0000-7000-8000-0000000000d2';
      const lines = [
        { timestamp: '2026-07-16T09:00:00.000Z', type: 'session_meta', payload: { id, timestamp: '2026-07-16T09:00:00.000Z', cwd: `/home/ana/${name}`, originator: 'codex_exec', cli_version: '0.171.0', model_provider: 'mock' } },
        { timestamp: '2026-07-16T09:00:01.000Z', type: 'turn_context', payload: { cwd: `/home/ana/${name}`, model: 'gpt-5' } },
        { timestamp: '2026-07-16T09:00:02.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'go' } },
        { timestamp: '2026-07-16T09:00:03.000Z', type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: counts, last_token_usage: counts } } },
      ];
      await writeFile(join(day, `rollout-2026-07-16T09-00-00-${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      return home;
    };
    const paid = await homeOf('paid', 'https://gateway.example.com/v1', true);
    const local = await homeOf('local', 'http://127.0.0.2:18777/v1', false);
    // gpt-5: 80,000 × $1.25/M + 1,000 × $10/M.
    const gpt5 = 0.11;
    for (const [inputs, env] of [[[paid], {}], [[paid, local], {}], [[paid], { CODEX_HOME: local }]] as const) {
      const { summary } = await buildOf([...inputs], { ...env });
      expect(summary.totals.cost.bough, `${inputs.join(' ')} ${JSON.stringify(env)}`).toBeCloseTo(gpt5, 10);
    }
    // Its own rollouts, and one given alone in no home, by this machine's: run locally, $0.
    await homeOf('local', 'http://127.0.0.2:18777/v1', true);
    const both = await buildOf([paid, local]);
    expect(both.summary.totals.cost.bough).toBeCloseTo(gpt5, 10);
    expect(both.summary.totals.models.map((m) => m.priceState).sort()).toEqual(['local', 'priced']);
    // Two rows of `stats --by model`, told apart by key and label.
    let stdout = '';
    const io: CliIo = { stdout: (t) => (stdout += t), stderr: () => {}, env: { BOUGH_CACHE_DIR: await tempDir() }, home: await tempDir(), isTty: false, now: () => new Date('2026-11-30T12:00:00Z') };
    expect(await main(['stats', paid, local, '--by', 'model', '--json', '--tz', 'UTC'], io)).toBe(0);
    const rows = (JSON.parse(stdout) as { rows: { key: string; label: string }[] }).rows;
    expect(rows.map((r) => `${r.key} = ${r.label}`).sort()).toEqual(['mock/gpt-5 = mock/gpt-5', 'mock/gpt-5+local = mock/gpt-5 (run locally)']);
    const loose = join(root, 'loose.jsonl');
    await cp(join(local, 'sessions', '2026', '07', '16', 'rollout-2026-07-16T09-00-00-0198aaaa-0000-7000-8000-0000000000d2.jsonl'), loose);
    expect((await buildOf([loose], { CODEX_HOME: local })).summary.totals.cost.bough).toBe(0);
    expect((await buildOf([loose])).summary.totals.cost.bough).toBeCloseTo(gpt5, 10);
    // A hostile look at that fix: homes inside the folder given (backups of several machines), and
    // one reached through a link to its sessions folder, were priced by this machine's.
    expect((await buildOf([root], { CODEX_HOME: local })).summary.totals.cost.bough).toBeCloseTo(gpt5, 10);
    const link = join(await tempDir(), 'linked-sessions');
    await symlink(join(local, 'sessions'), link);
    expect((await buildOf([link])).summary.totals.cost.bough).toBe(0);
    // …nor a link named `sessions` in a folder of links (its real path's home is the rollout's).
    const links = join(await tempDir(), 'links');
    await mkdir(links);
    await symlink(join(paid, 'sessions'), join(links, 'sessions'));
    expect((await buildOf([links], { CODEX_HOME: local })).summary.totals.cost.bough).toBeCloseTo(gpt5, 10);
    // A config.toml that cannot be read says nothing of what runs locally: not this machine's.
    await rm(join(paid, 'config.toml'));
    await mkdir(join(paid, 'config.toml'));
    expect((await buildOf([paid], { CODEX_HOME: local })).summary.totals.cost.bough).toBeCloseTo(gpt5, 10);
  });

  // A hostile look at that fix: a build that redacts holds its ledgers' paths redacted (`~/…`),
  // and found no home for them: a copied home under the user's home took this machine's.
  it('takes a Codex home’s config.toml for its own rollouts in a report that redacts', async () => {
    const userHome = await tempDir();
    const home = join(userHome, 'copies', 'laptop', '.codex');
    const day = join(home, 'sessions', '2026', '07', '16');
    await mkdir(day, { recursive: true });
    await writeFile(join(home, 'config.toml'), '[model_providers.mock]\nbase_url = "https://gateway.example.com/v1"\n');
    const machine = join(userHome, '.codex');
    await mkdir(machine, { recursive: true });
    await writeFile(join(machine, 'config.toml'), '[model_providers.mock]\nbase_url = "http://localhost:18777/v1"\n');
    const counts = { input_tokens: 80_000, cached_input_tokens: 0, output_tokens: 1000, reasoning_output_tokens: 0, total_tokens: 81_000 };
    const id = '0198aaaa-0000-7000-8000-0000000000d3';
    const lines = [
      { timestamp: '2026-07-16T09:00:00.000Z', type: 'session_meta', payload: { id, timestamp: '2026-07-16T09:00:00.000Z', cwd: '/work/x', originator: 'codex_exec', cli_version: '0.171.0', model_provider: 'mock' } },
      { timestamp: '2026-07-16T09:00:01.000Z', type: 'turn_context', payload: { cwd: '/work/x', model: 'gpt-5' } },
      { timestamp: '2026-07-16T09:00:02.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'go' } },
      { timestamp: '2026-07-16T09:00:03.000Z', type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: counts, last_token_usage: counts } } },
    ];
    await writeFile(join(day, `rollout-2026-07-16T09-00-00-${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    for (const redact of [false, true]) {
      const result = await build({ inputs: [home], out: join(await tempDir(), 'report'), redact, scope: ALL_UTC, environment: { env: {}, home: userHome }, now: new Date('2026-11-30T12:00:00Z') });
      expect(result.summary.totals.cost.bough, `redact: ${redact}`).toBeCloseTo(0.11, 10);
    }
    // Two homes whose folders are named alike once redacted (a home in another case of the user's
    // name): each its own, where the first version took the last one read for both.
    const other = join(dirname(userHome), basename(userHome).toUpperCase(), 'copies', 'desk', '.codex');
    const otherDay = join(other, 'sessions', '2026', '07', '16');
    await mkdir(otherDay, { recursive: true });
    await writeFile(join(other, 'config.toml'), '[model_providers.mock]\nbase_url = "http://localhost:18777/v1"\n');
    const otherId = '0198aaaa-0000-7000-8000-0000000000d4';
    await writeFile(join(otherDay, `rollout-2026-07-16T09-00-00-${otherId}.jsonl`), `${lines.map((l) => JSON.stringify(l.type === 'session_meta' ? { ...l, payload: { ...l.payload, id: otherId } } : l)).join('\n')}\n`);
    for (const redact of [false, true]) {
      const result = await build({ inputs: [home, other], out: join(await tempDir(), 'report'), redact, scope: ALL_UTC, environment: { env: {}, home: userHome }, now: new Date('2026-11-30T12:00:00Z') });
      expect(result.summary.totals.cost.bough, `two homes, redact: ${redact}`).toBeCloseTo(0.11, 10);
    }
  });

  // A hostile look at that fix: a rollout gone since (its day folder with it) took this machine's
  // configuration, though its home, and its config.toml, were still read.
  it('prices a gone Codex session by its home’s config.toml while that home is read', async () => {
    const root = await tempDir();
    const home = join(root, 'backups', 'laptop', '.codex');
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'config.toml'), '[model_providers.mock]\nbase_url = "https://gateway.example.com/v1"\n');
    const machine = join(root, 'machine');
    await mkdir(machine);
    await writeFile(join(machine, 'config.toml'), '[model_providers.mock]\nbase_url = "http://localhost:18777/v1"\n');
    const counts = { input_tokens: 80_000, cached_input_tokens: 0, output_tokens: 1000, reasoning_output_tokens: 0, total_tokens: 81_000 };
    for (const [day, id] of [['02', '0198aaaa-0000-7000-8000-0000000000e1'], ['03', '0198aaaa-0000-7000-8000-0000000000e2']] as const) {
      const folder = join(home, 'sessions', '2026', '03', day);
      await mkdir(folder, { recursive: true });
      const lines = [
        { timestamp: `2026-03-${day}T09:00:00.000Z`, type: 'session_meta', payload: { id, timestamp: `2026-03-${day}T09:00:00.000Z`, cwd: '/work/x', originator: 'codex_exec', cli_version: '0.171.0', model_provider: 'mock' } },
        { timestamp: `2026-03-${day}T09:00:01.000Z`, type: 'turn_context', payload: { cwd: '/work/x', model: 'gpt-5' } },
        { timestamp: `2026-03-${day}T09:00:02.000Z`, type: 'event_msg', payload: { type: 'user_message', message: 'go' } },
        { timestamp: `2026-03-${day}T09:00:03.000Z`, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: counts, last_token_usage: counts } } },
      ];
      await writeFile(join(folder, `rollout-2026-03-${day}T09-00-00-${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    }
    const out = join(await tempDir(), 'report');
    const userHome = await tempDir();
    const run = (day: number) => build({ inputs: [join(root, 'backups')], out, scope: ALL_UTC, environment: { env: { CODEX_HOME: machine }, home: userHome }, now: new Date(Date.UTC(2026, 11, day)) });
    expect((await run(1)).summary.totals.cost.bough).toBeCloseTo(0.22, 10);
    await rm(join(home, 'sessions', '2026', '03', '02'), { recursive: true });
    const after = await run(2);
    expect(after.summary.diagnostics.goneFiles).toBe(1);
    expect(after.summary.totals.cost.bough).toBeCloseTo(0.22, 10);
  });

  // Regression (an outside review of money): a sub-agent run given by its sums alone (pi.md §18)
  // was priced as one request of 500,400 tokens of prompt, past Sonnet 4.5's 200k tier: $0.3474
  // a run for four requests, none past it, that cost $0.1812.
  it('prices a sub-agent run given by its sums by its largest request, not as one request of them all', async () => {
    const { summary: sums } = await buildOf([join(FIXTURES, 'cases', 'subagent-aggregate-long-context.jsonl')]);
    expect(sums.totals.subagents.cost.bough).toBeCloseTo(0.3624, 10);
    expect(sums.sessions[0]?.costCheck).toMatchObject({ differs: false });
  });

  // Regression (an outside review of totals): a record of no tokens (a failed request) made an
  // unknown model's session "+ unknown"; and a model's first record of nothing must not describe
  // the model as priced when its later records are not.
  it('takes a record of no tokens for $0, and describes its model by the records that bill', async () => {
    const path = join(await tempDir(), 'zeros.jsonl');
    const at = (n: number) => `2026-10-22T08:00:0${n}.000Z`;
    const reply = (id: string, parentId: string, model: string, input: number, n: number) => ({ type: 'message', id, parentId, timestamp: at(n), message: { role: 'assistant', content: [{ type: 'text', text: id }], provider: 'anthropic', model, usage: { input, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: input, cost: { total: 0 } }, stopReason: input === 0 ? 'error' : 'stop', ...(input === 0 ? { errorMessage: 'overloaded' } : {}), timestamp: 0 } });
    await writeFile(path, `${[
      { type: 'session', version: 3, id: 'zeros', timestamp: at(0), cwd: '/work/zeros' },
      { type: 'message', id: 'u1', parentId: null, timestamp: at(1), message: { role: 'user', content: 'go', timestamp: 0 } },
      reply('r1', 'u1', 'claude-sonnet-4-5', 1000, 2),
      reply('r2', 'r1', 'claude-fable-9', 0, 3),
    ].map((r) => JSON.stringify(r)).join('\n')}\n`);
    const { summary: zeros } = await buildOf([path]);
    expect(zeros.totals.unpricedModels).toEqual([]);
    expect(zeros.totals.cost.bough).toBeCloseTo(0.003, 10);
    const mixed = join(await tempDir(), 'mixed.jsonl');
    await writeFile(mixed, `${[(await readFile(path, 'utf8')).trimEnd(), JSON.stringify(reply('r3', 'r2', 'claude-fable-9', 500, 4))].join('\n')}\n`);
    const { summary: later } = await buildOf([mixed]);
    expect(later.totals.unpricedModels).toEqual(['anthropic/claude-fable-9']);
    expect(later.totals.models.find((m) => m.model === 'claude-fable-9')).toMatchObject({ priceState: 'unpriced', priceKey: null });
  });

  it('names the price snapshot it used', () => {
    expect(summary.prices).toEqual({ source: 'litellm', snapshot: 'LiteLLM, 2026-08-01 (bundled with bough)', date: '2026-08-01', origin: 'bundled' });
  });

  it('shows the unpriced model with a badge on the pages', async () => {
    const index = await readFile(join(out, 'index.html'), 'utf8');
    expect(index).toContain('Not priced: anthropic/claude-fable-9.');
    expect(index).toMatch(/<code>claude-fable-9<\/code><span class="sub">anthropic<\/span><\/td><td> <span class="badge tone-error"[^>]*>unpriced<\/span>/);
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).toContain('its own cost is unknown in part and is not compared with the $1.02 the agent recorded');
    expect(page).toContain('cache write 0 · $0.0200 recorded · bough: unknown (unpriced model)');
  });

  it('never shows a difference from an unknown cost as if it were $0 (regression: "differs by −$1.09")', async () => {
    const page = await readFile(join(out, summary.sessions[0]?.page as string), 'utf8');
    expect(page).not.toContain('differs from the recorded cost');
    expect(page).toMatch(/<div class="card-label">Cost \(bough\)<\/div>\s*<div class="card-value">\$0\.9998 \+ unknown<\/div>/);
  });

  it('writes usage.csv: one row per usage record, summing to the totals', async () => {
    const lines = (await readFile(join(out, 'usage.csv'), 'utf8')).trimEnd().split('\r\n');
    const header = lines[0]?.split(',') ?? [];
    expect(header).toEqual([
      'time', 'source', 'project', 'session', 'session_file', 'origin', 'provider', 'model', 'price_key', 'price_state',
      'input', 'output', 'cache_read', 'cache_write', 'cache_write_1h', 'reasoning', 'cost_bough', 'cost_recorded', 'fast_mode', 'web_searches', 'day', 'us_only', 'flex',
    ]);
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows).toHaveLength(5);
    const column = (name: string) => rows.map((row) => row[header.indexOf(name)]);
    expect(column('price_key')).toEqual(['claude-sonnet-4-5', 'claude-sonnet-4-5', 'openrouter/qwen/qwen3-coder:free', '', 'claude-opus-5']);
    expect(column('price_state')).toEqual(['priced', 'priced', 'free', 'unpriced', 'priced']);
    expect(column('input').reduce((a, n) => a + Number(n), 0)).toBe(summary.totals.tokens.input);
    expect(column('cost_bough').reduce((a, n) => a + Number(n || 0), 0)).toBeCloseTo(summary.totals.cost.bough ?? NaN, 10);
  });

  // Regression (an outside review of money): a cost under a millionth of a dollar was written
  // 2.5e-7, which text tools and some spreadsheets do not read as a number.
  it('writes usage.csv costs as plain decimals, however small', async () => {
    const pricesFile = join(await tempDir(), 'tiny.json');
    await writeFile(pricesFile, JSON.stringify({ 'claude-fable-9': { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 2.5e-10, output_cost_per_token: 2.5e-10 } }));
    const { out: tiny } = await buildOf([piFixture('pricing.jsonl')], {}, pricesFile);
    const lines = (await readFile(join(tiny, 'usage.csv'), 'utf8')).trimEnd().split('\r\n');
    const cost = lines.slice(1).find((line) => line.includes('claude-fable-9'))?.split(',')[16];
    expect(cost).toMatch(/^0\.0000000\d+$/);
  });

  it('prices with another LiteLLM-format table given with --prices', async () => {
    const pricesFile = join(await tempDir(), 'mine.json');
    const { writeFile } = await import('node:fs/promises');
    // Saved with a byte-order mark, as Windows editors do (regression: refused as not JSON).
    await writeFile(pricesFile, `\uFEFF${JSON.stringify({ 'claude-fable-9': { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 1e-4, output_cost_per_token: 1e-4 } })}`);
    const { summary: other } = await buildOf([piFixture('pricing.jsonl')], {}, pricesFile);
    expect(other.prices.origin).toBe('file');
    expect(other.totals.unpricedModels).toEqual(['anthropic/claude-sonnet-4-5', 'anthropic/claude-opus-5'].sort());
    expect(other.totals.cost.bough).toBeCloseTo(0.02, 10);
  });
});

// Regression (a review of price tables): only `[model_providers.id]` on a line of its own, then a
// `base_url` line, was read: the same provider written as TOML also allows (a comment after the
// header, an inline table, dotted keys, spaces in the brackets, a literal-quoted key) priced a
// local server at OpenAI's rates.
describe("Codex's config.toml", () => {
  it('finds a provider on this machine however TOML writes it', () => {
    const url = 'http://localhost:8080/v1';
    for (const config of [
      `[model_providers.localai]\nbase_url = "${url}"\n`,
      `[model_providers.localai]  # my server\nbase_url = "${url}"  # here\n`,
      `[model_providers]\nlocalai = { name = "LocalAI", base_url = "${url}" }\n`,
      `model_providers.localai = { base_url = "${url}" }\n`,
      `[ model_providers.localai ]\nbase_url = '${url}'\n`,
      `[model_providers.'localai']\nbase_url = """${url}"""\n`,
      `[model_providers."localai"]\nname = "x"\n[model_providers."localai".http_headers]\nX = "y"\n[model_providers.localai2]\nbase_url = "https://api.example.com"\n`.replace('name = "x"', `base_url = "${url}"`),
    ]) {
      expect(localProvidersIn(config), config).toEqual(['localai']);
    }
    for (const host of ['127.0.0.1:11434', '[::1]:8080', '0.0.0.0', 'ollama.localhost:11434']) expect(localProvidersIn(`[model_providers.x]\nbase_url = "http://${host}/v1"\n`)).toEqual(['x']);
    for (const host of ['localhost.example.com', 'example.com/localhost', '128.0.0.1']) expect(localProvidersIn(`[model_providers.x]\nbase_url = "http://${host}/v1"\n`)).toEqual([]);
    // Not TOML (Codex would not start on it): its plain tables are read still.
    expect(localProvidersIn(`[model_providers.localai]\nbase_url = "${url}"\n[broken\n`)).toEqual(['localai']);
    expect(localProvidersIn('model_providers = "none"\n')).toEqual([]);
  });
});

describe('bough prices update', () => {
  let server: Server;
  let base: string;
  let served = '';
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/missing') {
        response.writeHead(404).end('not found');
        return;
      }
      if (request.url === '/latin1') {
        // A table with a long string of bytes that are not UTF-8 (é in Latin-1).
        const table = JSON.parse(served) as Record<string, unknown>;
        const [head, tail] = JSON.stringify({ ...table, note: '@' }).split('@') as [string, string];
        response.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat([Buffer.from(head), Buffer.alloc(100_000, 0xe9), Buffer.from(tail)]));
        return;
      }
      if (request.url === '/huge') {
        // 65 MB of spaces before a table, sent in pieces as a server streaming it would.
        response.writeHead(200, { 'content-type': 'application/json' });
        const piece = ' '.repeat(1024 * 1024);
        let sent = 0;
        const more = () => {
          while (sent < 65 && response.write(piece)) sent++;
          if (sent < 65) response.once('drain', () => { sent++; more(); });
          else response.end(served);
        };
        response.on('error', () => {});
        more();
        return;
      }
      const one = JSON.stringify({ 'model-1': { litellm_provider: 'openai', mode: 'chat', input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 } });
      response.writeHead(200, { 'content-type': 'application/json' }).end(request.url === '/garbage' ? '<html>rate limited</html>' : request.url === '/one' ? one : served);
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A table LiteLLM-shaped enough: many priced models, one of them claude-fable-9.
    const table: Record<string, object> = {};
    for (let i = 0; i < 600; i++) table[`model-${i}`] = { litellm_provider: 'openai', mode: 'chat', input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 };
    table['claude-fable-9'] = { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 1e-4, output_cost_per_token: 1e-4 };
    served = JSON.stringify(table);
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  async function run(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env, home: await tempDir(), isTty: false, now: () => new Date('2026-11-30T12:00:00Z') };
    return { code: await main(args, io), stdout, stderr };
  }

  it('downloads the newest table into the cache folder, and later builds prefer it to the older bundled copy', async () => {
    const env = { BOUGH_CACHE_DIR: await tempDir() };
    const result = await run(['prices', 'update', '--url', `${base}/prices.json`], env);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^bough: 601 priced models saved to .*litellm-model-prices\.json/);
    // Named by where it came from: not LiteLLM's own address (a review of price tables).
    expect((await run(['prices'], env)).stdout).toBe(`LiteLLM-format table downloaded 2026-11-30 from ${base}/prices.json (bough prices update --url): 601 priced models\n`);
    const { summary } = await buildOf([piFixture('pricing.jsonl')], env);
    expect(summary.prices).toMatchObject({ origin: 'cache', date: '2026-11-30' });
    expect(summary.totals.cost.bough).toBeCloseTo(0.02, 10);
  });

  // Regression (an outside review of the command line): "prices only 1 models".
  it('refuses a table of a few models as not LiteLLM’s, in words that count them', async () => {
    const result = await run(['prices', 'update', '--url', `${base}/one`], { BOUGH_CACHE_DIR: await tempDir() });
    expect(result).toEqual({ code: 1, stdout: '', stderr: `bough: What ${base}/one sent prices only 1 model, so it is not LiteLLM's table; nothing was changed.\n` });
  });

  // Regression (an outside review of the command line): a cache folder it could not write (a file
  // there) made `prices update` say "unexpected error … This is a bug in bough".
  it('says in a sentence that it could not keep the table in a cache folder it cannot write', async () => {
    const file = join(await tempDir(), 'a-file');
    await writeFile(file, 'not a folder');
    const result = await run(['prices', 'update', '--url', `${base}/prices.json`], { BOUGH_CACHE_DIR: file });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^bough: Could not keep the price table in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .+\\. Reports keep using the table they used before; set BOUGH_CACHE_DIR to a folder bough may write\\.\\n$`));
  });

  it('regression: a downloaded table whose price changed on disk was used as it was; now the bundled one is, and that is said', async () => {
    const cacheDir = await tempDir();
    const env = { BOUGH_CACHE_DIR: cacheDir };
    expect((await run(['prices', 'update', '--url', `${base}/prices.json`], env)).code).toBe(0);
    const path = join(cacheDir, 'litellm-model-prices.json');
    // Still JSON, still a table, one price ten times what it was.
    const table = JSON.parse(await readFile(path, 'utf8')) as Record<string, { input_cost_per_token: number }>;
    (table['claude-fable-9'] as { input_cost_per_token: number }).input_cost_per_token = 1e-3;
    await writeFile(path, JSON.stringify(table));
    const shown = await run(['prices'], env);
    expect(shown.stdout).toMatch(/^LiteLLM, 2026-08-01 \(bundled with bough; the copy downloaded 2026-11-30 is damaged\)/);
    expect(shown.stderr).toContain('bough: warning: the price table downloaded 2026-11-30 (bough prices update) is damaged');
    const damaged = await buildOf([piFixture('pricing.jsonl')], env);
    expect(damaged.summary.prices).toMatchObject({ origin: 'bundled', date: '2026-08-01' });
    expect(damaged.warnings.join('\n')).toContain('run bough prices update again');
    // The bundled table does not know claude-fable-9: unpriced, not priced from the damaged copy.
    expect(damaged.summary.totals.unpricedModels).toContain('anthropic/claude-fable-9');
    await rm(path);
    expect((await run(['prices'], env)).stderr).toContain('is missing');
    expect((await run(['prices', 'update', '--url', `${base}/prices.json`], env)).code).toBe(0);
    const again = await run(['prices'], env);
    expect(again).toMatchObject({ stderr: '', stdout: `LiteLLM-format table downloaded 2026-11-30 from ${base}/prices.json (bough prices update --url): 601 priced models\n` });
  });

  it.each([
    ['an HTTP error', '/missing', /HTTP 404/],
    ['a page that is not a table', '/garbage', /is not a LiteLLM price table/],
  ])('keeps the previous table after %s', async (_, path, message) => {
    const env = { BOUGH_CACHE_DIR: await tempDir() };
    const result = await run(['prices', 'update', '--url', `${base}${path}`], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect((await run(['prices'], env)).stdout).toMatch(/^LiteLLM, 2026-08-01 \(bundled with bough\)/);
  });

  // Regression (a review of price tables): 85 MB were taken whole, replaced the table in use, and
  // every later run refused it as too large and went back to the bundled one.
  it('refuses a download larger than a price table may be, keeping the table in use', async () => {
    const env = { BOUGH_CACHE_DIR: await tempDir() };
    expect((await run(['prices', 'update', '--url', `${base}/prices.json`], env)).code).toBe(0);
    const result = await run(['prices', 'update', '--url', `${base}/huge`], env);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `bough: What ${base}/huge sends is larger than a price table may be (64 MB; LiteLLM's is under 2 MB); nothing was changed.\n` });
    expect((await run(['prices'], env)).stdout).toBe(`LiteLLM-format table downloaded 2026-11-30 from ${base}/prices.json (bough prices update --url): 601 priced models\n`);
  });

  // Regression (a hostile look): bytes that are not UTF-8 were each kept as three (U+FFFD), and a
  // table under the limit as sent was over it as kept, every later run calling it missing.
  it('refuses a download that is not UTF-8, and says a kept table it cannot read is unreadable, not missing', async () => {
    const cacheDir = await tempDir();
    const env = { BOUGH_CACHE_DIR: cacheDir };
    expect((await run(['prices', 'update', '--url', `${base}/prices.json`], env)).code).toBe(0);
    const result = await run(['prices', 'update', '--url', `${base}/latin1`], env);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `bough: What ${base}/latin1 sent is not a LiteLLM price table (it is not UTF-8 text); nothing was changed.\n` });
    expect((await run(['prices'], env)).stdout).toContain(`from ${base}/prices.json`);
    await rm(join(cacheDir, 'litellm-model-prices.json'));
    await mkdir(join(cacheDir, 'litellm-model-prices.json'));
    expect((await run(['prices'], env)).stderr).toContain('the price table downloaded 2026-11-30 (bough prices update) is unreadable');
  });

  // Regression (a review of price tables): "1 priced models".
  it('counts a table of one model in the singular', async () => {
    const file = join(await tempDir(), 'one.json');
    await writeFile(file, JSON.stringify({ 'model-1': { litellm_provider: 'openai', mode: 'chat', input_cost_per_token: 1e-6, output_cost_per_token: 2e-6 } }));
    expect((await run(['prices', '--prices', file], { BOUGH_CACHE_DIR: await tempDir() })).stdout).toMatch(/: 1 priced model\n$/);
  });

  it('says so when the machine is offline', async () => {
    const result = await run(['prices', 'update', '--url', 'http://127.0.0.1:59999/nothing-listens-here'], { BOUGH_CACHE_DIR: await tempDir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bough: Could not download the price table from http:\/\/127\.0\.0\.1:59999\/nothing-listens-here/);
    // Regression: said only "fetch failed".
    expect(result.stderr).toContain(': the network did not reach it (ECONNREFUSED). Reports keep using');
  });
});
