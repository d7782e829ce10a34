// Where the price table comes from: the copy bundled with bough, a newer one downloaded with
// `bough prices update` into the user's cache folder, or a file given with --prices. The only
// module that touches the network, and only when asked to update.

import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BoughError } from './errors.js';
import { whyNotRead, whyUnwritable } from './file-problems.js';
import { readRegularFile } from './regular-file.js';
import { PACKAGE_ROOT } from './package-files.js';
import { parsePriceTable, type PriceTable, type Snapshot } from './pricing/table.js';
import { plural } from './report/format.js';
import { boughCacheDir, type Environment } from './environment.js';
import { makeFolderSync } from './make-folder.js';

export const LITELLM_URL = 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json';
const TABLE_FILE = 'litellm-model-prices.json';
const META_FILE = 'litellm-model-prices.meta.json';
/** A download with fewer priced models than this is not LiteLLM's table (an error page, a truncation). */
const MIN_PRICED_MODELS = 500;
const DOWNLOAD_TIMEOUT_MS = 60_000;
/** LiteLLM's table is under 2 MB: a file far larger is no price table (a link to /dev/zero, a log). */
const MAX_TABLE_BYTES = 64 * 1024 * 1024;

interface Meta {
  source: string;
  /** YYYY-MM-DD of the content (bundled) or of the download (cache). */
  date: string;
  sha256: string;
}

/** --prices FILE, else the newer of the downloaded and the bundled copy. */
export async function loadPriceTable(pricesFile: string | null, environment: Environment): Promise<PriceTable> {
  if (pricesFile !== null) {
    // A pipe too (`--prices <(curl …)`), read without waiting for a writer that never comes.
    const text = await readRegularFile(pricesFile, MAX_TABLE_BYTES, { pipe: true }).catch((error: unknown) => {
      throw new BoughError(`Cannot read the price table ${pricesFile}: ${whyNotRead(error)}.`, { cause: error });
    });
    const modified = (await stat(pricesFile)).mtime.toISOString().slice(0, 10);
    const table = tableFrom(text, pricesFile, { origin: 'file', label: `LiteLLM-format table ${pricesFile} (modified ${modified})`, date: modified });
    // A table of one's own models may be short, but one that prices none would leave every record unpriced without a word.
    if (![...table.entries.values()].some((entry) => entry.base !== null)) {
      throw new BoughError(`The price table ${pricesFile} prices no model (no entry with input_cost_per_token and output_cost_per_token): every record would be unpriced.`);
    }
    return table;
  }
  const bundledDir = join(PACKAGE_ROOT, 'data');
  const bundled = await readMeta(bundledDir);
  const cached = await readMeta(boughCacheDir(environment));
  /** What was wrong with a newer download, when there is one and it could not be used. */
  let unusable: 'missing' | 'unreadable' | 'damaged' | null = null;
  if (cached && (!bundled || cached.date > bundled.date)) {
    let missing = false;
    const text = await readRegularFile(join(boughCacheDir(environment), TABLE_FILE), MAX_TABLE_BYTES).catch((error: NodeJS.ErrnoException) => {
      missing = error.code === 'ENOENT';
      return null;
    });
    // The download is checked against the hash taken when it was made: a price changed on disk
    // is as plausible as the true one. A copy that fails is not used, and that is said.
    const table = text !== null && sha256Of(text) === cached.sha256 ? downloadedTable(text, cached) : null;
    if (table !== null) return table;
    // A file there that cannot be read (too large, a folder) is said as such, not as missing.
    unusable = text === null ? (missing ? 'missing' : 'unreadable') : 'damaged';
  }
  const text = await readFile(join(bundledDir, TABLE_FILE), 'utf8');
  const date = bundled?.date ?? null;
  const snapshot: Snapshot = { origin: 'bundled', label: `LiteLLM, ${date ?? 'undated'} (bundled with bough)`, date };
  if (unusable !== null) {
    snapshot.label = `LiteLLM, ${date ?? 'undated'} (bundled with bough; the copy downloaded ${cached?.date} is ${unusable})`;
    snapshot.problem = `the price table downloaded ${cached?.date} (bough prices update) is ${unusable}, so the bundled one of ${date ?? 'unknown date'} was used; run bough prices update again (a table of your own is given with --prices FILE).`;
  }
  return tableFrom(text, 'the bundled price table', snapshot);
}

/**
 * The downloaded table, or null when it does not read as a price table. One from elsewhere than
 * LiteLLM's own address is named by it (regression: two tables of other prices, downloaded the
 * same day, were both "LiteLLM, downloaded" that day).
 */
function downloadedTable(text: string, { date, source }: Meta): PriceTable | null {
  const label = source === '' || source === LITELLM_URL ? `LiteLLM, downloaded ${date} (bough prices update)` : `LiteLLM-format table downloaded ${date} from ${source} (bough prices update --url)`;
  try {
    return tableFrom(text, 'the downloaded price table', { origin: 'cache', label, date });
  } catch {
    return null;
  }
}

function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function tableFrom(text: string, what: string, snapshot: Snapshot): PriceTable {
  try {
    // A byte-order mark, as Windows editors save one, is no part of the JSON.
    return parsePriceTable(JSON.parse(text.replace(/^\uFEFF/, '')), snapshot);
  } catch (error) {
    throw new BoughError(`${what} is not a LiteLLM price table (${(error as Error).message}).`, { cause: error });
  }
}

async function readMeta(dir: string): Promise<Meta | null> {
  try {
    const meta = JSON.parse(await readRegularFile(join(dir, META_FILE), MAX_TABLE_BYTES)) as Partial<Meta>;
    return typeof meta.date === 'string' && /^\d{4}-\d{2}-\d{2}/.test(meta.date)
      ? { source: String(meta.source ?? ''), date: meta.date, sha256: String(meta.sha256 ?? '') }
      : null;
  } catch {
    return null;
  }
}

export interface UpdateResult {
  path: string;
  models: number;
  sha256: string;
  date: string;
}

/** Downloads the newest table into the cache folder, replacing the previous download only once the new one checks out. */
export async function updatePrices(url: string, environment: Environment, now: Date): Promise<UpdateResult> {
  let text: string;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
    const body = await bodyUpTo(response, MAX_TABLE_BYTES).catch((error: unknown) => {
      if (error instanceof TypeError) throw new BoughError(`What ${url} sent is not a LiteLLM price table (it is not UTF-8 text); nothing was changed.`, { cause: error });
      throw error;
    });
    if (body === null) throw new BoughError(`What ${url} sends is larger than a price table may be (${MAX_TABLE_BYTES / 1024 / 1024} MB; LiteLLM's is under 2 MB); nothing was changed.`);
    text = body.replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof BoughError) throw error;
    throw new BoughError(`Could not download the price table from ${url}: ${downloadProblem(error)}. Reports keep using the table they used before.`, {
      cause: error,
    });
  }
  let models: number;
  try {
    const table = parsePriceTable(JSON.parse(text), { origin: 'cache', label: '', date: null });
    models = [...table.entries.values()].filter((entry) => entry.base !== null).length;
  } catch (error) {
    throw new BoughError(`What ${url} sent is not a LiteLLM price table (${(error as Error).message}); nothing was changed.`, { cause: error });
  }
  if (models < MIN_PRICED_MODELS) {
    throw new BoughError(`What ${url} sent prices only ${plural(models, 'model')}, so it is not LiteLLM's table; nothing was changed.`);
  }
  const dir = boughCacheDir(environment);
  const sha256 = sha256Of(text);
  const meta: Meta = { source: url, date: now.toISOString().slice(0, 10), sha256 };
  const staging = join(dir, `.${TABLE_FILE}.${randomBytes(4).toString('hex')}`);
  try {
    makeFolderSync(dir);
    try {
      await writeFile(staging, text);
      await rename(staging, join(dir, TABLE_FILE));
    } finally {
      await rm(staging, { force: true });
    }
    await writeFile(join(dir, META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
  } catch (error) {
    // The cache folder bough was pointed at cannot take it (a file, a folder it may not write).
    throw new BoughError(`Could not keep the price table in ${dir}: ${whyUnwritable(error)}. Reports keep using the table they used before; set BOUGH_CACHE_DIR to a folder bough may write.`, { cause: error });
  }
  return { path: join(dir, TABLE_FILE), models, sha256, date: meta.date };
}

/**
 * A response's body as text, read no further than `limit` bytes: null past it (regression: 85 MB
 * were taken, and replaced the table in use with one no later run would read).
 */
async function bodyUpTo(response: Response, limit: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel();
    return null;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(read.value);
  }
  // Not UTF-8 (which JSON is) is refused: each bad byte read as U+FFFD took three, and a table
  // under the limit as sent was over it as kept (regression, a hostile look).
  return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
}

/** Why a download failed, in words: Node's fetch says only "fetch failed", its cause the rest. */
function downloadProblem(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host could not be found (no network, or no name server)';
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ENETUNREACH' || code === 'EHOSTUNREACH') return `the network did not reach it (${code})`;
  if ((error as Error).name === 'TimeoutError') return 'no answer in time';
  return cause?.message ? `${(error as Error).message}: ${cause.message}` : (error as Error).message;
}
