// LiteLLM's price table (pricing.md §1) → the rates bough prices with. Pure: the parsed JSON and
// a description of where it came from are given.

export interface Rates {
  /** USD per token. */
  input: number;
  output: number;
  /** Null when the table has no price for this kind: unknown, never zero. */
  cacheRead: number | null;
  cacheWrite: number | null;
  cacheWrite1h: number | null;
}

export interface Tier {
  /** The tier applies to a request whose prompt is above this many tokens. */
  threshold: number;
  rates: Partial<Rates>;
}

/** A service tier's rates (OpenAI's priority and flex tiers): input and output, and cache reads when the entry gives them. */
export interface ServiceTierRates {
  input: number;
  output: number;
  cacheRead: number | null;
}

export interface ModelPrice {
  key: string;
  provider: string | null;
  /** Null when the entry names the model but prices no tokens, or a price of it cannot be read. */
  base: Rates | null;
  /** The price field that could not be read (the model is then unpriced, said so), or absent. */
  unreadable?: string;
  /** Highest threshold first. */
  tiers: Tier[];
  /** What fast mode multiplies the tokens' cost by (`provider_specific_entry.fast`), or null when the entry has none. */
  fastMultiplier: number | null;
  /**
   * OpenAI's priority service tier's rates (`*_priority`), which Codex's fast mode is billed at;
   * null when the entry has none for input and output.
   */
  priority?: ServiceTierRates | null;
  /** OpenAI's flex service tier's rates (`*_flex`), which Codex's `service_tier: "flex"` is billed at; null when the entry has none. */
  flex?: ServiceTierRates | null;
  /** What US-only inference multiplies the tokens' cost by (`provider_specific_entry.us`), or null when the entry has none. */
  usOnlyMultiplier: number | null;
  /** USD per server-side web search (`search_context_cost_per_query`), or null when the entry has none. */
  webSearch: number | null;
}

export interface Snapshot {
  /** Where the table came from: "bundled", "cache" (bough prices update) or "file" (--prices). */
  origin: 'bundled' | 'cache' | 'file';
  /** What the report says about it, e.g. "LiteLLM, 2026-08-01 (bundled with bough)". */
  label: string;
  /** The day the content is from, when known (YYYY-MM-DD). */
  date: string | null;
  /** Why a newer table was not used (the downloaded copy is damaged), as a warning to show; absent when none. */
  problem?: string;
}

export interface PriceTable {
  snapshot: Snapshot;
  entries: ReadonlyMap<string, ModelPrice>;
  /** Lower-cased key → key, for a case-insensitive lookup after the exact one fails. */
  byLowerKey: ReadonlyMap<string, string>;
  /** Undated key → its dated variants (`claude-x` → [`claude-x-20250929`]), newest first. */
  datedVariants: ReadonlyMap<string, string[]>;
}

/** Modes of entries that price text tokens; embeddings, images and audio are not used. */
const TEXT_MODES = new Set(['chat', 'responses', 'completion']);
const NOT_MODELS = new Set(['sample_spec', 'fallback_generalizations']);
/** The fields bough reads a rate from: a model's base rates and their long-context tiers. */
const PRICE_FIELD = /^(input_cost_per_token|output_cost_per_token|cache_read_input_token_cost|cache_creation_input_token_cost|cache_creation_input_token_cost_above_1hr)(_above_\d+k?_tokens)?$|^input_cost_per_token_cache_hit$/;
const TIER_FIELD = /^(input_cost_per_token|output_cost_per_token|cache_read_input_token_cost|cache_creation_input_token_cost|cache_creation_input_token_cost_above_1hr)_above_(\d+)(k?)_tokens$/;
const DATE_SUFFIX = /^(.*)[-@](\d{8})$/;

/**
 * Above this, a price (per token, per search) or a multiple is no price: the dearest models cost
 * well under a thousandth of a dollar a token. A table (given with --prices) claiming 1e308 would
 * make every total infinite.
 */
const MAX_PRICE = 1000;

/**
 * A decimal number as a string, as Python's float() reads one: not JavaScript's Number(), which
 * reads "" and " " as 0 and "0x10" as 16 (regression: a blank price was a free one).
 */
const DECIMAL = /^\s*\+?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** A number, or a numeric string (LiteLLM's own code tolerates those); none beyond MAX_PRICE. */
function rate(value: unknown): number | null {
  const n = typeof value === 'string' ? (DECIMAL.test(value) ? Number(value) : null) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= MAX_PRICE ? n : null;
}

export function parsePriceTable(json: unknown, snapshot: Snapshot): PriceTable {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('a price table is a JSON object of models');
  const entries = new Map<string, ModelPrice>();
  const unreadable: string[] = [];
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    if (NOT_MODELS.has(key) || typeof value !== 'object' || value === null) continue;
    const entry = value as Record<string, unknown>;
    const mode = typeof entry['mode'] === 'string' ? entry['mode'] : null;
    if (mode !== null && !TEXT_MODES.has(mode)) continue;
    // A price written but unreadable ("5e-06x", negative) would price the model without it (a
    // long-context request at base rates): the model is left unpriced, and the table's problem said.
    const bad = unreadablePrice(entry);
    if (bad !== null) {
      unreadable.push(`${key}: ${bad} ${JSON.stringify(entry[bad])?.slice(0, 40)}`);
      // Kept, unpriced: dropped, the model would be priced by another spelling's entry (its dated
      // one), not the one the table's author meant.
      entries.set(key, { ...modelPrice(key, entry), base: null, unreadable: bad });
      continue;
    }
    entries.set(key, modelPrice(key, entry));
  }
  if (unreadable.length > 0) {
    const which = unreadable.length === 1 ? 'the model is' : `these ${unreadable.length} models are`;
    const said = `${unreadable.length === 1 ? 'a price' : 'prices'} in ${snapshot.label} could not be read (${unreadable.slice(0, 3).join('; ')}${unreadable.length > 3 ? '; …' : ''}), so ${which} left unpriced: fix the table`;
    snapshot = { ...snapshot, problem: snapshot.problem === undefined ? `${said}.` : `${snapshot.problem} Also, ${said}.` };
  }
  const byLowerKey = new Map<string, string>();
  const datedVariants = new Map<string, string[]>();
  for (const key of entries.keys()) {
    if (!byLowerKey.has(key.toLowerCase())) byLowerKey.set(key.toLowerCase(), key);
    const dated = DATE_SUFFIX.exec(key);
    if (dated?.[1]) datedVariants.set(dated[1], [...(datedVariants.get(dated[1]) ?? []), key]);
  }
  for (const keys of datedVariants.values()) keys.sort((a, b) => (a < b ? 1 : -1));
  return { snapshot, entries, byLowerKey, datedVariants };
}

/**
 * Whether a field may name a rate: every rate field's name holds "_cost" or "cost_", and most of an
 * entry's fields (supports_*, max_*) hold neither. Tested before the patterns: each run reads the
 * whole table (3,000 models, 35,000 fields), and the patterns alone cost it ~60 ms.
 */
function mayBeRate(field: string): boolean {
  return field.includes('cost');
}

/** The first rate field of an entry written but unreadable, or null. */
function unreadablePrice(entry: Record<string, unknown>): string | null {
  for (const field in entry) {
    if (!mayBeRate(field) || !PRICE_FIELD.test(field)) continue;
    const price = entry[field];
    if (price !== null && price !== undefined && rate(price) === null) return field;
  }
  return null;
}

function modelPrice(key: string, entry: Record<string, unknown>): ModelPrice {
  const provider = typeof entry['litellm_provider'] === 'string' ? entry['litellm_provider'] : null;
  const input = rate(entry['input_cost_per_token']);
  const output = rate(entry['output_cost_per_token']);
  const base: Rates | null =
    input === null || output === null
      ? null
      : {
          input,
          output,
          // DeepSeek's entries give their cache-hit price under a name of their own.
          cacheRead: rate(entry['cache_read_input_token_cost']) ?? rate(entry['input_cost_per_token_cache_hit']),
          cacheWrite: rate(entry['cache_creation_input_token_cost']),
          cacheWrite1h: oneHourWriteRate(rate(entry['cache_creation_input_token_cost_above_1hr']), rate(entry['cache_creation_input_token_cost']), input),
        };
  const tiers = new Map<number, Partial<Rates>>();
  for (const field in entry) {
    const match = mayBeRate(field) ? TIER_FIELD.exec(field) : null;
    const price = match ? rate(entry[field]) : null;
    if (!match || price === null) continue;
    const threshold = Number(match[2]) * (match[3] === 'k' ? 1000 : 1);
    const rates = tiers.get(threshold) ?? {};
    rates[TIER_KIND[match[1] as keyof typeof TIER_KIND]] = price;
    tiers.set(threshold, rates);
  }
  return {
    key,
    provider,
    base,
    tiers: [...tiers].map(([threshold, rates]) => ({ threshold, rates })).sort((a, b) => b.threshold - a.threshold),
    fastMultiplier: multiplier(field(entry['provider_specific_entry'], 'fast')),
    priority: serviceTierRates(entry, 'priority'),
    flex: serviceTierRates(entry, 'flex'),
    usOnlyMultiplier: multiplier(field(entry['provider_specific_entry'], 'us')),
    webSearch: searchPrice(entry['search_context_cost_per_query']),
  };
}

function serviceTierRates(entry: Record<string, unknown>, tier: 'priority' | 'flex'): ServiceTierRates | null {
  const input = rate(entry[`input_cost_per_token_${tier}`]);
  const output = rate(entry[`output_cost_per_token_${tier}`]);
  return input === null || output === null ? null : { input, output, cacheRead: rate(entry[`cache_read_input_token_cost_${tier}`]) };
}

/**
 * A one-hour cache write costs more than a five-minute one, and a small multiple of the input
 * (Anthropic: twice the input rate, against 1.25 times). A table rate below the five-minute one, or
 * past four times the input, is an error of the table's (LiteLLM gives Claude 3 Opus and Haiku $6
 * a million, for $30 and $0.50): none, so the rule's rate is used, and said.
 */
function oneHourWriteRate(oneHour: number | null, fiveMinutes: number | null, input: number): number | null {
  if (oneHour === null) return null;
  return (fiveMinutes !== null && oneHour < fiveMinutes) || oneHour > input * MOST_ONE_HOUR_WRITE_FACTOR ? null : oneHour;
}

const MOST_ONE_HOUR_WRITE_FACTOR = 4;

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function multiplier(value: unknown): number | null {
  const n = rate(value);
  return n !== null && n > 0 ? n : null;
}

/**
 * A search's price. LiteLLM prices it by how much search context a request asked for; the agents
 * do not record that, and Anthropic's entries price every size the same. Otherwise the medium
 * size, LiteLLM's own default.
 */
function searchPrice(value: unknown): number | null {
  return rate(field(value, 'search_context_size_medium'));
}

const TIER_KIND = {
  input_cost_per_token: 'input',
  output_cost_per_token: 'output',
  cache_read_input_token_cost: 'cacheRead',
  cache_creation_input_token_cost: 'cacheWrite',
  cache_creation_input_token_cost_above_1hr: 'cacheWrite1h',
} as const satisfies Record<string, keyof Rates>;
