// The orchestrator: discover → read → model → report → write, collecting diagnostics on the way.

import { isAbsolute, parse, relative, resolve, sep } from 'node:path';
import { summariseDiagnostics, type Diagnostic } from './diagnostics.js';
import { discover, type Discovery, type Place } from './discover.js';
import { BoughError } from './errors.js';
import { buildArchive, type Archive } from './model/archive.js';
import { openReportFolder } from './output/report-folder.js';
import { loadAssets, loadTemplates, packageVersion, SAMPLES_DIR } from './package-files.js';
import { formatDateTime, plural } from './report/format.js';
import { shareable, type OmitKind } from './share/share.js';
import { dataQualityView, indexPageView, projectPageView, sharingLine, type OverviewContext } from './report/overview-pages.js';
import { assignPages, DATA_QUALITY_PAGE, hrefFrom, INDEX_PAGE } from './report/pages.js';
import { createRenderer, CONTENT_SECURITY_POLICY, type LayoutView } from './report/render.js';
import { sessionPageView } from './report/session-page.js';
import { buildSummary, type Summary } from './report/summary.js';
import { usageCsv } from './report/usage-csv.js';
import { loadPriceTable } from './price-files.js';
import { createPricer } from './pricing/price.js';
import type { Snapshot } from './pricing/table.js';
import type { Environment } from './sources/pi/paths.js';
import { piLocalProviders } from './sources/pi/models-json.js';
import { readSessionFile } from './sources/read.js';
import { EMPTY_READ_CONTEXT, type ReadContext } from './sources/source-input.js';
import type { SessionFile } from './types.js';

export interface BuildOptions {
  inputs: readonly string[];
  out: string;
  /** A LiteLLM-format price table to use instead of the bundled or downloaded one. */
  pricesFile?: string | null;
  /** Price subscription providers at API rates instead of $0. */
  priceSubscriptions?: boolean;
  /** Replace secrets and the home folder in everything written. */
  redact?: boolean;
  /** Whole kinds of content to leave out of the report. */
  omit?: readonly OmitKind[];
  timeZone: string;
  environment: Environment;
  now: Date;
  /** Called with short progress notes (the CLI shows them on a terminal). */
  progress?: (message: string) => void;
}

export interface BuildResult {
  outDir: string;
  summary: Summary;
  /** No sessions were found in the default places, so the bundled samples were used. */
  usedSamples: boolean;
  places: Place[];
}

export interface ReadResult {
  files: SessionFile[];
  diagnostics: Diagnostic[];
  candidates: number;
}

const READ_CONCURRENCY = 4;

export async function build(options: BuildOptions): Promise<BuildResult> {
  const outDir = resolve(options.out);
  let discovery = await discover(options.inputs, options.environment);
  refuseUnsafeOut(outDir, discovery, options.environment.home);
  const searched = discovery.places;
  let usedSamples = false;
  const context: ReadContext = { piLocalProviders: await piLocalProviders(options.environment) };
  let read = await readAll(discovery.files, options.progress, context);
  if (read.files.length === 0) {
    if (!discovery.usedDefaults) throw new BoughError(noSessionsSentence(discovery));
    // A first run on a machine without sessions still shows what a report looks like.
    usedSamples = true;
    discovery = await discover([SAMPLES_DIR], options.environment);
    refuseUnsafeOut(outDir, discovery, options.environment.home);
    read = await readAll(discovery.files, options.progress, context);
  }

  const omit = new Set(options.omit ?? []);
  const shared = shareable(read.files, read.diagnostics, { redact: options.redact ?? false, omit, home: options.environment.home });

  options.progress?.(`modelling ${plural(shared.files.length, 'session')}`);
  const table = await loadPriceTable(options.pricesFile ?? null, options.environment);
  const price = createPricer(table, { subscriptionsAtApiPrices: options.priceSubscriptions ?? false });
  const archive = buildArchive(shared.files, { price });
  const diagnostics = [...shared.diagnostics, ...shared.files.flatMap((f) => f.diagnostics)];
  const notice = usedSamples
    ? `No sessions were found in ${searched.map((p) => shared.text(p.path)).join(', ')}, so this report shows bough's bundled sample sessions.`
    : null;
  const sharing: Sharing = { text: shared.text, redactions: shared.redactions, redacted: options.redact ?? false, omitted: [...omit] };
  const summary = await writeReport(archive, table.snapshot, sharing, diagnostics, read, discovery, notice, outDir, options);
  return { outDir, summary, usedSamples, places: usedSamples ? searched : discovery.places };
}

export async function readAll(
  paths: readonly string[],
  progress?: (message: string) => void,
  context: ReadContext = EMPTY_READ_CONTEXT,
): Promise<ReadResult> {
  const files: (SessionFile | null)[] = new Array(paths.length).fill(null);
  const diagnostics: Diagnostic[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < paths.length) {
      const index = next++;
      const outcome = await readSessionFile(paths[index] as string, context);
      if (outcome.kind === 'session') files[index] = outcome.file;
      else diagnostics.push(...outcome.diagnostics);
      if (++done % 25 === 0 || done === paths.length) progress?.(`read ${done}/${paths.length} files`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, paths.length) }, worker));
  return { files: files.filter((f): f is SessionFile => f !== null), diagnostics, candidates: paths.length };
}

/** What was removed for sharing, for the report to say. */
interface Sharing {
  text: (value: string) => string;
  redactions: ReadonlyMap<string, number>;
  redacted: boolean;
  omitted: OmitKind[];
}

async function writeReport(
  archive: Archive,
  snapshot: Snapshot,
  sharing: Sharing,
  diagnostics: Diagnostic[],
  read: ReadResult,
  discovery: Discovery,
  notice: string | null,
  outDir: string,
  options: BuildOptions,
): Promise<Summary> {
  const version = await packageVersion();
  const generator = `bough ${version}`;
  const time = { timeZone: options.timeZone };
  const pages = assignPages(archive, time);
  const renderer = createRenderer(await loadTemplates());
  const diagnosticsSummary = summariseDiagnostics(diagnostics, read.candidates, read.files.length);
  const overview: OverviewContext = {
    pricesLabel: snapshot.label,
    pages,
    time,
    generated: `Generated ${formatDateTime(options.now.getTime(), time)} (${options.timeZone}) by ${generator} from ${plural(read.files.length, 'session file')}.`,
    notice,
    sharing: sharingLine(sharing.redacted, sharing.redactions, sharing.omitted),
    inputs: discovery.places.map((place) => ({
      path: sharing.text(place.path),
      note: place.exists ? plural(place.files, 'candidate file') : 'not found',
    })),
    diagnostics: diagnosticsSummary,
  };
  const layout = (title: string, page: string): LayoutView => ({
    title,
    root: hrefFrom(page, ''),
    generator,
    csp: CONTENT_SECURITY_POLICY,
  });

  const folder = await openReportFolder(outDir, generator);
  try {
    await folder.write(INDEX_PAGE, renderer.render('index', layout('Overview', INDEX_PAGE), indexPageView(archive, overview)));
    await folder.write(
      DATA_QUALITY_PAGE,
      renderer.render('data-quality', layout('Data quality', DATA_QUALITY_PAGE), dataQualityView(diagnostics, overview)),
    );
    for (const project of archive.projects) {
      const page = pages.project.get(project) as string;
      const view = projectPageView(project, overview);
      await folder.write(page, renderer.render('project', layout(view.title, page), view));
    }
    let rendered = 0;
    for (const session of archive.sessions) {
      const page = pages.session.get(session) as string;
      const view = sessionPageView(session, { pages, time, prices: archive.prices });
      await folder.write(page, renderer.render('session', layout(view.title, page), view));
      if (++rendered % 50 === 0) options.progress?.(`rendered ${rendered}/${archive.sessions.length} sessions`);
    }
    for (const [path, content] of await loadAssets()) await folder.write(`assets/${path}`, content);
    const summary = buildSummary(archive, {
      pages,
      generator: { name: 'bough', version },
      prices: { source: 'litellm', snapshot: snapshot.label, date: snapshot.date, origin: snapshot.origin },
      diagnostics: diagnosticsSummary,
      diagnosticList: diagnostics,
      sharing: { redacted: sharing.redacted, redactions: Object.fromEntries(sharing.redactions), omitted: sharing.omitted },
    });
    await folder.write('summary.json', `${JSON.stringify(summary, null, 2)}\n`);
    await folder.write('usage.csv', usageCsv(archive));
    await folder.commit();
    return summary;
  } catch (error) {
    await folder.abort();
    throw error;
  }
}

function noSessionsSentence(discovery: Discovery): string {
  const where = discovery.places.map((p) => p.path).join(', ');
  return discovery.files.length === 0
    ? `No session files (*.jsonl) found in ${where}. Point bough at a folder of agent sessions.`
    : `None of the ${plural(discovery.files.length, 'file')} found in ${where} is a session file bough can read. See the files' first lines, or point bough at a folder of agent sessions.`;
}

/** A report must never land inside what it reads, nor replace a home or root folder. */
function refuseUnsafeOut(outDir: string, discovery: Discovery, home: string): void {
  if (outDir === parse(outDir).root || outDir === resolve(home)) {
    throw new BoughError(`Refusing to write the report to ${outDir}: choose a folder of its own with --out.`);
  }
  for (const place of discovery.places) {
    if (!place.exists) continue;
    const inside = relative(place.path, outDir);
    const outside = inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
    if (!outside) {
      throw new BoughError(`Refusing to write the report to ${outDir}: it is inside the input ${place.path}. Choose another --out.`);
    }
  }
}
