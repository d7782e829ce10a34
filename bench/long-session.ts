// One very long Pi session, for the bench row "a build of one 500 MB session": a linear chain of
// turns (prompt, a read call with its usage, the tool's output, the reply with its usage), written
// as a stream so the generator itself never holds the file.

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

const START = Date.UTC(2026, 10, 2, 9, 0, 0);
const WORDS = 'the cache keeps each ledger per file so a rebuild reads only what changed and writes only the pages whose content moved'.split(' ');

/** Deterministic text of about `length` characters, varied by `seed`. */
function text(length: number, seed: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < length; i++) {
    const word = WORDS[(seed * 7 + i * 13) % WORDS.length] as string;
    parts.push(i % 12 === 11 ? `${word}\n` : word);
    size += word.length + 1;
  }
  return parts.join(' ');
}

/** Writes the session and returns its size in bytes. */
export async function writeLongPiSession(path: string, targetBytes: number, payloadBytes = 2500): Promise<number> {
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(path, { flags: 'w' });
  let bytes = 0;
  const write = async (record: unknown) => {
    const line = `${JSON.stringify(record)}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  };
  let time = START;
  const at = () => new Date((time += 1700)).toISOString();
  await write({ type: 'session', version: 3, id: '01b00000-0000-7000-8000-000000000500', timestamp: at(), cwd: '/home/ana/src/long-haul' });
  let parentId: string | null = null;
  const entry = async (id: string, body: Record<string, unknown>) => {
    await write({ ...body, id, parentId, timestamp: at() });
    parentId = id;
  };
  await entry('m0', { type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
  const usage = (input: number, output: number, cacheRead: number) => ({
    input,
    output,
    cacheRead,
    cacheWrite: 0,
    totalTokens: input + output + cacheRead,
    cost: { input: input * 3e-6, output: output * 15e-6, cacheRead: cacheRead * 3e-7, cacheWrite: 0, total: input * 3e-6 + output * 15e-6 + cacheRead * 3e-7 },
  });
  const assistant = (content: unknown[], stopReason: string, turn: number) => ({
    type: 'message',
    message: { role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(40 + (turn % 50), 200 + (turn % 300), 1000 + turn), stopReason, timestamp: time },
  });
  for (let turn = 0; bytes < targetBytes; turn++) {
    const call = `toolu_${turn.toString(16).padStart(8, '0')}`;
    await entry(`u${turn}`, { type: 'message', message: { role: 'user', content: [{ type: 'text', text: `turn ${turn}: ${text(80, turn)}` }], timestamp: time } });
    await entry(`a${turn}`, assistant([{ type: 'text', text: 'Let me read it.' }, { type: 'toolCall', id: call, name: 'read', arguments: { path: `src/file${turn % 97}.ts` } }], 'toolUse', turn));
    await entry(`r${turn}`, { type: 'message', message: { role: 'toolResult', toolCallId: call, toolName: 'read', content: [{ type: 'text', text: text(payloadBytes, turn) }], isError: false, timestamp: time } });
    await entry(`b${turn}`, assistant([{ type: 'text', text: text(300, turn + 1) }], 'stop', turn));
  }
  out.end();
  await once(out, 'close');
  return bytes;
}
