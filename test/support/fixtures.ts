// Shared helpers for tests: where fixtures live, and reading them through bough's own pipeline
// (read → ledger → claims → price → report data), in process.

import { join, resolve } from 'node:path';
import { collect } from '../../src/reading/collect.js';
import { claimEntries } from '../../src/ledger/claims.js';
import { ALL_TIME, type Scope } from '../../src/ledger/scope.js';
import { loadPriceTable } from '../../src/price-files.js';
import { createPricer, type Pricer } from '../../src/pricing/price.js';
import { buildReportData, type ReportData, type SessionData } from '../../src/report/data.js';
import { readSessionFile } from '../../src/sources/read.js';
import { CLAIM_RULES, priceHints } from '../../src/sources/registry.js';
import type { SessionFile } from '../../src/types.js';

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
export const FIXTURES = join(PROJECT_ROOT, 'fixtures');
export const SHARED_CORPUS = resolve(PROJECT_ROOT, '../shared/corpus');

/** Everything, in UTC. */
export const ALL_UTC: Scope = { timeZone: 'UTC', period: ALL_TIME, project: null, sources: null };

export function piFixture(name: string): string {
  return join(FIXTURES, 'pi', name);
}

export async function readPiFixture(name: string): Promise<SessionFile> {
  const outcome = await readSessionFile(piFixture(name));
  if (outcome.kind !== 'session') throw new Error(`${name} was not read as a session: ${JSON.stringify(outcome.diagnostics)}`);
  return outcome.file;
}

let bundledPricer: Promise<Pricer> | null = null;

/** bough's pricer over the bundled LiteLLM table (no downloaded one: the environment is empty). */
export function pricer(): Promise<Pricer> {
  bundledPricer ??= loadPriceTable(null, { env: {}, home: '/nonexistent' }).then(async (table) => createPricer(table, { subscriptionsAtApiPrices: false, hints: await priceHints({ env: {}, home: '/nonexistent' }) }));
  return bundledPricer;
}

/** The report data of some session files, as `build` and `stats` compute it. */
export async function reportOf(paths: string[], scope: Scope = ALL_UTC): Promise<ReportData> {
  const { ledgers } = await collect(paths, { keepContent: false });
  return buildReportData(ledgers, claimEntries(ledgers, CLAIM_RULES), await pricer(), scope);
}

/** One session of report data, by its file. */
export function sessionAt(data: ReportData, path: string): SessionData {
  const session = data.sessions.find((s) => s.ledger.path === path);
  if (!session) throw new Error(`no session for ${path} in ${data.sessions.map((s) => s.ledger.path).join(', ')}`);
  return session;
}

export { tempDir } from './temp-dirs.js';
