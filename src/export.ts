// `bough export`: one session as a single HTML file that needs nothing beside it — its styles and
// script inside it (allowed by their hashes), images as data: URLs — for sending one conversation.
// Read, priced, redacted and rendered exactly as in a report folder.

import { realpath, stat } from 'node:fs/promises';
import { basename, resolve, sep } from 'node:path';
import { reportContext } from './build.js';
import { collect } from './reading/collect.js';
import { discover } from './discover.js';
import { resolvedHome, type Environment } from './environment.js';
import { BoughError } from './errors.js';
import { WARMUP_EXPORTED, WARMUP_ONLY } from './ledger/ledger.js';
import { ALL_TIME, scopeLabel } from './ledger/scope.js';
import { exportSourceHash, writeSingleFile } from './output/single-file.js';
import { loadAssets, loadTemplates, packageVersion } from './package-files.js';
import { assignPages } from './report/pages.js';
import { createRenderer } from './report/render.js';
import { sessionPageView, sessionPartView } from './report/session-page.js';
import { renderedEntries } from './report/session-pages.js';
import { byCount, sharingLine } from './report/overview-pages.js';
import { entryKeySecret } from './share/key-secret.js';
import { createSharer, type OmitKind } from './share/share.js';
import { sha256Hex } from './sha256.js';
import { compressionOf, compressionOfBytes, howToExport } from './sources/compressed.js';

export interface ExportOptions {
  file: string;
  out: string | null;
  timeZone: string;
  redact: boolean;
  omit: readonly OmitKind[];
  pricesFile: string | null;
  priceSubscriptions: boolean;
  environment: Environment;
}

export interface ExportResult {
  out: string;
  title: string;
  bytes: number;
  /** What was redacted and left out, as summary.json says it of a report. */
  sharing: { redacted: boolean; redactions: Record<string, number>; omitted: string[] };
  /** Lines of the session file skipped as damaged (the page lists them). */
  skippedLines: number;
}

export async function exportSession(options: ExportOptions): Promise<ExportResult> {
  const scope = { timeZone: options.timeZone, period: ALL_TIME, project: null, sources: null };
  const omitted = [...new Set(options.omit)];
  const sharer = createSharer({ redact: options.redact, omit: new Set(options.omit), home: options.environment.home, resolvedHome: options.redact ? resolvedHome(options.environment.home) : null });
  // One session file: a folder (or an empty path, which names the current one) would export whichever session came first.
  const given = options.file.trim() === '' ? null : await stat(options.file).catch(() => undefined);
  if (given === null || given?.isDirectory()) {
    throw new BoughError(`export takes one session file${given === null ? '' : `, and ${options.file} is a folder`}. Give the path of a .jsonl file.`);
  }
  // Discovery takes in the sub-agents its agent keeps beside it, in files of their own.
  const discovery = await discover([options.file], options.environment);
  const collected = await collect(discovery.files, { sharer, keepContent: true });
  // The file given, wherever its companions sort.
  const givenPath = resolve(options.file);
  const main = collected.ledgers.find((ledger) => collected.sourceOf.get(ledger.key) === givenPath);
  if (!main) {
    // Compressed: said with how to read it, as a build says it.
    // The file given's, not a sub-agent's beside it (whose command would decompress that one).
    const compressed = [...discovery.diagnostics, ...collected.diagnostics].find((d) => d.reason === 'compressed-file' && (d.file === givenPath || d.file === sharer.text(givenPath)));
    // Told to export a copy: a build's way (a folder of its own, given too) is no export's.
    if (compressed) {
      const compression = (await compressionOfBytes(givenPath)) ?? compressionOf(givenPath);
      throw new BoughError(`${options.file} is compressed (${compression}), so not read: ${howToExport(options.file, compression)}.`);
    }
    const why = collected.diagnostics.find((d) => d.file === sharer.text(givenPath))?.detail ?? collected.diagnostics[0]?.detail;
    throw new BoughError(`${options.file} is not a session file bough can read${why ? `: ${why}` : ''}.`);
  }
  const report = await reportContext(discovery, collected, { inputs: [options.file], scope, pricesFile: options.pricesFile, priceSubscriptions: options.priceSubscriptions, environment: options.environment });
  const session = report.data.sessions.find((s) => s.key === main.key) ?? report.data.sessions.find((s) => s.subagents.some((sub) => sub.key === main.key));
  const content = collected.content;
  if (!session || !content) throw new BoughError(`${options.file} holds nothing bough can show.`);
  const time = { timeZone: options.timeZone };
  const page = sessionPageView(content.get(session.key), session, {
    subagentFile: (key) => content.get(key),
    pages: assignPages(report.data, time),
    time,
    price: report.price,
    scope,
    scopeLabel: scopeLabel(scope),
    projectName: report.data.projects[0]?.name ?? '',
    neighbours: { previous: null, next: null },
    standalone: true,
  });
  // A sub-agent's file exported on its own: its session's transcript is not read, not missing
  // (it may well be beside it), and its subtitle says whose transcript it is.
  // A warmup's file likewise: whether its session was then given a prompt is not known here.
  const ownTitle = page.title === WARMUP_ONLY ? WARMUP_EXPORTED : page.title.replace(/ \(no main transcript\)$/, '');
  const view = main.subagentOf !== null && session.key === main.key ? { ...page, title: ownTitle } : page;
  // The file given, by a hash of its real path keyed with this machine's secret: two session files
  // of one id (a Codex thread whose prompt was edited, Claude Code's file in two configuration
  // folders) are told apart by it; one file by a link or another path is the same file, shared or
  // not (a shared export takes the place of its plain one). Keyed, so that a page sent on tells no
  // one whether a path they guess is its file's. The secret is kept out of the file read and its
  // sub-agents' folder only: a file in the home holding the configuration folder is keyed too.
  // Where it cannot be had, the path's own hash, its home written `~`: still one per file (a path
  // redacted made files of other homes and of folders named by tokens one).
  const realPath = await realpath(givenPath).catch(() => givenPath);
  const machine = await entryKeySecret(options.environment, [givenPath, givenPath.replace(/\.jsonl$/i, '')]);
  const home = resolvedHome(options.environment.home) ?? options.environment.home;
  const homeWritten = realPath === home || realPath.startsWith(`${home}${sep}`) ? `~${realPath.slice(home.length)}` : realPath;
  const sourceHash = machine.problem === null ? sha256Hex(`${machine.secret}\u0000export\u0000${realPath}`) : sha256Hex(homeWritten);
  const renderer = createRenderer(await loadTemplates());
  const entries = renderedEntries(view, renderer);
  // One file, one part: a page sent on its own is read whole.
  const whole = { parts: [view.sections.map((s, i) => ({ section: i, from: 0, to: s.entries.length }))] };
  const assets = await loadAssets();
  const html = renderer.standalone(
    'session',
    {
      title: view.title,
      // The file, the zone its times are in and the prices it was priced with: a page sent on its own says all three.
      scope: `${sharer.text(session.ledger.path.split(/[\\/]/).pop() ?? '')} · times in ${options.timeZone} · prices: ${sharer.text(report.table.snapshot.label)}`,
      generator: `bough ${await packageVersion()}`,
      current: null,
      sharing: sharingLine(options.redact, sharer.redactions, omitted),
      sourceHash,
    },
    sessionPartView(view, whole, 0, (range) => entries.html(range), () => ''),
    { css: assets.get('bough.css')?.toString('utf8') ?? '', js: assets.get('bough.js')?.toString('utf8') ?? '' },
  );
  // A sub-agent's file carries its session's id: named after itself too, its export never takes
  // the place of the session's own.
  const ownName = main.subagentOf === null ? session.ledger.sessionId : `${main.sessionId}-${basename(main.path).replace(/\.jsonl$/i, '')}`;
  const named = options.out ?? (await defaultExportName(ownName, sourceHash));
  const out = resolve(named);
  // As given: a trailing separator says the user meant a folder.
  await writeSingleFile(named, html, discovery.files);
  const skippedLines = [session, ...session.subagents].reduce((sum, part) => sum + part.ledger.damaged, 0);
  return { out, title: view.title, bytes: Buffer.byteLength(html), sharing: { redacted: options.redact, redactions: Object.fromEntries(byCount(sharer.redactions)), omitted }, skippedLines };
}

/**
 * The file an export is written to when -o does not say: `name` (the session's id), unless that
 * holds the export of another file (which it would replace; regression: the second rollout of an
 * edited Codex thread took the first's export's place, said nowhere), then the name and the first
 * characters of the file's hash.
 */
async function defaultExportName(name: string, sourceHash: string): Promise<string> {
  const plain = exportName(name);
  const there = await exportSourceHash(resolve(plain));
  return typeof there === 'string' && there !== sourceHash ? exportName(`${name.slice(0, 72)}-${sourceHash.slice(0, 6)}`) : plain;
}

/**
 * The file an export is written to when --out does not say: the session id as a plain name, never
 * hidden (`.bashrc`), never read as an option (`-rf`), never `..`.
 */
export function exportName(sessionId: string): string {
  const name = sessionId.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').replace(/[.-]+$/, '').slice(0, 80);
  return `${name || 'session'}.html`;
}
