// A secret a command printed alone: `echo $API_KEY`, `gcloud secrets versions access latest …`,
// `kubectl get secret db -o jsonpath='{.data.password}' | base64 -d`. Nothing in the output says
// what it is (a key of no known shape, a password), so the command that printed it says so: a
// tool's call is read for whether it prints a secret and nothing else, and its output's lines are
// taken whole when each is one word, as such a secret is. Pure: commands and outputs in, words out.

import { isSecretName, isSecretValue, nameWords } from './secrets.js';

/** How much of its output a command prints as the secret: all of it, or its first line (`pass show`, whose next lines are notes). */
export type PrintedSecret = 'whole' | 'first-line';

/** A longer command is a script: what it prints is not read from it. */
const MAX_COMMAND_LENGTH = 2000;

/** A secret printed alone is a word of printable ASCII; a longer line is data (a minified file). */
const PRINTED_WORD = /^[!-~]{4,8192}$/;

/** An output of more lines than this is no secret printed alone (a base64 key wraps at 64 characters). */
const MAX_PRINTED_LINES = 64;

/** Commands that print nothing when they work, before or after the one that prints: `cd app && …`. */
const SILENT = /^(?:cd|export|set|unset|source|\.|true|sleep|ulimit|umask|trap|shopt|setopt|alias|exec[ \t]+\d?[<>])(?:[ \t]|$)|^[A-Za-z_]\w*=\S*$/;

/** What may follow in a pipe and still print the secret, or part of it: `| head -c 12`, `| base64 -d`, `| tr -d '\n'`. */
const KEEPING_FILTER = /^(?:head|tail|cut|tr|base64|xxd|xargs|sed|awk|cat|rev|fold|sort|uniq)(?:[ \t]|$)/;

/** A shell's reference to a variable as a command's whole argument: `$NAME`, `"${NAME}"`, `$env:NAME`, `%NAME%`. */
const VARIABLE_ARGUMENT = /^(["']?)(?:\$\{([A-Za-z_]\w*)(?:[:#%/^,][^}]*)?\}|\$(?:env:)?([A-Za-z_]\w*)|%([A-Za-z_]\w*)%)\1$/i;

/** A program's code that prints an environment variable: `console.log(process.env.KEY)`, `print(os.environ["KEY"])`, `puts ENV["KEY"]`. */
const PRINTS_VARIABLE = /(?:console\.log|print|puts|p|echo|fmt\.Println)[ \t]*\(?[ \t]*(?:process\.env(?:\.|\[\\?["'])|os\.(?:environ(?:\.get)?[([][ \t]*\\?["']|getenv\([ \t]*\\?["'])|ENV(?:\.fetch\(|\[)\\?["']|Deno\.env\.get\(\\?["']|getenv\(\\?["']|os\.Getenv\(\\?["'])([A-Za-z_]\w*)/;

/** Programs run on code given on their command line. */
const CODE_RUNNER = /^(?:node|deno|bun|python\d?(?:\.\d+)?|ruby|perl|php)(?:[ \t]+-\S+)*[ \t]+(?:-[ecp]|eval)[ \t]/;

/** Node's `-p`, which prints its expression: `node -p "process.env.API_KEY"`. */
const NODE_PRINTS_VARIABLE = /[ \t]-p[ \t]+\\?["']?process\.env(?:\.|\[\\?["'])([A-Za-z_]\w*)/;

/** Code that makes a random secret, or fetches one, and prints it: `secrets.token_hex()`, `crypto.randomBytes(32).toString('hex')`, `keyring.get_password(…)`. */
const PRINTS_SECRET = /\bsecrets\.token_(?:hex|urlsafe|bytes)\b|\brandomBytes\(\d*\)\.toString\(|\bSecureRandom\.(?:hex|base64|urlsafe_base64|alphanumeric)\b|\bkeyring\.get_password\(/;

/** A search for a secret's line in a file (`grep API_KEY .env`), its pattern's words. */
const SECRET_LINE_SEARCH = /^(?:grep|egrep|rg)(?:[ \t]+-\S+)*[ \t]+(["']?)\^?([A-Za-z_][\w-]*)/;
/** What cuts a `NAME=value` line to its value: `cut -d= -f2`, `awk -F= '{print $2}'`, `sed 's/.*=//'`. */
const VALUE_CUTTER = /^(?:cut[ \t]+(?:-d[ \t]*["']?=["']?|--delimiter[= ]["']?=["']?)[ \t]+-f[ \t]*2-?|cut[ \t]+-f[ \t]*2-?[ \t]+-d[ \t]*["']?=["']?|awk[ \t]+-F[ \t]*["']?=["']?[ \t]+["']\{[ \t]*print[ \t]+\$2[ \t]*\}["']|sed[ \t]+(?:-\S+[ \t]+)*["']s([/|#])[^/|#'"]*=\1\1["'])$/;

/** The last member a jq or yq filter reads (`.data.password`, `.["api-key"]`, `.token | @base64d`). */
const FILTER_MEMBER = /\.(?:([A-Za-z_][\w-]*)|\[\\?["']([^"'\\]+)\\?["']\])(?:[ \t]*\|[ \t]*@base64d)?[ \t]*$/;

/**
 * Commands whose output is a secret and nothing else, read as their words are written (after a
 * program's path, `sudo` and `npx`). Each is the printing command of a pipe; what goes before it
 * in the pipe (a jq's input) is not read.
 */
const PRINTERS: readonly RegExp[] = [
  // Kubernetes: a secret's value by a template (`| base64 -d` may follow, or not: base64 of it is as secret).
  /^kubectl\b.*[ \t]get[ \t]+secrets?\b.*[ \t](?:-o|--output)[= ]?["']?(?:jsonpath|go-template|template)\b/,
  /^kubectl\b.*[ \t]get[ \t]+secrets?\b.*[ \t]--template[= ]/,
  /^kubectl\b.*[ \t]create[ \t]+token\b/,
  /^kubeadm[ \t]+token[ \t]+create\b/,
  /^docker[ \t]+swarm[ \t]+join-token[ \t]+(?:.*[ \t])?(?:-q|--quiet)\b/,
  // Clouds' secret stores and their own tokens.
  /^gcloud\b.*[ \t]secrets[ \t]+versions[ \t]+access\b/,
  /^gcloud\b.*[ \t]auth[ \t]+(?:application-default[ \t]+)?print-(?:access|identity)-token\b/,
  /^aws\b.*[ \t]secretsmanager[ \t]+get-secret-value\b.*[ \t]--query\b/,
  /^aws\b.*[ \t]ssm[ \t]+get-parameters?(?:-by-path)?\b(?=.*[ \t]--with-decryption\b).*[ \t]--query\b/,
  /^aws\b.*[ \t](?:ecr|ecr-public)[ \t]+get-login-password\b/,
  /^aws\b.*[ \t]codeartifact[ \t]+get-authorization-token\b.*[ \t]--query\b/,
  /^aws\b.*[ \t]configure[ \t]+get[ \t]+\S*(?:secret|token)\S*/,
  /^az\b.*[ \t](?:secret[ \t]+show|keys[ \t]+list|list-keys|get-access-token|credential[ \t]+(?:show|reset)|create-for-rbac|list-publishing-credentials)\b.*[ \t](?:-o|--output)[= ]?tsv\b/,
  // Secret managers.
  /^vault\b.*[ \t](?:-field[= ]|print[ \t]+token\b)/,
  /^op[ \t]+(?:read\b|item[ \t]+get\b.*[ \t](?:--fields?|--reveal)\b)/,
  /^(?:doppler|infisical)\b.*[ \t]secrets[ \t]+get\b.*[ \t]--(?:plain|raw)\b/,
  /^security[ \t]+find-(?:generic|internet)-password\b.*[ \t]-w\b/,
  /^(?:gh|heroku|fly|flyctl)[ \t]+auth(?::|[ \t]+)token\b/,
  // Random secrets made on the spot.
  /^openssl[ \t]+rand\b.*[ \t]-(?:hex|base64)\b/,
  /^pwgen\b/,
];

/** Commands that print the secret a name given to them names: `printenv API_KEY`, `heroku config:get DATABASE_PASSWORD`. */
const NAMED_PRINTERS: readonly RegExp[] = [
  /^printenv[ \t]+(\S+)$/,
  /^heroku[ \t]+config:get[ \t]+(?:-\S+[ \t]+\S+[ \t]+)*(\S+)/,
  /^terraform[ \t]+output[ \t]+(?:-raw[ \t]+|-json[ \t]+)?(\w+)$/,
  /^pulumi[ \t]+(?:config[ \t]+get|stack[ \t]+output)[ \t]+(\S+)/,
  /^git[ \t]+config[ \t]+(?:--(?:global|local|system|get)[ \t]+)*(\S+)$/,
];

/** Files that hold a secret alone: Docker's and Kubernetes's mounted secrets, Vault's token file. */
const SECRET_FILE_PLACE = /^\/(?:var\/)?run\/secrets\/|(?:^|\/)\.(?:vault-token|pgpass)$/;

/** Programs that print a file: a secret file's only word is its secret. */
const FILE_PRINTER = /^(?:cat|type|Get-Content|gc|more|bat|head|tail)(?:[ \t]+-\S+(?:[ \t]+\d+)?)*[ \t]+(["']?)([^\s"'|<>]+)\1$/;

/** How a command prints a secret and nothing else, or null when it does not (or prints more). */
export function printsSecret(command: string): PrintedSecret | null {
  if (command.length > MAX_COMMAND_LENGTH) return null;
  const printing = shellParts(command, STATEMENT_BREAKS).filter((statement) => !SILENT.test(statement));
  if (printing.length !== 1) return null;
  const stages = shellParts(printing[0] as string, PIPE).map(withoutWrappers);
  for (let i = 0; i < stages.length; i++) {
    // A secret's line found, then cut to its value: the cutter prints the secret.
    const search = SECRET_LINE_SEARCH.exec(stages[i] as string)?.[2];
    if (search !== undefined && isSecretName(search) && VALUE_CUTTER.test(stages[i + 1] ?? '')) {
      return stages.slice(i + 2).every((stage) => KEEPING_FILTER.test(stage)) ? 'whole' : null;
    }
    const printed = printedBy(stages[i] as string, i > 0);
    if (printed === null) continue;
    // A jq after it must read a secret's member too (`cat token.json | jq -r .expires_at` prints a time).
    return stages.slice(i + 1).every((stage) => (JQ.test(stage) ? printedBy(stage, true) !== null : KEEPING_FILTER.test(stage))) ? printed : null;
  }
  return null;
}

/** What one command of a pipe prints; `piped`: it reads what the commands before it print. */
function printedBy(stage: string, piped: boolean): PrintedSecret | null {
  if (JQ.test(stage)) {
    const filter = /[ \t](["'])(.*)\1(?:[ \t]+[^\s"']+)?$/.exec(stage) ?? /[ \t](\.\S*)(?:[ \t]+[^\s"']+)?$/.exec(stage);
    return filter && isPrintedMember(filter[2] ?? (filter[1] as string)) ? 'whole' : null;
  }
  if (piped) return null;
  if (/^(?:pass|gopass)[ \t]+(?:(?:show|cat)[ \t]+(?:-\S+[ \t]+)*[\w@.-]+(?:\/[\w@.-]+)*|[\w@.-]+(?:\/[\w@.-]+)+)$/.test(stage) && !/[ \t](?:ls|list|find|grep|init|insert|edit|generate|rm|mv|cp|git)\b/.test(stage)) return 'first-line';
  if (PRINTERS.some((printer) => printer.test(stage))) return 'whole';
  // Kubernetes: a secret's member by its path (`kubectl config view --raw -o jsonpath='{.users[0].user.token}'`).
  const jsonPath = /^kubectl\b.*[ \t](?:-o|--output)[= ]?["']?jsonpath=["']?\{([^{}]*)\}/.exec(stage)?.[1];
  if (jsonPath !== undefined && isPrintedMember(jsonPath)) return 'whole';
  for (const printer of NAMED_PRINTERS) {
    const name = printer.exec(stage)?.[1];
    if (name !== undefined && isSecretName(name.replace(/^["']|["']$/g, '').split('.').at(-1) as string)) return 'whole';
  }
  const echoed = /^(?:echo|printf|Write-Output|Write-Host|print)((?:[ \t]+\S+)+)$/i.exec(stage);
  if (echoed) {
    const words = (echoed[1] as string).trim().split(/[ \t]+/).filter((word) => !/^-[neE]+$/.test(word) && !/^(["']?)%s(?:\\n)?\1$/.test(word));
    if (words.length > 0 && words.every((word) => isSecretVariable(VARIABLE_ARGUMENT.exec(word)))) return 'whole';
    return null;
  }
  if (CODE_RUNNER.test(stage)) {
    const name = PRINTS_VARIABLE.exec(stage)?.[1];
    const printed = name ?? NODE_PRINTS_VARIABLE.exec(stage)?.[1];
    return (printed !== undefined && isSecretName(printed)) || PRINTS_SECRET.test(stage) ? 'whole' : null;
  }
  const file = FILE_PRINTER.exec(stage)?.[2];
  if (file !== undefined && isSecretFile(file)) return 'whole';
  // Random bytes as text: `head -c 32 /dev/urandom | base64` (what follows is a keeping filter).
  if (/^(?:head|dd)\b.*\/dev\/u?random\b/.test(stage)) return 'whole';
  return null;
}

function isSecretVariable(reference: RegExpExecArray | null): boolean {
  const name = reference?.[2] ?? reference?.[3] ?? reference?.[4];
  return name !== undefined && isSecretName(name);
}

function isPrintedMember(filter: string): boolean {
  const member = FILTER_MEMBER.exec(filter);
  const name = member?.[1] ?? member?.[2];
  return name !== undefined && isSecretName(name);
}

/** A file named for the secret it holds (`db_password.txt`, `~/.config/app/token`), or in a place only secrets are. */
function isSecretFile(path: string): boolean {
  if (SECRET_FILE_PLACE.test(path)) return true;
  const name = (path.split(/[\\/]/).at(-1) as string).replace(/\.(?:txt|key|secret|token)$/i, '');
  // A key file's own name says what it is (`id_ed25519`, `server.key`): its body is found by its shape.
  return name !== '' && isSecretName(name) && !nameWords(name).includes('public');
}

/** `sudo`, `npx`, `env`, a program's path and variables set for it: the command they run is the one read. */
function withoutWrappers(stage: string): string {
  let words = stage.trim();
  for (;;) {
    const next = words.replace(/^(?:(?:sudo|doas|npx|env|time|command|exec)(?:[ \t]+-\S+)*[ \t]+|[A-Za-z_]\w*=\S*[ \t]+)/, '');
    if (next === words) break;
    words = next;
  }
  return words.replace(/^(?:\S*\/)?(\S+?)(?:\.exe)?(?=[ \t]|$)/, '$1').replace(/[ \t]*(?:\d?>>?[ \t]*\/dev\/null|2>&1)/g, '').trim();
}

const JQ = /^(?:jq|yq)(?:[ \t]|$)/;
const STATEMENT_BREAKS = /^(?:&&|\|\||;|\r?\n)/;
const PIPE = /^\|(?!\|)/;

/** A command's parts between the breaks given, outside quotes: `;` inside `python -c "…; print(…)"` breaks nothing. */
function shellParts(command: string, breaks: RegExp): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (quote !== null) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '\\') {
      // A line continued: the command goes on.
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      continue;
    }
    const at = breaks.exec(command.slice(i, i + 2));
    if (!at) continue;
    parts.push(command.slice(start, i).trim());
    i += at[0].length - 1;
    start = i + 1;
  }
  parts.push(command.slice(start).trim());
  return parts.filter((part) => part !== '');
}

/**
 * The header a Codex tool's output opens with (`Exit code: 0`, `Wall time: …`, `Output:`), before
 * what the command printed.
 */
const OUTPUT_HEADER = /^(?:(?:Exit code|Wall time|Chunk ID|Process exited with code|Process running with session ID|Original token count|Total output lines)\b[^\n]*\n)+Output:\r?\n/;

/** What an agent adds to a command's output: Pi's exit code, Claude Code's note that the shell went back to its folder. */
const AGENT_NOTE = /^(?:Command exited with code -?\d+|Shell cwd was reset to .*)$/;

/** The secrets a command that prints one alone printed (see printsSecret): its output's lines, when each is one word; else none. */
export function printedSecrets(output: string, printed: PrintedSecret): string[] {
  let body = output.replace(OUTPUT_HEADER, '');
  if (body === output && body.trimStart().startsWith('{"output":')) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { output?: unknown }).output === 'string') body = (parsed as { output: string }).output;
    } catch {
      // Not Codex's JSON after all: read as it is.
    }
  }
  // jq without -r prints a string in its quotes.
  const lines = body.split('\n').map((line) => line.trim().replace(/^"([^"\\]*)"$/, '$1')).filter((line) => line !== '' && !AGENT_NOTE.test(line));
  const taken = printed === 'first-line' ? lines.slice(0, 1) : lines;
  if (taken.length === 0 || taken.length > MAX_PRINTED_LINES || !taken.every(isPrintedWord)) return [];
  return taken;
}

function isPrintedWord(line: string): boolean {
  if (!PRINTED_WORD.test(line) || /^\d{1,5}$/.test(line)) return false;
  return isSecretValue(line, { quoted: true, form: 'literal', name: 'secret', after: '' });
}
