// Pi's models.json (~/.pi/agent/models.json): the one place that says a provider runs on this
// machine. A session records only provider and model, not where the server was.

import { join } from 'node:path';
import { z } from 'zod';
import type { Environment } from '../../environment.js';
import { piAgentDir } from './paths.js';
import { readRegularFile } from '../../regular-file.js';

/** Far more than any models.json holds. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** Pi's built-in llama.cpp provider always runs locally. */
export const ALWAYS_LOCAL: ReadonlySet<string> = new Set(['llama.cpp', 'llamacpp', 'llama-cpp']);

const modelsJson = z.looseObject({
  providers: z.record(z.string(), z.looseObject({ baseUrl: z.string().nullish() })).nullish(),
});

/** Provider names whose base URL is this machine (a proxy on localhost looks the same; we say "local", not "free"). */
export async function piLocalProviders(environment: Environment): Promise<Set<string>> {
  const local = new Set<string>(ALWAYS_LOCAL);
  const text = await readRegularFile(join(piAgentDir(environment), 'models.json'), MAX_CONFIG_BYTES).catch(() => null);
  if (text === null) return local;
  let parsed: z.infer<typeof modelsJson>;
  try {
    parsed = modelsJson.parse(JSON.parse(text));
  } catch {
    return local;
  }
  for (const [name, provider] of Object.entries(parsed.providers ?? {})) {
    if (provider.baseUrl && isLoopback(provider.baseUrl)) local.add(name);
  }
  return local;
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '0.0.0.0' || /^127\./.test(host);
  } catch {
    return false;
  }
}
