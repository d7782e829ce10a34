// Command-line parsing only: turns arguments into a call of build() and its result into one line.
// Exit codes: 0 success (even with warnings), 1 a fatal error told in a sentence, 2 bad usage.

import { existsSync, fstatSync, lstatSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { build, type BuildResult } from './build.js';
import { placesLine, type Discovery } from './discover.js';
import { exportSession } from './export.js';
import { boughCacheDir, machineTimeZone, machineTimeZoneProblem, type Environment } from './environment.js';
import { BoughError, systemTrouble } from './errors.js';
import { parsePeriod, parseSources, ScopeError, type Scope } from './ledger/scope.js';
import { formatCount, formatUsd, plural, sessionsSaid } from './report/format.js';
import { STATS_GROUPINGS, type StatsGrouping, type Summary } from './report/schema.js';
import { packageVersion } from './package-files.js';
import { createSharer, OMIT_KINDS, type OmitKind } from './share/share.js';
import { stats, statsText } from './stats.js';
import { displayWidth, fitColumns, printable, terminalLine } from './terminal-text.js';
import { canonicalZone } from './time-zone.js';
import { writeWhole } from './output/report-folder.js';
import { LITELLM_URL, loadPriceTable, updatePrices } from './price-files.js';
import { wellFormedStrings } from './unicode-text.js';
import { threadsSettingProblem } from './threads/pool.js';
import { physicalPath } from './physical-path.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** Standard error is a terminal: progress may be shown there. */
  isTty: boolean;
  /** How wide that terminal is now (it may be resized during a run), when it says. */
  columns?: () => number | undefined;
  /** Standard output is a terminal: tables may be coloured (unless NO_COLOR is set). */
  stdoutIsTty?: boolean;
  now: () => Date;
}

/** Standard output is a file: known once, on the first write. */
let stdoutIsFile: boolean | undefined;

/**
 * Writes to standard output. Node writes to a file once and drops what a full disk did not take
 * (`stats --json > out.json` cut at 4 kB, exit 0): to a file, each text is written whole or
 * fails, and the failure goes where a pipe's does (bin/bough.js says it and exits 1).
 */
function writeStdout(text: string): void {
  stdoutIsFile ??= (() => {
    try {
      return fstatSync(1).isFile();
    } catch {
      return false;
    }
  })();
  if (!stdoutIsFile) {
    process.stdout.write(text);
    return;
  }
  try {
    writeWhole(1, Buffer.from(text));
  } catch (error) {
    process.stdout.emit('error', error);
  }
}

const processIo: CliIo = {
  stdout: writeStdout,
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  home: homeFolder(),
  isTty: Boolean(process.stderr.isTTY),
  columns: () => process.stderr.columns,
  stdoutIsTty: Boolean(process.stdout.isTTY),
  now: () => new Date(),
};

/**
 * The user's home: $HOME, or the system's record of the user when it is unset or empty (Node
 * gives "" for an empty one, and "" would make the working folder the home bough reads, and writes
 * its secret into).
 */
function homeFolder(): string {
  const home = homedir();
  if (home !== '') return home;
  try {
    return userInfo().homedir;
  } catch {
    return '/nonexistent';
  }
}

/** The flags that say what a report covers and how it is priced: the same on build and stats. */
interface ScopeFlags {
  tz: string;
  since?: string;
  until?: string;
  month?: string;
  project?: string;
  source?: string;
  /** --source's other name. */
  agent?: string;
  prices?: string;
  priceSubscriptions?: boolean;
  quiet?: boolean;
}

interface BuildFlags extends ScopeFlags {
  out: string;
  redact?: boolean;
  omit?: OmitKind[];
  share?: boolean;
  forgetMissing?: boolean;
  /** False with --no-cache. */
  cache: boolean;
}

interface ExportFlags {
  out?: string;
  tz: string;
  redact?: boolean;
  omit?: OmitKind[];
  share?: boolean;
  prices?: string;
  priceSubscriptions?: boolean;
  quiet?: boolean;
}

/** "1.2 MB" */
function formatBytes(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

interface StatsFlags extends ScopeFlags {
  by: StatsGrouping;
  json?: boolean;
  /** False with --no-cache. */
  cache: boolean;
}

const COMMANDS = ['build', 'stats', 'export', 'prices'];

/** Flags of one value: given twice (--month 2025-12 --month 2025-11), which was meant is not bough's to guess. */
const ONE_VALUE_FLAGS = ['--out', '--since', '--until', '--month', '--tz', '--project', '--prices', '--by', '--url'];

export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  // `bough help nosuch`: commander would print the whole usage and say nothing of the word.
  if (argv[0] === 'help' && argv[1] !== undefined && !COMMANDS.includes(argv[1]) && argv[1] !== 'help') {
    io.stderr(terminalLine(`bough: there is no command “${argv[1]}”: bough has ${COMMANDS.join(', ')} (bough --help says what each does).`));
    return 2;
  }
  // `bough help prices update`: commander's help command takes one word, and printed prices' help.
  // A word that is no command of prices is refused as `bough prices updte` refuses it.
  // An option after it asks for prices' help, as `bough help stats --json` gives stats'.
  if (argv[0] === 'help' && argv[1] === 'prices' && argv[2] !== undefined) {
    return main(argv[2].startsWith('-') ? ['prices', '--help'] : ['prices', argv[2], ...(['show', 'update'].includes(argv[2]) ? ['--help'] : [])], io);
  }
  // `bough Stats --json`: a mistyped command reaches build as its first input, and build's parser
  // would first refuse an option only the meant command takes: the word is said first.
  const first = argv[0];
  const mistyped = first !== undefined && first !== 'help' && !COMMANDS.includes(first) ? mistypedCommand([first], [], io) : null;
  if (mistyped !== null) return mistyped;
  let exitCode = 0;
  const program = new Command('bough')
    .description('Turn coding-agent session files into a self-contained static HTML report.')
    .version(await packageVersion(), '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      // commander's "error: unknown option" in bough's voice, as every other bough message; the
      // argument it quotes shown as bough shows any text for a terminal (an escape as "?").
      // A line break inside it too, so that an argument cannot write a line of bough's own: only
      // commander's own second line, its suggestion, stays one.
      outputError: (text, write) => write(`${commanderLines(oneSentence(text.replace(/^error: /, 'bough: '))).map(printable).join('\n')}\n`),
    })
    .showHelpAfterError('(bough --help says what each command takes)')
    .hook('preAction', (_program, command) => {
      // Counted in the machine's zone, one bough cannot follow: the user hears it counts in UTC.
      const problem = command.getOptionValueSource('tz') === 'default' ? machineTimeZoneProblem(io.env) : null;
      if (problem !== null && command.opts()['quiet'] !== true) io.stderr(terminalLine(`bough: warning: ${problem}`));
      const threads = threadsSettingProblem(io.env);
      if (threads !== null && command.opts()['quiet'] !== true) io.stderr(terminalLine(`bough: warning: ${threads}`));
    });

  const buildCommand = program
    .command('build', { isDefault: true })
    .showHelpAfterError('(bough build --help says what it takes)')
    .description('read sessions and write the report folder (the default command)')
    .argument('[inputs...]', 'session files or folders (searched recursively); default: the agents\' own folders')
    .option('-o, --out <dir>', 'the report folder to write', pathIn(io.home), 'bough-report');
  scopeOptions(buildCommand, io)
    .option('--redact', 'replace secrets (API keys, tokens, private keys, passwords) with [REDACTED:kind] and your home folder with ~')
    .option('--omit <kinds>', `leave whole kinds of content out: ${OMIT_KINDS.join(', ')}`, omitKindsOf)
    .option('--share', 'for sending the report to someone: --redact --omit thinking')
    .option('--forget-missing', "drop what --out's archive keeps of sessions this build does not read or show (files gone, or outside its inputs, period, project or agents)")
    .option('--no-cache', 'read every file and write every page again, reusing nothing from earlier runs (sessions whose files are gone are still kept)')
    .option('-q, --quiet', 'print nothing but errors')
    .action(async (inputs: string[], flags: BuildFlags) => {
      if (flags.out === '-') {
        io.stderr(terminalLine('bough: build writes a report folder, not to standard output: name one with --out, such as bough-report.'));
        exitCode = 2;
        return;
      }
      exitCode = emptyInput(inputs, io) ?? misplacedCommand('build', inputs, argv, io) ?? mistypedCommand(inputs, argv, io) ?? (await runBuild(inputs, flags, io));
    });

  const statsCommand = program
    .command('stats')
    .showHelpAfterError('(bough stats --help says what it takes)')
    .description('print totals as terminal tables or JSON, without writing pages')
    .argument('[inputs...]', 'session files or folders (searched recursively); default: the agents\' own folders')
    .addOption(new Option('--by <grouping>', 'one row per').choices(STATS_GROUPINGS).argParser(groupingOf).default('month'))
    .option('--json', 'print JSON (schema in the README) instead of tables')
    .option('--no-cache', 'read every file again instead of reusing what an earlier run read from unchanged files');
  scopeOptions(statsCommand, io)
    .option('-q, --quiet', 'no progress or warnings, even on a terminal')
    .action(async (inputs: string[], flags: StatsFlags) => {
      exitCode = emptyInput(inputs, io) ?? misplacedCommand('stats', inputs, argv, io) ?? (await runStats(inputs, flags, io));
    });

  program
    .command('export')
    .showHelpAfterError('(bough export --help says what it takes)')
    .description('write one session as a single self-contained HTML file, for sending one conversation')
    .argument('<session-file>', 'the session file to export')
    .option('-o, --out <file>', 'the HTML file to write (default: <session id>.html here)', pathIn(io.home))
    .addOption(timeZoneOption('time zone for dates and times (IANA name)', io))
    .option('--redact', 'replace secrets with [REDACTED:kind] and your home folder with ~')
    .option('--omit <kinds>', `leave whole kinds of content out: ${OMIT_KINDS.join(', ')}`, omitKindsOf)
    .option('--share', 'for sending the file to someone: --redact --omit thinking')
    .option('--prices <file>', 'price with this LiteLLM-format table instead of the bundled or downloaded one', pathIn(io.home))
    .option('--price-subscriptions', 'price subscription providers at API rates instead of $0')
    .option('-q, --quiet', 'print nothing but errors')
    .action(async (file: string, flags: ExportFlags) => {
      if (flags.out === '-') {
        io.stderr(terminalLine('bough: export writes a file, not to standard output: name one with -o, such as session.html.'));
        exitCode = 2;
        return;
      }
      exitCode = emptyInput([file], io, 'a session file') ?? (await guarded(io, async () => {
        const result = await exportSession({
          file: physicalPath(file),
          out: flags.out ?? null,
          timeZone: flags.tz,
          redact: flags.redact === true || flags.share === true,
          omit: [...new Set([...(flags.omit ?? []), ...(flags.share ? (['thinking'] as const) : [])])],
          pricesFile: flags.prices ?? null,
          priceSubscriptions: flags.priceSubscriptions ?? false,
          environment: { env: io.env, home: io.home },
        });
        const said = [
          `bough: “${result.title}” written to ${shownPath(result.out)} (${formatBytes(result.bytes)}, one file, nothing else needed)`,
          ...(result.skippedLines > 0 ? [`${plural(result.skippedLines, 'skipped line')} (listed on the page)`] : []),
          ...sharingSaid(result.sharing),
        ];
        if (!flags.quiet) io.stdout(terminalLine(said.join(' · ')));
      }));
    });

  const prices = program.command('prices').description("LiteLLM's price table: which one is used, and updating it");
  prices
    .command('show', { isDefault: true })
    .showHelpAfterError('(bough prices show --help says what it takes)')
    .description('say which price table reports use now')
    .option('--prices <file>', 'a LiteLLM-format table to check instead', pathIn(io.home))
    // Allowed so that a mistyped command ("prices updte") is named, not reported as an argument too many.
    .allowExcessArguments()
    .action(async (flags: { prices?: string }, command: Command) => {
      // `prices --prices FILE show`: show named after an option is still the command (commander
      // took it for a word); in `prices show show`, the first is.
      const shows = argv.filter((arg, i) => arg === 'show' && i > argv.indexOf('prices') && argv[i - 1] !== '--prices').length;
      const namedLate = command.args[0] === 'show' && shows === 1;
      const words = namedLate ? command.args.slice(1) : command.args;
      if (words.length > 0) {
        // `prices show extra`: show was the command, and takes no word after it.
        const showAt = argv.findIndex((arg, i) => arg === 'show' && i > argv.indexOf('prices') && argv[i - 1] !== '--prices');
        const showNamed = namedLate || (showAt !== -1 && argv.slice(showAt + 1).includes(words[0] as string));
        if (showNamed) io.stderr(terminalLine(`bough: prices show takes no arguments (got “${words[0]}”): bough prices show --help says what it takes.`));
        else io.stderr(terminalLine(`bough: prices has no command “${words[0]}”: use bough prices show or bough prices update.`));
        exitCode = 2;
        return;
      }
      exitCode = await guarded(io, async () => {
        const table = await loadPriceTable(flags.prices ?? null, { env: io.env, home: io.home });
        const priced = [...table.entries.values()].filter((e) => e.base !== null).length;
        if (table.snapshot.problem !== undefined) io.stderr(terminalLine(`bough: warning: ${table.snapshot.problem}`));
        io.stdout(terminalLine(`${table.snapshot.label}: ${plural(priced, 'priced model')}`));
      });
    });
  prices
    .command('update')
    .showHelpAfterError('(bough prices update --help says what it takes)')
    .description(`download the newest table from LiteLLM's repository into ${boughCacheDir({ env: io.env, home: io.home })}`)
    .option('--url <url>', 'where to download it from', urlOf, LITELLM_URL)
    .action(async (flags: { url: string }) => {
      exitCode = await guarded(io, async () => {
        const result = await updatePrices(flags.url, { env: io.env, home: io.home }, io.now());
        io.stdout(terminalLine(`bough: ${plural(result.models, 'priced model')} saved to ${result.path}; reports now use this table.`));
      });
    });

  const named = optionsByName(program);
  const misread = misreadOption(optionsIn(argv, named), named);
  if (misread !== null) {
    io.stderr(terminalLine(`bough: ${misread}.`));
    return 2;
  }
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

/** An option as commander reads it from argv: which, as written, and its value, if it takes one. */
interface GivenOption {
  option: Option;
  given: string;
  value: string | undefined;
  /** How the value was given: the next word, the rest of a short option's word (-ofile), or after `=` (--out=file). */
  form: 'next' | 'glued' | 'equals';
}

/** bough's options, of every command, by each of their names (--out, -o). */
function optionsByName(program: Command): Map<string, Option> {
  const commands = (command: Command): Command[] => [command, ...command.commands.flatMap(commands)];
  const named = new Map<string, Option>();
  for (const option of commands(program).flatMap((command) => command.options)) for (const name of [option.long, option.short]) if (name) named.set(name, option);
  return named;
}

/**
 * The options argv gives, read as commander reads them: a short option that takes a value takes
 * the rest of its word (-qofile), else the next word, whatever it reads. Only bough's own
 * options; the rest is commander's to refuse. Up to `--`.
 */
function optionsIn(argv: readonly string[], named: ReadonlyMap<string, Option>): GivenOption[] {
  const found: GivenOption[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const option = named.get(equals === -1 ? arg : arg.slice(0, equals));
      if (option === undefined) continue;
      if (equals !== -1) found.push({ option, given: arg.slice(0, equals), value: arg.slice(equals + 1), form: 'equals' });
      else if (takesValue(option)) found.push({ option, given: arg, value: argv[++i], form: 'next' });
      else found.push({ option, given: arg, value: undefined, form: 'next' });
      continue;
    }
    if (!/^-[A-Za-z]/.test(arg)) continue;
    for (let at = 1; at < arg.length; at++) {
      const given = `-${arg[at]}`;
      const option = named.get(given);
      if (option === undefined) break;
      if (!takesValue(option)) {
        found.push({ option, given, value: undefined, form: 'next' });
        continue;
      }
      const glued = arg.slice(at + 1);
      found.push(glued === '' ? { option, given, value: argv[++i], form: 'next' } : { option, given, value: glued, form: 'glued' });
      break;
    }
  }
  return found;
}

function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

/**
 * Options commander reads otherwise than they were meant, said as bad usage; null when none.
 * - One of one value given twice (--month 2025-12 --month 2025-11, -o a -ob): which was meant is
 *   not bough's to guess (--source and --omit take each one given).
 * - One of one value whose value is one of bough's options (`export s.jsonl -o --share`, or
 *   `-qo --share`): the file would be named "--share" and the session not redacted, with
 *   nothing said. Only bough's own option names, `--` and clusters of its short options count:
 *   a value may begin with a dash (a Claude Code project folder does).
 * - `-o=file`, which gives -o the value "=file".
 */
function misreadOption(given: readonly GivenOption[], named: ReadonlyMap<string, Option>): string | null {
  const isOption = (word: string) =>
    named.has(word.split('=')[0] ?? word) || ['-h', '--help', '--'].includes(word) || (/^-[A-Za-z]{2,}$/.test(word) && [...word.slice(1)].every((letter) => named.has(`-${letter}`) || letter === 'h'));
  const seen = new Set<string>();
  for (const { option, given: as, value, form } of given) {
    const long = option.long ?? as;
    if (ONE_VALUE_FLAGS.includes(long)) {
      // Named as the user wrote it: `-o a -o b` said "--out", which they had not typed.
      if (seen.has(long)) return `${option.short && as === option.short ? `${as} (${long})` : long} is given more than once, and it takes one value: give it once`;
      seen.add(long);
    }
    if (value === undefined) continue;
    if (form === 'glued' && value.startsWith('=')) return `${as}= gives ${as} the value “${value}”: write ${as} VALUE, or ${long}=VALUE`;
    if (form !== 'equals' && isOption(value)) return `${as} takes a value, and got the option ${value} for it: give ${as} its value (a value that begins like an option goes as ${long}=${value})`;
  }
  return null;
}

/** Runs a command, turning an error bough can say into its sentence and exit code (see failure). */
async function guarded(io: CliIo, run: () => Promise<void>): Promise<number> {
  try {
    await run();
    return 0;
  } catch (error) {
    return failure(error, io);
  }
}

function scopeOptions(command: Command, io: CliIo): Command {
  return command
    .option('--since <date>', 'count from this day (YYYY-MM-DD) or time (ISO), inclusive')
    .option('--until <date>', 'count up to this day or time, inclusive')
    .option('--month <YYYY-MM>', 'count one calendar month')
    .addOption(timeZoneOption('time zone for days, months and dates (IANA name)', io))
    .option('--project <text>', 'only projects whose folder or name contains this text (any case)', projectTextOf)
    // Given twice, both: --source pi --source codex reads as --source pi,codex. --agent says the
    // same (the tables' word for it), not listed: one name in the help.
    .option('--source <agents>', 'only these agents: pi, claude, codex (comma-separated)', bothSources)
    .addOption(new Option('--agent <agents>').hideHelp().argParser(bothSources))
    .option('--prices <file>', 'price with this LiteLLM-format table instead of the bundled or downloaded one', pathIn(io.home))
    .option('--price-subscriptions', 'price subscription providers (GitHub Copilot, Gemini CLI) at API rates instead of $0');
}

function bothSources(value: string, previous: string | undefined): string {
  return previous === undefined ? value : `${previous},${value}`;
}

/** `--by`'s value in any letter case (`--source PI` is taken too); another is bad usage, as commander's choices say. */
function groupingOf(value: string): StatsGrouping {
  const grouping = STATS_GROUPINGS.find((g) => g === value.trim().toLowerCase());
  if (grouping === undefined) throw new InvalidArgumentError(`Allowed choices are ${STATS_GROUPINGS.join(', ')}.`);
  return grouping;
}

/** The scope the flags name; a flag that cannot be understood is bad usage, said in a sentence. */
function scopeOf(flags: ScopeFlags): Scope {
  return {
    timeZone: flags.tz,
    period: parsePeriod({ since: flags.since, until: flags.until, month: flags.month }, flags.tz),
    project: flags.project?.trim() ? flags.project.trim() : null,
    sources: flags.source === undefined && flags.agent === undefined ? null : parseSources([flags.source, flags.agent].filter((v) => v !== undefined).join(',')),
  };
}

/**
 * A progress line written over the last: cut to the terminal's width, short of its last column,
 * as one that wraps leaves its first rows on the screen (only the cursor's row is cleared).
 */
function progressOf(flags: ScopeFlags, io: CliIo): ((message: string) => void) | undefined {
  if (flags.quiet || !io.isTty) return undefined;
  return (message) => {
    const columns = io.columns?.();
    const line = columns !== undefined && columns > 1 && displayWidth(message) > columns - 1 ? `${fitColumns(message, columns - 2)}…` : message;
    io.stderr(`\r\u001b[2K${line}`);
  };
}

/** What bough says of where it looked, redacted as a report that redacts says it. */
function redactedText(io: CliIo): (text: string) => string {
  return createSharer({ redact: true, omit: new Set(), home: io.home }).text;
}

/**
 * With no inputs named, the run's first line says where bough looked and which agents' folders it
 * found; redacted as the index's list of places is when the report is (a log of a build run to
 * share is shared too).
 */
function foundLine(flags: ScopeFlags, io: CliIo, redact = false): (discovery: Discovery) => void {
  return (discovery) => {
    if (flags.quiet || !discovery.usedDefaults) return;
    const line = `bough: looking in ${placesLine(discovery.places, io.home, discovery.diagnostics)}`;
    io.stderr(terminalLine(redact ? redactedText(io)(line) : line));
  };
}

/**
 * `bough stats "$DIR"` with DIR unset: an empty path would be read as the working folder, and a
 * report made of whatever lies there. Bad usage (exit 2); null when every input names something.
 */
function emptyInput(inputs: readonly string[], io: CliIo, wanted = 'a session file or folder'): number | null {
  if (!inputs.some((input) => input.trim() === '')) return null;
  io.stderr(terminalLine(`bough: an input is an empty path (an unset variable?): name ${wanted}.`));
  return 2;
}

/**
 * `bough ~/.pi stats`: a command's name after an input is taken for one, as build is the default
 * command. Said as bad usage (exit 2) when no file or folder has that name; null otherwise.
 * `running`: the command whose inputs these are, named in `argv` or run as the default.
 */
function misplacedCommand(running: 'build' | 'stats', inputs: readonly string[], argv: readonly string[], io: CliIo): number | null {
  const word = inputs.find((input) => COMMANDS.includes(input) && !existsSync(input));
  if (word === undefined) return null;
  const others = inputs.filter((i) => i !== word).join(' ');
  // `bough stats ~/.pi build`: a command was given first already, and one runs at a time.
  const named = argv.filter((arg) => arg === running).length > inputs.filter((input) => input === running).length;
  const fix = named ? `bough runs one command at a time, as in bough ${running} ${others}` : `put the command first, as in bough ${word} ${others}`;
  io.stderr(terminalLine(`bough: “${word}” is a command, and no file or folder here has that name: ${fix}`.trimEnd() + '.'));
  return 2;
}

/**
 * `bough buidl`: build is the default command, so a mistyped command reaches it as its first input.
 * A word that names nothing here, with no command named before it, is bad usage (exit 2), said as both.
 */
function mistypedCommand(inputs: readonly string[], argv: readonly string[], io: CliIo): number | null {
  const first = inputs[0];
  // Named on the command line (`bough build buidl`), build is the command and the word an input.
  const buildNamed = argv.filter((arg) => arg === 'build').length > inputs.filter((input) => input === 'build').length;
  if (first === undefined || buildNamed || !/^[a-z]+$/i.test(first) || lstatSync(first, { throwIfNoEntry: false }) !== undefined) return null;
  // Only a word near a command's name, in any case (`bough Stats`): `bough sessions` names a missing folder (exit 1), as `bough my-sessions` does.
  if (!COMMANDS.some((command) => editDistance(first.toLowerCase(), command) <= 2)) return null;
  io.stderr(terminalLine(`bough: No such file or folder: ${resolve(first)}. Check the path and run again. It is no command either: bough has build, stats, export and prices.`));
  return 2;
}

/** commander's "argument 'x' is invalid. <bough's reason>" as one sentence: "… is invalid: <reason>." */
function oneSentence(text: string): string {
  const at = text.lastIndexOf("' is invalid. ");
  if (at === -1) return text;
  const end = text.indexOf('\n', at);
  const reason = text.slice(at + "' is invalid. ".length, end === -1 ? undefined : end);
  return `${text.slice(0, at)}' is invalid: ${reason}${reason.endsWith('.') ? '' : '.'}${end === -1 ? '' : text.slice(end)}`;
}

/** commander's message as its lines: its suggestion ("(Did you mean --tz?)") one of its own, any other break part of the argument quoted. */
function commanderLines(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.replace(/\n$/, '').split('\n')) {
    if (lines.length > 0 && !/^\(Did you mean /.test(line)) lines[lines.length - 1] += `\n${line}`;
    else lines.push(line);
  }
  return lines;
}

/** Letters to add, drop or change to make one word another. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length] ?? 0;
}

async function runBuild(inputs: string[], flags: BuildFlags, io: CliIo): Promise<number> {
  const progress = progressOf(flags, io);
  const environment: Environment = { env: io.env, home: io.home };
  let result: BuildResult;
  try {
    result = await build({
      inputs: inputs.map(physicalPath),
      out: flags.out,
      scope: scopeOf(flags),
      pricesFile: flags.prices ?? null,
      priceSubscriptions: flags.priceSubscriptions ?? false,
      redact: flags.redact === true || flags.share === true,
      omit: [...new Set([...(flags.omit ?? []), ...(flags.share ? (['thinking'] as const) : [])])],
      environment,
      now: io.now(),
      progress,
      discovered: foundLine(flags, io, flags.redact === true || flags.share === true),
      forgetMissing: flags.forgetMissing === true,
      cache: flags.cache,
    });
  } catch (error) {
    if (progress) io.stderr('\r\u001b[2K');
    return failure(error, io);
  }
  if (progress) io.stderr('\r\u001b[2K');
  // A session without its page is an error of that page, not the build's: said even with --quiet.
  const pageless = pagesNotWritten(result.summary);
  if (pageless !== null) io.stderr(terminalLine(`bough: error: ${pageless}`));
  const changed = pagesChanged(result.summary);
  if (changed !== null) io.stderr(terminalLine(`bough: warning: ${changed}`));
  // So is a page not written because a file of the user's is where it goes: the report links to it.
  for (const file of result.inTheWay) io.stderr(terminalLine(`bough: warning: ${file}`));
  // Said even with --quiet: a report of the samples is no report of this machine's sessions (a
  // job run under another HOME would publish their numbers as its own).
  if (result.usedSamples) {
    // Where it looked, as the index of the samples' report says: the first line names no folder it did not find.
    const home = io.home.replace(/(.)\/+$/, '$1');
    const shown = (path: string) => (home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path);
    const found = result.places.filter((place) => place.exists);
    const said = found.length === 0 ? `none of the agents' folders is here (${result.places.map((p) => shown(p.path)).join(', ')})` : `no sessions found in the agents' folders (${found.map((p) => shown(p.path)).join(', ')})`;
    // Redacted as the first line is.
    const redacted = flags.redact === true || flags.share === true ? redactedText(io) : (text: string) => text;
    io.stderr(terminalLine(`bough: ${redacted(said)}; building the bundled sample sessions instead.`));
    if (result.samplesBecause !== null) io.stderr(terminalLine(`bough: ${redacted(result.samplesBecause)}`));
  }
  // Said even with --quiet: a folder built to be sent that holds more than its report shows.
  const carried = result.sessionsCarried.sessions + result.sessionsCarried.warmupStarts;
  if (carried > 0 && (flags.redact === true || flags.share === true)) {
    const [them, their] = carried === 1 ? ['it', 'its'] : ['them', 'their'];
    io.stderr(
      terminalLine(
        `bough: warning: ${shownPath(result.outDir)} also keeps ${sessionsSaid(result.sessionsCarried)} this report does not show, with ${their} pages, from an earlier build into it: whoever is sent the folder gets ${them} too. Build a report to send into a folder of its own, or pass --forget-missing to drop ${them} (for a session whose file is gone, the archive holds the only copy).`,
      ),
    );
  }
  if (!flags.quiet) {
    for (const warning of [...result.warnings, ...moneyNotes(result.summary.diagnostics, 'its data-quality page names')]) io.stderr(terminalLine(`bough: warning: ${warning}`));
    io.stdout(terminalLine(summaryLine(result)));
  }
  return 0;
}

/**
 * Notes that bear on the totals without a line skipped, said on the terminal as well as on the
 * data-quality page: spend no total holds, and counts taken as written that may be damaged.
 */
function moneyNotes(diagnostics: { byReason: Record<string, number> }, where: string): string[] {
  const notRead = diagnostics.byReason['subagent-not-read'] ?? 0;
  const unlikely = diagnostics.byReason['unlikely-count'] ?? 0;
  const one = (n: number) => (n === 1 ? 'it' : 'them');
  return [
    ...(notRead > 0
      ? [
          notRead === 1
            ? `1 sub-agent's requests, of which its session's file holds copies, are in no total: its transcript is not among the files read, or holds fewer of them (${where} it, with their tokens).`
            : `${notRead} sub-agents' requests, of which their sessions' files hold copies, are in no total: their transcripts are not among the files read, or hold fewer of them (${where} them, with their tokens).`,
        ]
      : []),
    ...(unlikely > 0
      ? [`${unlikely === 1 ? '1 token count is' : `${unlikely} token counts are`} larger than any model's context in one request, counted as written (${where} ${one(unlikely)}): check ${one(unlikely)}, as a damaged count can add thousands of dollars.`]
      : []),
  ];
}

/**
 * A path the user is told of: from the working folder when it lies inside it, else whole, as a
 * report in /tmp from a deep folder read "../../../../../../tmp/…".
 */
function shownPath(path: string): string {
  // A working folder deleted since the run began has no path: the path is shown whole.
  let here: string;
  try {
    here = process.cwd();
  } catch {
    return path;
  }
  const from = relative(here, path);
  return from === '' || from.startsWith('..') || isAbsolute(from) ? path : from;
}

/** Skipped files `stats` names one by one; more are counted only. */
const NAMED_SKIPPED_FILES = 3;

async function runStats(inputs: string[], flags: StatsFlags, io: CliIo): Promise<number> {
  const progress = progressOf(flags, io);
  try {
    const result = await stats({
      inputs: inputs.map(physicalPath),
      by: flags.by,
      cache: flags.cache,
      scope: scopeOf(flags),
      pricesFile: flags.prices ?? null,
      priceSubscriptions: flags.priceSubscriptions ?? false,
      environment: { env: io.env, home: io.home },
      progress,
      discovered: foundLine(flags, io),
    });
    if (progress) io.stderr('\r\u001b[2K');
    if (!flags.quiet) {
      for (const warning of result.warnings) io.stderr(terminalLine(`bough: warning: ${warning}`));
      const skipped = skippedSaid(result.json.diagnostics);
      // Said as the build says it, so numbers from damaged files are not taken for the whole story.
      const d = result.json.diagnostics;
      const one = d.skippedLines + d.skippedFiles + notLooked(d) === 1;
      if (skipped !== null) io.stderr(terminalLine(`bough: ${skipped}; \`bough build\` lists ${one ? 'it' : 'them'} on its data-quality page.`));
      // A few files skipped are named here: a script's user may never build.
      const files = result.skippedFiles;
      if (files.length > 0 && files.length <= NAMED_SKIPPED_FILES) {
        io.stderr(terminalLine(`bough: skipped: ${files.map(({ file, why }) => `${file}${why === null ? '' : ` (${why})`}`).join('; ')}.`));
      }
      // And the files holding the lines skipped, each with its first.
      const lines = result.skippedLinesIn;
      if (lines.length > 0 && lines.length <= NAMED_SKIPPED_FILES) {
        const said = lines.map(({ file, lines: n, first }) => `${file} (${n === 1 ? '' : `${plural(n, 'line')}; `}${first.line === null ? '' : `line ${first.line}: `}${first.why})`);
        io.stderr(terminalLine(`bough: lines skipped in: ${said.join('; ')}.`));
      }
      const folders = result.notLookedInto;
      if (folders.length > 0 && folders.length <= NAMED_SKIPPED_FILES) io.stderr(terminalLine(`bough: not looked into: ${folders.map(({ file, why }) => `${file} (${why})`).join('; ')}.`));
      for (const note of moneyNotes(d, "`bough build`'s data-quality page names")) io.stderr(terminalLine(`bough: warning: ${note}`));
    }
    if (flags.json) io.stdout(`${JSON.stringify(result.json, wellFormedStrings, 2)}\n`);
    else {
      // A terminal that says it cannot show colour (TERM=dumb, an editor's shell buffer) gets none.
      const colour = io.stdoutIsTty === true && !('NO_COLOR' in io.env && io.env['NO_COLOR'] !== '') && io.env['TERM'] !== 'dumb';
      io.stdout(statsText(result, { colour, width: 100 }));
    }
    return 0;
  } catch (error) {
    if (progress) io.stderr('\r\u001b[2K');
    return failure(error, io);
  }
}

/** A fatal error said in a sentence (exit 1: bough's own, or the machine's, such as a full disk), or a flag that cannot be understood (exit 2). */
function failure(error: unknown, io: CliIo): number {
  if (error instanceof ScopeError) {
    io.stderr(terminalLine(`bough: ${error.message}`));
    return 2;
  }
  if (error instanceof BoughError) {
    io.stderr(terminalLine(`bough: ${error.message}`));
    return 1;
  }
  const trouble = systemTrouble(error);
  if (trouble !== null) {
    io.stderr(terminalLine(`bough: ${trouble}`));
    return 1;
  }
  throw error;
}

/** Of how many records the recorded cost is, where the agents stored one for some only (Pi does, Codex never). */
function recordedOf(totals: Summary['totals']): string {
  const { recordedCostRecords: stored, usageRecords: all } = totals;
  return stored > 0 && stored < all ? `, for ${formatCount(stored)} of ${plural(all, 'record')}` : '';
}

function summaryLine({ summary, outDir, sessionsCarried, sessionsKept, sessionsForgotten, subagentFilesForgotten }: BuildResult): string {
  const { totals, diagnostics } = summary;
  const where = shownPath(`${outDir}/index.html`);
  const unknown = totals.unpricedRecords > 0;
  const bough = totals.cost.bough === null ? (unknown ? 'unknown' : formatUsd(null)) : `${formatUsd(totals.cost.bough)}${unknown ? ' + unknown' : ''}`;
  // "1 session from 0 files and 1 kept" read as a sum: the files read, and the archive's.
  const kept = diagnostics.goneFiles + diagnostics.unreadFiles;
  const read = kept > 0 && diagnostics.sessionFiles === 0 ? 'no file read' : plural(diagnostics.sessionFiles, 'file');
  // Files, not sessions: a session's sub-agents have files of their own.
  const files = `${read}${kept > 0 ? ` and ${plural(kept, 'file')} kept from an earlier build (gone or no longer read)` : ''}`;
  const allTime = summary.period.label === 'all time';
  const filtered = summary.filters.project !== null || summary.filters.sources !== null;
  const narrowedBy = [...(allTime ? [] : ['period']), ...(filtered ? ['filters'] : [])].join(' and ');
  // Sessions of Claude Code's start-up warmups alone are listed as none, but their spend is counted.
  const warmups = totals.warmupOnlySessions ?? 0;
  const empty = totals.sessions === 0 && warmups === 0;
  const sessions = sessionsSaid({ sessions: totals.sessions, warmupStarts: warmups });
  return [
    `bough: ${allTime ? '' : `${summary.period.label}: `}${
      // Not "0 sessions … · — by bough": say that the scope, not the reading, left nothing.
      empty ? `no session falls in this report's ${narrowedBy || 'scope'} (${files} read)` : `${sessions} from ${files}`
    }`,
    `${plural(diagnostics.skippedLines, 'skipped line')}`,
    // A file found and not read as a session (not one, unreadable, empty) is said here too, not only on the data-quality page.
    ...(diagnostics.skippedFiles > 0 ? [`${plural(diagnostics.skippedFiles, 'file')} skipped (see the data-quality page)`] : []),
    ...(notLooked(diagnostics) > 0 ? [`${plural(notLooked(diagnostics), 'folder or link', 'folders or links')} not looked into (see the data-quality page)`] : []),
    ...(empty ? [] : [`${bough} by bough (${totals.cost.recorded === null ? 'none' : formatUsd(totals.cost.recorded)} recorded${recordedOf(totals)})`]),
    ...(totals.unpricedModels.length > 0 ? [`${plural(totals.unpricedModels.length, 'unpriced model')}`] : []),
    // Said, or a scoped report into an archive's folder would look as if it had dropped the rest.
    ...(sessionsCarried.sessions + sessionsCarried.warmupStarts > 0 ? [`its archive also keeps ${sessionsSaid(sessionsCarried)} this report does not show`] : []),
    // Dropped as asked, and said: the archive held their only copy.
    ...(sessionsForgotten.sessions + sessionsForgotten.warmupStarts > 0 ? [`${sessionsSaid(sessionsForgotten)} the archive kept dropped (--forget-missing)`] : []),
    ...(subagentFilesForgotten > 0 ? [`${plural(subagentFilesForgotten, "sub-agent's file", "sub-agents' files")} the archive kept dropped (--forget-missing)`] : []),
    // What a re-run did: a rebuild keeps the pages of what did not change.
    ...(sessionsKept > 0 ? [sessionsKept >= totals.sessions + warmups ? 'every page kept from the last build' : `pages of ${sessionsKept} of ${plural(totals.sessions + warmups, 'session')} kept from the last build`] : []),
    ...sharingSaid(summary.sharing),
    `report in ${where}`,
  ].join(' · ');
}

/**
 * What a build says of sessions whose pages it could not write (the data-quality page lists each
 * with its reason; their numbers are counted), or null when every page was written.
 */
function pagesNotWritten(summary: Summary): string | null {
  const failed = summary.diagnostics.byReason['page-failed'] ?? 0;
  if (failed === 0) return null;
  const first = summary.diagnostics.items.find((item) => item.reason === 'page-failed');
  const why = first ? ` (${failed === 1 ? '' : 'the first: '}${first.file}: ${first.detail.length > 200 ? `${first.detail.slice(0, 199)}…` : first.detail})` : '';
  return `${failed === 1 ? '1 session has' : `${failed} sessions have`} no page in the report${why}; the totals count them, and the data-quality page lists each with its reason.`;
}

/** What a build says of kept pages (their sessions' files gone) changed since written, or null when none was. */
function pagesChanged(summary: Summary): string | null {
  const changed = summary.diagnostics.byReason['page-changed'] ?? 0;
  const first = summary.diagnostics.items.find((item) => item.reason === 'page-changed');
  if (changed === 0 || first === undefined) return null;
  const detail = first.detail.length > 200 ? `${first.detail.slice(0, 199)}…` : first.detail;
  return `the pages of ${changed === 1 ? '1 session' : `${changed} sessions`} kept from the archive were changed since written (${changed === 1 ? '' : 'the first: '}${first.file}: ${detail}); the data-quality page lists each.`;
}

/** Folders that could not be listed and links not followed: what they hold was not read, nor counted as a file. */
function notLooked(diagnostics: { byReason: Record<string, number> }): number {
  return (diagnostics.byReason['unreadable-folder'] ?? 0) + (diagnostics.byReason['skipped-link'] ?? 0);
}

/** "1 skipped line and 2 files skipped", or null when nothing was skipped. */
function skippedSaid(diagnostics: { skippedLines: number; skippedFiles: number; byReason: Record<string, number> }): string | null {
  const parts = [
    ...(diagnostics.skippedLines > 0 ? [plural(diagnostics.skippedLines, 'skipped line')] : []),
    ...(diagnostics.skippedFiles > 0 ? [`${plural(diagnostics.skippedFiles, 'file')} skipped`] : []),
    ...(notLooked(diagnostics) > 0 ? [`${plural(notLooked(diagnostics), 'folder or link', 'folders or links')} not looked into`] : []),
  ];
  return parts.length === 0 ? null : parts.join(' and ');
}

/** What a build that redacts or omits says of it: "redacted (12 replaced)", "thinking omitted". */
function sharingSaid(sharing: Summary['sharing']): string[] {
  const replaced = Object.values(sharing.redactions).reduce((sum, n) => sum + n, 0);
  return [...(sharing.redacted ? [`redacted (${formatCount(replaced)} replaced)`] : []), ...(sharing.omitted.length > 0 ? [`${sharing.omitted.join(', ')} omitted`] : [])];
}

/** An http(s) address: anything else is bad usage, not a failed download. */
function urlOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`give an http or https address (got ${JSON.stringify(value)})`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InvalidArgumentError(`give an http or https address (got ${JSON.stringify(value)})`);
  return value;
}

/** `--project "$P"` with P unset would match every project, as if no --project were given. */
function projectTextOf(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('give the text to match (got an empty one), or leave --project out');
  return value;
}

/**
 * A path given to an option: an empty one (a shell variable that was not set) would otherwise
 * mean this folder; `~` at its start is the home (a shell leaves `--out=~/report` as it is, and
 * bough made a folder named "~" where it said "report in ~/report").
 */
function pathIn(home: string): (value: string) => string {
  return (value) => {
    if (value.trim() === '') throw new InvalidArgumentError('give a path (got an empty one)');
    // Another user's home (`~ana/x`) is the shell's to find: taken as it is, it made a folder "~ana".
    if (/^~[^/]/.test(value)) throw new InvalidArgumentError(`give that path in full, or as ~/… for your own home (got ${JSON.stringify(value)})`);
    try {
      return physicalPath(homeExpanded(value, home));
    } catch (error) {
      if (error instanceof BoughError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };
}

function homeExpanded(path: string, home: string): string {
  return path === '~' || path.startsWith('~/') ? `${home}${path.slice(1)}` : path;
}

function omitKindsOf(value: string, previous: OmitKind[] | undefined): OmitKind[] {
  // In any case, as --source takes its agents.
  const kinds = value.split(',').map((kind) => kind.trim().toLowerCase()).filter(Boolean);
  const unknown = kinds.filter((kind) => !(OMIT_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0 || kinds.length === 0) {
    throw new InvalidArgumentError(`say which of ${OMIT_KINDS.join(', ')} to leave out (got ${JSON.stringify(value)})`);
  }
  // Given twice, both.
  return [...new Set([...(previous ?? []), ...(kinds as OmitKind[])])];
}

/** --tz, its default the machine's zone, said once in the help: "(default: this machine's, UTC)". */
function timeZoneOption(description: string, io: CliIo): Option {
  const zone = machineTimeZone(io.env);
  return new Option('--tz <zone>', description).argParser(timeZoneOf).default(zone, `this machine's, ${zone}`);
}

/** Names of zones and their regions written in capitals (US/Pacific, Etc/GMT+5, PST8PDT). */
const CAPITAL_WORDS = /^(?:US|GMT|UTC|UCT|UT|GB|NZ|PRC|ROC|ROK|CET|EET|MET|WET|EST|MST|HST|EST5EDT|CST6CDT|MST7MDT|PST8PDT|W|SU|CHAT|IN|GMT[+-]\d+)$/i;
/** The old names whose words IANA runs together, each capitalised. */
const RUN_TOGETHER: ReadonlyMap<string, string> = new Map(['BajaNorte', 'BajaSur', 'DeNoronha', 'EasterIsland', 'ComodRivadavia'].map((word) => [word.toLowerCase(), word]));

/** A zone name written in one case as IANA writes its names: Asia/Kolkata, America/North_Dakota/New_Salem. */
function ianaCapitals(name: string): string {
  if (name !== name.toLowerCase() && name !== name.toUpperCase()) return name;
  return name.replace(/[^/_-]+/g, (word) => RUN_TOGETHER.get(word.toLowerCase()) ?? (CAPITAL_WORDS.test(word) ? word.toUpperCase() : word[0]?.toUpperCase() + word.slice(1).toLowerCase()));
}

function timeZoneOf(value: string): string {
  const spelled = canonicalZone(value);
  // As IANA spells it (`utc` → UTC, `europe/berlin` → Europe/Berlin); a link keeps the name given
  // (Asia/Kolkata, which Intl calls Asia/Calcutta), in IANA's capitals where they can be told.
  if (spelled !== null) {
    if (spelled.toLowerCase() === value.toLowerCase()) return spelled;
    const capitalised = ianaCapitals(value);
    return canonicalZone(capitalised) === spelled ? capitalised : value;
  }
  throw new InvalidArgumentError(`unknown time zone ${JSON.stringify(value)} (use an IANA name such as Europe/Berlin or UTC)`);
}
