// How Pi's provider ids meet LiteLLM's table (pricing.md §6.1): the price hint the Pi reader
// gives pricing, so that pricing itself knows no Pi provider id.

import type { PriceHint } from '../../pricing/lookup.js';
import { ALWAYS_LOCAL } from './models-json.js';

/** Pi providers billed by subscription, which Pi records at $0 (pricing.md §5.2). */
export const PI_SUBSCRIPTION_PROVIDERS: ReadonlySet<string> = new Set(['github-copilot', 'google-gemini-cli', 'google-antigravity']);

/**
 * How a Pi provider's model ids become LiteLLM keys: the table prefixes some providers' entries,
 * and names others bare. A provider not listed is tried as `<provider>/<id>`. A map, not an
 * object: a custom provider may be named anything, `constructor` too.
 */
const PI_PROVIDER_PREFIXES: ReadonlyMap<string, readonly string[]> = new Map(Object.entries({
  anthropic: [''],
  openai: [''],
  'openai-codex': [''],
  google: ['gemini/'],
  'google-vertex': ['vertex_ai/', ''],
  'google-gemini-cli': ['gemini/'],
  'google-antigravity': ['gemini/', ''],
  openrouter: ['openrouter/'],
  'amazon-bedrock': ['', 'bedrock/'],
  azure: ['azure/'],
  'azure-openai-responses': ['azure/'],
  // Copilot serves Claude, GPT and Gemini models: a Gemini one as Google's API sells it (no
  // `gemini/` key names another maker's model).
  'github-copilot': ['gemini/', ''],
  'vercel-ai-gateway': ['vercel_ai_gateway/'],
  deepseek: ['deepseek/', ''],
  'kimi-coding': ['moonshot/'],
  moonshotai: ['moonshot/'],
  fireworks: ['fireworks_ai/'],
  together: ['together_ai/'],
  huggingface: ['huggingface/'],
}));

export function piPriceHint(provider: string | null, localProviders: ReadonlySet<string>): PriceHint {
  if (provider === null) return { prefixes: [''], subscription: false, local: false };
  const subscription = PI_SUBSCRIPTION_PROVIDERS.has(provider);
  return {
    // A subscription's API-equivalent prices: the model as its maker's API sells it.
    prefixes: PI_PROVIDER_PREFIXES.get(provider) ?? [`${provider}/`, `${provider.replace(/-/g, '_')}/`],
    subscription,
    local: localProviders.has(provider),
    // One of Pi's own providers (it knows their prices) pointed at this machine is a proxy of it.
    localByAddress: localProviders.has(provider) && !ALWAYS_LOCAL.has(provider) && PI_PROVIDER_PREFIXES.has(provider),
  };
}
