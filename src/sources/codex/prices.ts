// How Codex's providers meet LiteLLM's table: OpenAI models are listed bare (`gpt-5.3-codex`) and
// sometimes as `openai/…`; another provider's models are tried under its own prefix first.

import type { PriceHint } from '../../pricing/lookup.js';

export function codexPriceHint(provider: string | null, localProviders: ReadonlySet<string>): PriceHint {
  const prefixes = provider === null || provider === 'openai' ? ['', 'openai/'] : [`${provider}/`, '', 'openai/'];
  // A ChatGPT sign-in and an API key leave the same rollout: bough prices both as the API bills.
  // Codex's cache_write_input_tokens are part of input_tokens (formats/codex.md §7.1).
  return { prefixes, subscription: false, local: provider !== null && localProviders.has(provider), cacheWritesInInput: true };
}
