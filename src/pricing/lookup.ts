// Which table entry prices a model, as the agent recorded it (pricing.md §6). Provider-aware and
// exact: a few deterministic spellings are tried, never a substring match, because fuzzy
// matching is where wrong prices come from (pricing.md §7).

import type { ModelPrice, PriceTable, Rates } from './table.js';

/**
 * What the agent that recorded a model knows about pricing it: the table prefixes its provider's
 * models go under, and whether the provider bills by subscription or runs on this machine.
 */
export interface PriceHint {
  /** Tried in order before each spelling of the model id: `''` (bare), `'gemini/'`, `'openrouter/'`… */
  prefixes: readonly string[];
  /** Tried last, after the newest dated entry of an undated id: where only ids the others do not know are found. */
  lastPrefixes?: readonly string[];
  /** The ids, as recorded, lastPrefixes are for (those spelled as that provider spells them); absent: every id. */
  lastPrefixesFor?: RegExp;
  /** Billed by subscription, which the agent records at $0 (pricing.md §5.2). */
  subscription: boolean;
  /** Runs on the user's machine, by the agent's own configuration. */
  local: boolean;
  /**
   * `local` as one of the agent's own providers of a paid API, pointed at this machine's address:
   * a proxy in front of that API (LiteLLM's, a company's gateway), so a model the table knows by
   * its own name is priced as that model. A provider of the user's own there is a server run
   * there ($0 by rule, pricing.md §6.2), whatever its models are named (LocalAI names them as OpenAI's).
   */
  localByAddress?: boolean;
  /**
   * The agent counts cache writes inside input (OpenAI's usage, as Codex records it), so a model
   * with no cache-write price bills them as ordinary input (pricing.md §1). Absent: false.
   */
  cacheWritesInInput?: boolean;
}

export interface PriceQuery {
  provider: string | null;
  model: string | null;
  hint: PriceHint;
}

export type Lookup =
  /** `filledFrom`: the entry of the model's first-party spelling whose prices the entry found lacked, and were taken from it. */
  | { kind: 'priced'; key: string; price: ModelPrice & { base: Rates }; filledFrom?: string; proxied?: true }
  /** $0 by rule: a free model (OpenRouter `:free`), a local provider, or a subscription. */
  | { kind: 'free'; rule: 'free-model' | 'local' | 'subscription'; key: string }
  /** `notInTable`: no spelling of the model is in the table (not an entry without prices). */
  | { kind: 'unpriced'; reason: string; notInTable?: true };

export interface LookupOptions {
  /** Price subscription providers as the API would bill, instead of $0. */
  subscriptionsAtApiPrices: boolean;
}

/** Servers that run on the user's machine, whichever agent talks to them: $0 whatever the table says (pricing.md §6.2). */
export const LOCAL_PROVIDERS: ReadonlySet<string> = new Set(['ollama', 'lmstudio', 'lm-studio', 'llama.cpp', 'llamacpp', 'llama-cpp', 'vllm']);

const FREE_SUFFIX = /:free$/i;

const ROUTER_KEY = /(?:^|\/)auto$/i;

export function findPrice(table: PriceTable, query: PriceQuery, options: LookupOptions): Lookup {
  const { provider, model } = query;
  if (model === null || model === '') return { kind: 'unpriced', reason: 'the record names no model' };
  const named = provider === null ? model : `${provider}/${model}`;
  if (FREE_SUFFIX.test(model)) return { kind: 'free', rule: 'free-model', key: named };
  // A subscription is billed so wherever it is reached from (a proxy of Copilot's on this machine).
  if (query.hint.subscription && !options.subscriptionsAtApiPrices) return { kind: 'free', rule: 'subscription', key: named };
  const localServer = provider !== null && LOCAL_PROVIDERS.has(provider.toLowerCase());
  if ((query.hint.local && !query.hint.subscription) || localServer) {
    const proxied = query.hint.localByAddress && !localServer ? proxiedModel(table, model, query.hint, options) : null;
    return proxied ?? { kind: 'free', rule: 'local', key: named };
  }

  const tried = [...candidates(model, query.hint.prefixes)];
  const lastPrefixes = query.hint.lastPrefixesFor?.test(model) === false ? [] : (query.hint.lastPrefixes ?? []);
  // The id as recorded, under any prefix, before any other spelling of it (pricing.md §6.3): a
  // Vertex id (`claude-…@date`) is Vertex's entry, not Anthropic's under the id spelled with `-`.
  const exact = query.hint.prefixes.map((prefix) => resolveKey(table, prefix + model)).find((k) => k !== null) ?? null;
  const spelled = tried.map((candidate) => resolveKey(table, candidate)).find((k) => k !== null) ?? null;
  const exactLast = exact === null ? (lastPrefixes.map((prefix) => resolveKey(table, prefix + model)).find((k) => k !== null) ?? null) : null;
  const key =
    exact ??
    exactLast ??
    spelled ??
    // An undated id the table only knows with dates: the newest dated entry.
    tried.map((candidate) => table.datedVariants.get(candidate)?.[0]).find((k) => k !== undefined) ??
    [...candidates(model, lastPrefixes)].map((candidate) => resolveKey(table, candidate)).find((k) => k !== null) ??
    null;
  if (key === null) return { kind: 'unpriced', reason: 'not in the price table', notInTable: true };
  const price = table.entries.get(key) as ModelPrice;
  if (price.base === null) return { kind: 'unpriced', reason: price.unreadable === undefined ? `${key} has no token prices in the table` : `${key}'s ${price.unreadable} in the table could not be read` };
  // A router's entry (openrouter/openrouter/auto) is listed at $0: a request costs what the model
  // it chose costs, which the record does not name (else that model is priced: its responseModel).
  if (ROUTER_KEY.test(key) && price.base.input === 0 && price.base.output === 0) {
    return { kind: 'unpriced', reason: `${key} routes each request to a model the record does not name` };
  }
  // The table's entries of a provider's own spelling (Vertex's) may lack prices its first-party
  // entry of the same model has (cache, web searches, tiers): taken from there, not left unpriced.
  const firstParty = key === exactLast && spelled !== null ? table.entries.get(spelled) : undefined;
  if (firstParty?.base) {
    const filled = filledFrom(price as ModelPrice & { base: Rates }, firstParty as ModelPrice & { base: Rates });
    if (filled !== null) return { kind: 'priced', key, price: filled, filledFrom: firstParty.key };
  }
  return { kind: 'priced', key, price: price as ModelPrice & { base: Rates } };
}

/**
 * A model served at this machine's address that the table knows, with a price, by its own name
 * (`gpt-5`, `claude-sonnet-4-5`): a proxy's in front of its maker's API, which bills it. A name
 * with a vendor path (`qwen/qwen3-coder-30b`, as LM Studio names its downloads) or one the table
 * does not know is a model run here: null.
 */
function proxiedModel(table: PriceTable, model: string, hint: PriceHint, options: LookupOptions): Lookup | null {
  if (model.includes('/')) return null;
  const found = findPrice(table, { provider: null, model, hint: { prefixes: [''], subscription: false, local: false, cacheWritesInInput: hint.cacheWritesInInput ?? false } }, options);
  if (found.kind !== 'priced' || (found.price.base.input === 0 && found.price.base.output === 0)) return null;
  return { ...found, proxied: true };
}

/** `price` with the rates it lacks taken from `other`, or null when it lacks none `other` has. */
function filledFrom(price: ModelPrice & { base: Rates }, other: ModelPrice & { base: Rates }): (ModelPrice & { base: Rates }) | null {
  const base = { ...price.base };
  let filled = false;
  for (const kind of ['cacheRead', 'cacheWrite', 'cacheWrite1h'] as const) {
    if (base[kind] === null && other.base[kind] !== null) {
      base[kind] = other.base[kind];
      filled = true;
    }
  }
  const webSearch = price.webSearch ?? other.webSearch;
  const tiers = price.tiers.length > 0 ? price.tiers : other.tiers;
  if (!filled && webSearch === price.webSearch && tiers === price.tiers) return null;
  return { ...price, base, webSearch, tiers };
}

/** Exact key, then the same key in another case. */
function resolveKey(table: PriceTable, candidate: string): string | null {
  if (table.entries.has(candidate)) return candidate;
  return table.byLowerKey.get(candidate.toLowerCase()) ?? null;
}

/**
 * Spellings of one model id, most literal first: as recorded; without a vendor prefix the
 * provider already implies; with its date suffix removed or written with `@`; with version dots
 * and dashes swapped (`claude-sonnet-4.5` ↔ `claude-sonnet-4-5`); then the newest dated key
 * for an undated id. Each is an exact lookup.
 */
export function* candidates(model: string, prefixes: readonly string[]): Generator<string> {
  const seen = new Set<string>();
  const spellings = modelSpellings(model);
  for (const prefix of prefixes) {
    for (const spelling of spellings) {
      const key = prefix + spelling;
      if (!seen.has(key)) {
        seen.add(key);
        yield key;
      }
    }
  }
}

const DATE = /[-@](\d{8})$/;

function modelSpellings(model: string): string[] {
  const bases = [model];
  // A vendor prefix the provider already implies: "anthropic/claude-x" under provider anthropic.
  const slash = model.indexOf('/');
  if (slash > 0 && !model.includes('/', slash + 1)) bases.push(model.slice(slash + 1));
  const spellings: string[] = [];
  for (const base of bases) {
    const date = DATE.exec(base);
    const undated = date ? base.slice(0, date.index) : base;
    const forms = [base];
    if (date) forms.push(`${undated}-${date[1]}`, `${undated}@${date[1]}`, undated);
    for (const form of [...forms]) {
      const dotted = form.replace(/(\d)-(\d)(?!\d{7})/g, '$1.$2');
      const dashed = form.replace(/(\d)\.(\d)/g, '$1-$2');
      forms.push(dotted, dashed);
    }
    spellings.push(...forms);
  }
  return [...new Set(spellings)];
}
