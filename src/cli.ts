// Command-line parsing only: turns arguments into a call of build() and its result into one line.
// Exit codes: 0 success (even with warnings), 1 a fatal error told in a sentence, 2 bad usage.

import { homedir } from 'node:os';
import { relative } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { build, type BuildResult } from './build.js';
import { BoughError } from './errors.js';
import { formatUsd, plural } from './report/format.js';
import { packageVersion } from './package-files.js';
import { OMIT_KINDS, type OmitKind } from './share/share.js';
import { LITELLM_URL, loadPriceTable, pricesCacheDir, updatePrices } from './price-files.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  isTty: boolean;
  now: () => Date;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  home: homedir(),
  isTty: Boolean(process.stderr.isTTY),
  now: () => new Date(),
};

interface BuildFlags {
  out: string;
  quiet?: boolean;
  tz: string;
  prices?: string;
  priceSubscriptions?: boolean;
  redact?: boolean;
  omit?: OmitKind[];
  share?: boolean;
}

export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let exitCode = 0;
  const program = new Command('bough')
    .description('Turn coding-agent session files into a self-contained static HTML report.')
    .version(await packageVersion(), '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run bough --help for usage)');

  program
    .command('build', { isDefault: true })
    .description('read sessions and write the report folder (the default command)')
    .argument('[inputs...]', 'session files or folders (searched recursively); default: the agents\' own folders')
    .option('-o, --out <dir>', 'the report folder to write', 'bough-report')
    .option('--tz <zone>', 'time zone for dates in the report (IANA name)', timeZoneOf, localTimeZone())
    .option('--prices <file>', 'price with this LiteLLM-format table instead of the bundled or downloaded one')
    .option('--price-subscriptions', 'price subscription providers (GitHub Copilot, Gemini CLI) at API rates instead of $0')
    .option('--redact', 'replace secrets (API keys, tokens, private keys, passwords) with [REDACTED:kind] and your home folder with ~')
    .option('--omit <kinds>', `leave whole kinds of content out: ${OMIT_KINDS.join(', ')}`, omitKindsOf)
    .option('--share', 'for sending the report to someone: --redact --omit thinking')
    .option('-q, --quiet', 'print nothing but errors')
    .action(async (inputs: string[], flags: BuildFlags) => {
      exitCode = await runBuild(inputs, flags, io);
    });

  const prices = program.command('prices').description("LiteLLM's price table: which one is used, and updating it");
  prices
    .command('show', { isDefault: true })
    .description('say which price table reports use now')
    .option('--prices <file>', 'a LiteLLM-format table to check instead')
    .action(async (flags: { prices?: string }) => {
      exitCode = await guarded(io, async () => {
        const table = await loadPriceTable(flags.prices ?? null, { env: io.env, home: io.home });
        const priced = [...table.entries.values()].filter((e) => e.base !== null).length;
        io.stdout(`${table.snapshot.label}: ${priced.toLocaleString('en-US')} priced models\n`);
      });
    });
  prices
    .command('update')
    .description(`download the newest table from LiteLLM's repository into ${pricesCacheDir({ env: io.env, home: io.home })}`)
    .option('--url <url>', 'where to download it from', LITELLM_URL)
    .action(async (flags: { url: string }) => {
      exitCode = await guarded(io, async () => {
        const result = await updatePrices(flags.url, { env: io.env, home: io.home }, io.now());
        io.stdout(`bough: ${result.models.toLocaleString('en-US')} priced models saved to ${result.path}; reports now use this table.\n`);
      });
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with code 0; everything else commander rejects is bad usage.
      return error.exitCode === 0 ? 0 : 2;
    }
    throw error;
  }
}

/** Runs a command, turning a BoughError into its sentence and exit code 1. */
async function guarded(io: CliIo, run: () => Promise<void>): Promise<number> {
  try {
    await run();
    return 0;
  } catch (error) {
    if (error instanceof BoughError) {
      io.stderr(`bough: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

async function runBuild(inputs: string[], flags: BuildFlags, io: CliIo): Promise<number> {
  const progress = !flags.quiet && io.isTty ? (message: string) => io.stderr(`\r\u001b[2K${message}`) : undefined;
  let result: BuildResult;
  try {
    result = await build({
      inputs,
      out: flags.out,
      timeZone: flags.tz,
      pricesFile: flags.prices ?? null,
      priceSubscriptions: flags.priceSubscriptions ?? false,
      redact: flags.redact === true || flags.share === true,
      omit: [...new Set([...(flags.omit ?? []), ...(flags.share ? (['thinking'] as const) : [])])],
      environment: { env: io.env, home: io.home },
      now: io.now(),
      progress,
    });
  } catch (error) {
    if (progress) io.stderr('\r\u001b[2K');
    if (error instanceof BoughError) {
      io.stderr(`bough: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (progress) io.stderr('\r\u001b[2K');
  if (!flags.quiet) {
    if (result.usedSamples) {
      const searched = result.places.map((p) => p.path).join(', ');
      io.stderr(`bough: no sessions found in ${searched}; building the bundled sample sessions instead.\n`);
    }
    io.stdout(`${summaryLine(result)}\n`);
  }
  return 0;
}

function summaryLine({ summary, outDir }: BuildResult): string {
  const { totals, diagnostics } = summary;
  const where = relative(process.cwd(), `${outDir}/index.html`) || `${outDir}/index.html`;
  return [
    `bough: ${plural(totals.sessions, 'session')} from ${plural(diagnostics.sessionFiles, 'file')}`,
    `${plural(diagnostics.skippedLines, 'skipped line')}`,
    `${formatUsd(totals.cost.bough)} by bough (${formatUsd(totals.cost.recorded)} recorded)`,
    ...(totals.unpricedModels.length > 0 ? [`${plural(totals.unpricedModels.length, 'unpriced model')}`] : []),
    `report in ${where}`,
  ].join(' · ');
}

function omitKindsOf(value: string): OmitKind[] {
  const kinds = value.split(',').map((kind) => kind.trim()).filter(Boolean);
  const unknown = kinds.filter((kind) => !(OMIT_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0 || kinds.length === 0) {
    throw new InvalidArgumentError(`say which of ${OMIT_KINDS.join(', ')} to leave out (got ${JSON.stringify(value)})`);
  }
  return kinds as OmitKind[];
}

function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function timeZoneOf(value: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value;
  } catch {
    throw new InvalidArgumentError(`unknown time zone ${JSON.stringify(value)} (use an IANA name such as Europe/Berlin or UTC)`);
  }
}
