// How Codex's providers meet LiteLLM's table: OpenAI models are listed bare (`gpt-5.3-codex`) and
// sometimes as `openai/…`; another provider's models are tried under its own prefix first.

import type { PriceHint } from '../../pricing/lookup.js';

/**
 * Codex's own ids for a server on this machine, beside the ones every agent shares
 * (LOCAL_PROVIDERS): `oss`, the built-in Ollama provider of `codex --oss` (localhost:11434 by
 * default) in the builds before it was split into `ollama` and `lmstudio`.
 */
export const CODEX_LOCAL_PROVIDERS: ReadonlySet<string> = new Set(['oss']);

export function codexPriceHint(provider: string | null, localProviders: ReadonlySet<string>): PriceHint {
  const prefixes = provider === null || provider === 'openai' ? ['', 'openai/'] : [`${provider}/`, '', 'openai/'];
  const byAddress = provider !== null && !CODEX_LOCAL_PROVIDERS.has(provider) && localProviders.has(provider);
  const local = byAddress || (provider !== null && CODEX_LOCAL_PROVIDERS.has(provider));
  // Codex's own OpenAI provider pointed at this machine is a proxy of it; a provider of the
  // user's own there is a server run there.
  // A ChatGPT sign-in and an API key leave the same rollout: bough prices both as the API bills.
  // Codex's cache_write_input_tokens are part of input_tokens (formats/codex.md §7.1).
  return { prefixes, subscription: false, local, localByAddress: byAddress && provider === 'openai', cacheWritesInInput: true };
}
