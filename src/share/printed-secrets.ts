// A secret a command printed alone: `echo $API_KEY`, `gcloud secrets versions access latest …`,
// `kubectl get secret db -o jsonpath='{.data.password}' | base64 -d`. Nothing in the output says
// what it is (a key of no known shape, a password), so the command that printed it says so: a
// tool's call is read for whether it prints a secret and nothing else, and its output's lines are
// taken whole when each is one word, as such a secret is. Pure: commands and outputs in, words out.

import { isSecretName, isSecretValue, nameWords } from './secrets.js';

/**
 * How much of its output a command prints as the secret: all of it, its first line (`pass show`,
 * whose next lines are notes), or all of it where it is as long as a key (a random value made on
 * the spot: a few random bytes name something, `rg-shop-a3f9c2d1`).
 */
export type PrintedSecret = 'whole' | 'first-line' | 'random';

/** A random value shorter than this names something (a suffix, an id): a key is of 16 bytes or more, 22 characters in base64. */
const MIN_RANDOM_SECRET = 16;

/**
 * Words of a secret-sounding name that say its value is public or an id: a reCAPTCHA site key, a
 * Next.js public variable, a GPG key's id or fingerprint, a KMS key's ARN, an SSH key's file name.
 */
const PUBLIC_NAME_WORDS: ReadonlySet<string> = new Set(['public', 'publishable', 'site', 'gpg', 'pgp', 'fingerprint', 'kms', 'ssh', 'signingkey', 'arn']);

/** A name of what holds a secret, not of a public key or an id (see PUBLIC_NAME_WORDS); `user.signingKey` is git's key id. */
function isPrintedSecretName(name: string): boolean {
  return isSecretName(name) && !nameWords(name).some((word) => PUBLIC_NAME_WORDS.has(word)) && !/signingkey$/i.test(name);
}

/** A longer command is a script: what it prints is not read from it. */
const MAX_COMMAND_LENGTH = 2000;

/** A secret printed alone is a word of printable ASCII; a longer line is data (a minified file). */
const PRINTED_WORD = /^[!-~]{4,8192}$/;

/** An output of more lines than this is no secret printed alone (a base64 key wraps at 64 characters). */
const MAX_PRINTED_LINES = 64;

/**
 * Commands that print nothing when they work, before or after the one that prints: `cd app && …`,
 * and a bare `echo` (a line's end after a value printed without one: `… | base64 -d; echo`).
 */
const SILENT = /^(?:cd|export|set|unset|source|\.|true|sleep|ulimit|umask|trap|shopt|setopt|alias|exec[ \t]+\d?[<>])(?:[ \t]|$)|^[A-Za-z_]\w*=\S*$|^(?:echo|printf)(?:[ \t]+(?:""|''|(["'])\\n\1))?$/;

/** What may follow in a pipe and still print the secret, or part of it: `| head -c 12`, `| base64 -d`, `| tr -d '\n'`. */
const KEEPING_FILTER = /^(?:head|tail|cut|tr|base64|xxd|xargs|sed|awk|cat|rev|fold|sort|uniq|tee)(?:[ \t]|$)|^(?:Select-Object|select)[ \t]+-(?:ExpandProperty|exp)[ \t]+Value$/i;

/**
 * A shell's reference to a variable as a command's whole argument: `$NAME`, `"${NAME}"`,
 * `${NAME:0:8}`, `$env:NAME`, `%NAME%`. Not `${NAME:+word}` (the word, where it is set) nor
 * `${#NAME}` (its length).
 */
const VARIABLE_ARGUMENT = /^(["']?)(?:\$\{([A-Za-z_]\w*)(?:(?::?[=?]|:(?![+-])|[%/^,#])[^}]*|:?-)?\}|\$(?:env:)?([A-Za-z_]\w*)|%([A-Za-z_]\w*)%)\1$/i;

/**
 * A program's code that prints an environment variable: `console.log(process.env.KEY)`,
 * `print(os.environ["KEY"])`, `puts ENV["KEY"]`, Perl's `print $ENV{KEY}`, PowerShell's
 * `[Environment]::GetEnvironmentVariable('KEY')`.
 */
const PRINTS_VARIABLE = /(?:console\.log|print|puts|p|echo|fmt\.Println)[ \t]*\(?[ \t]*(?:process\.env(?:\.|\[\\?["'])|os\.(?:environ(?:\.get)?[([][ \t]*\\?["']|getenv\([ \t]*\\?["'])|ENV(?:\.fetch\(|\[)\\?["']|Deno\.env\.get\(\\?["']|Bun\.env\.|getenv\(\\?["']|os\.Getenv\(\\?["']|\$ENV\{\\?["']?)([A-Za-z_]\w*)|\[(?:System\.)?Environment\]::GetEnvironmentVariable\([ \t]*\\?["']([A-Za-z_]\w*)/i;

/**
 * What may follow a variable's name in code that prints it directly: its closing quotes and
 * brackets, then the call's end or the statement's. Not `process.env.KEY ? 'set' : 'missing'`.
 */
const PRINTED_DIRECTLY = /^(?:\\?["'][ \t]*,[ \t]*(?:\\?["'][^"'\\\n]*\\?["']|None|nil|null|undefined)[ \t]*)?(?:\\?["']?[\])}])*[ \t]*(?:;|\n|\\?["'][ \t]*$|$)/;

/** Code that prints a member of a JSON it read (`print(json.load(sys.stdin)['access_token'])`): the member's name. */
const PRINTS_MEMBER = /\bprint\((?:[^()]|\([^()]*\))*\[\\?["']([A-Za-z_][\w-]*)\\?["']\][ \t]*\)/;

/** Programs that run code, given on their command line or in a here-document. */
const CODE_RUNNER = /^(?:node|deno|bun|python\d?(?:\.\d+)?|ruby|perl|php)(?:[ \t]|$)/;

/** Node's `-p`, which prints its expression: `node -p "process.env.API_KEY"`. */
const NODE_PRINTS_VARIABLE = /[ \t]-p[ \t]+\\?["']?process\.env(?:\.|\[\\?["'])([A-Za-z_]\w*)/;

/** Code that fetches a secret, or makes one made to be a key, and prints it: `keyring.get_password(…)`, Django's `get_random_secret_key()`. */
const PRINTS_SECRET = /\bkeyring\.get_password\(|\bget_random_secret_key\(|\bFernet\.generate_key\(/;

/** Code that makes random bytes and prints them: `secrets.token_hex()`, `crypto.randomBytes(32).toString('hex')`. */
const PRINTS_RANDOM = /\bsecrets\.(?:token_(?:hex|urlsafe|bytes)|choice)\b|\brandomBytes\(\d*\)\.toString\(|\bSecureRandom\.(?:hex|base64|urlsafe_base64|alphanumeric)\b|\bos\.urandom\(/;

/** A search for a secret's line in a file (`grep API_KEY .env`), its pattern's words. */
const SECRET_LINE_SEARCH = /^(?:grep|egrep|rg)(?:[ \t]+-\S+)*[ \t]+(["']?)\^?([A-Za-z_][\w-]*)/;
/** What cuts a `NAME=value` line to its value: `cut -d= -f2`, `awk -F= '{print $2}'`, `sed 's/.*=//'`. */
const VALUE_CUTTER = /^(?:cut[ \t]+(?:-d[ \t]*["']?=["']?|--delimiter[= ]["']?=["']?)[ \t]+-f[ \t]*2-?|cut[ \t]+-f[ \t]*2-?[ \t]+-d[ \t]*["']?=["']?|awk[ \t]+-F[ \t]*["']?=["']?[ \t]+["']\{[ \t]*print[ \t]+\$(?:2|NF)[ \t]*\}["']|sed[ \t]+(?:-\S+[ \t]+)*["']s([/|#])[^/|#'"]*=\1\1g?["'])$/;
/** awk finding a secret's line and printing its value at once: `awk -F= '/^DB_PASSWORD=/{print $2}' .env`. */
const AWK_VALUE = /^awk[ \t]+-F[ \t]*["']?=["']?[ \t]+["'](?:\/\^?([A-Za-z_]\w*)=?\/|\$1[ \t]*==[ \t]*\\?"([A-Za-z_]\w*)\\?")[ \t]*\{[ \t]*print[ \t]+\$(?:2|NF)[ \t]*\}["']/;
/** sed printing a secret's value from its line alone: `sed -n 's/^API_KEY=//p' .env` (without `-n`, sed prints every line). */
const SED_VALUE = /^sed[ \t]+(?:-\S+[ \t]+)*?(?:-n|--quiet|--silent)[ \t]+(?:-\S+[ \t]+)*["']s([/|#])\^?([A-Za-z_]\w*)=\1\1g?p["']/;
/** grep printing only a secret's value: `grep -oP 'API_KEY=\K.*'`, `grep -oP '(?<=API_KEY=).*'`. */
const GREP_VALUE = /^grep[ \t]+(?:-\S+[ \t]+)*["'](?:\^?([A-Za-z_]\w*)=\\K|\(\?<=\^?([A-Za-z_]\w*)=\))/;

/** The last member a jq or yq filter reads (`.data.password`, `.["api-key"]`, `.token | @base64d`, `.token // empty`). */
const FILTER_MEMBER = /\.(?:([A-Za-z_][\w-]*)|\[\\?["']([^"'\\]+)\\?["']\])(?:[ \t]*\|[ \t]*@base64d)?(?:[ \t]*\/\/[ \t]*\S+)?[ \t]*$/;

/** The members of a Kubernetes secret's `data` a template reads: `{.data.password}`, `{{index .data "api-key"}}`. */
const SECRET_DATA_MEMBER = /\.(?:data|stringData)(?:\.|\[\\?["'])((?:[A-Za-z_]|\\\.)(?:[\w.-]|\\\.)*?)(?=\\?["']?\]|[}\s|)]|$)|\bindex[ \t]+\.data[ \t]+\\?["']([^"'\\]+)/g;

/**
 * Commands whose output is a secret and nothing else, read as their words are written (after a
 * program's path, `sudo`, `npx`, a container's or a runner's `exec`). Each is the printing
 * command of a pipe; what goes before it in the pipe (a jq's input) is not read.
 */
const PRINTERS: readonly RegExp[] = [
  /^(?:kubectl|oc)\b.*[ \t]create[ \t]+token\b/,
  /^kubeadm[ \t]+token[ \t]+create\b/,
  /^docker[ \t]+swarm[ \t]+join-token[ \t]+(?:.*[ \t])?(?:-q|--quiet)\b/,
  // Clouds' secret stores and their own tokens.
  /^gcloud\b.*[ \t]secrets[ \t]+versions[ \t]+access\b/,
  /^gcloud\b.*[ \t]auth[ \t]+(?:application-default[ \t]+)?print-(?:access|identity)-token\b/,
  /^aws\b.*[ \t]secretsmanager[ \t]+get-secret-value\b.*[ \t]--query[= ]["']?Secret(?:String|Binary)\b/,
  /^aws\b.*[ \t](?:ecr|ecr-public)[ \t]+get-login-password\b/,
  /^aws\b.*[ \t]codeartifact[ \t]+get-authorization-token\b.*[ \t]--query[= ]["']?authorizationToken\b/,
  // Secret managers.
  /^vault\b.*[ \t](?:print[ \t]+token\b|login\b.*[ \t]-token-only\b)/,
  /^bw[ \t]+get[ \t]+(?:password|totp)\b/,
  /^lpass[ \t]+show\b.*[ \t]--password\b/,
  /^secret-tool[ \t]+lookup\b/,
  /^keyring[ \t]+get\b/,
  /^sops\b.*[ \t]--extract\b/,
  /^Get-AzKeyVaultSecret\b.*[ \t]-AsPlainText\b/i,
  /^(?:kubectl|oc)[ \t]+view-secret\b/,
  /^oc[ \t]+extract\b.*[ \t]--to[= ]-(?:[ \t]|$)/,
  /^(?:doppler|infisical)\b.*[ \t]secrets[ \t]+get\b.*[ \t]--(?:plain|raw)\b/,
  /^security[ \t]+find-(?:generic|internet)-password\b.*[ \t]-w\b/,
  /^(?:gh|heroku|fly|flyctl)[ \t]+auth(?::|[ \t]+)token\b/,
  // Secrets made on the spot to be one.
  /^pwgen\b/,
  /^(?:bin\/)?rails[ \t]+secret\b/,
  /^mix[ \t]+phx\.gen\.secret\b/,
  /^php[ \t]+artisan[ \t]+key:generate\b.*[ \t]--show\b/,
  /^vault[ \t]+token[ \t]+lookup\b.*[ \t]-field[= ]["']?id\b/,
  /^wg[ \t]+genkey\b/,
];

/** Commands that print random bytes: a key where they are as long as one (see MIN_RANDOM_SECRET). */
const RANDOM_PRINTERS: readonly RegExp[] = [/^openssl[ \t]+rand\b/, /^gpg\b.*[ \t]--gen-random\b/];

/**
 * Commands that print the secret a name given to them names: `heroku config:get
 * DATABASE_PASSWORD`, a field read from a secret manager (`vault kv get -field=password`, `op
 * read op://vault/db/password`), a decrypted parameter by its name.
 */
const NAMED_PRINTERS: readonly RegExp[] = [
  /^heroku[ \t]+config:get[ \t]+(?:-\S+[ \t]+\S+[ \t]+)*(\S+)/,
  /^terraform[ \t]+output[ \t]+(?:-raw[ \t]+|-json[ \t]+)?(\w+)$/,
  /^pulumi[ \t]+(?:config[ \t]+get|stack[ \t]+output)[ \t]+(\S+)/,
  /^git[ \t]+config[ \t]+(?:--(?:global|local|system|get)[ \t]+)*(\S+)$/,
  /^vault\b.*[ \t]-field[= ]["']?([\w-]+)/,
  /^op[ \t]+read[ \t]+(?:"op:\/\/[^"\n]*\/([\w -]+)"|'op:\/\/[^'\n]*\/([\w -]+)'|op:\/\/\S*\/([\w-]+))(?:[ \t]|$)/,
  /^op[ \t]+item[ \t]+get\b.*[ \t]--fields?[= ]["']?(?:label=)?([\w-]+)/,
  /^aws\b.*[ \t]configure[ \t]+get[ \t]+([\w.-]+)/,
  /^chamber[ \t]+read\b(?:[ \t]+-\S+)*[ \t]+\S+[ \t]+(\S+)/,
  /^(?:npm|pnpm|yarn)[ \t]+config[ \t]+get[ \t]+\S*?([A-Za-z_]+)$/,
  // A parameter read decrypted, by its name (`/shop/prod/DB_PASSWORD`): not its host's.
  /^aws\b.*[ \t]ssm[ \t]+get-parameters?\b(?=.*[ \t]--with-decryption\b).*[ \t]--names?[= ]["']?(?:\S*\/)?([\w.-]+?)["']?(?:[ \t]|$)/,
];

/** AWS's secret stores answering in JSON: a decrypted parameter, a secret's value. */
const SECRET_STORE_JSON = /^aws\b.*[ \t](?:ssm[ \t]+get-parameters?\b(?=.*[ \t]--with-decryption\b)|secretsmanager[ \t]+get-secret-value\b)/;

/** A parameter's name, where the command reads one (`--name /shop/prod/DB_PASSWORD`), says it is a secret; a secret of Secrets Manager is one. */
function ssmNameIsSecret(stage: string): boolean {
  const name = /[ \t]--names?[= ]["']?(?:\S*\/)?([\w.-]+?)["']?(?:[ \t]|$)/.exec(stage)?.[1];
  return !/[ \t]ssm[ \t]/.test(stage) || (name !== undefined && isPrintedSecretName(name));
}

/** AWS's own answers by the member a query reads: `--query Credentials.SecretAccessKey`. */
const AWS_QUERY = /^aws\b.*[ \t]--query[= ]["']?(?:[\w[\]*.:-]*\.)?([A-Za-z]\w*)["']?(?:[ \t]|$)/;

/**
 * Azure's answers by the member a query reads (`--query accessToken`, `--query password`), or a
 * secret store's `value` (`az keyvault secret show --query value`); any member of a keys list but
 * its names and permissions (`--query key1`, `[0].value`).
 */
const AZ_QUERY = /^az\b.*[ \t]--query[= ]["']?(?:[\w[\]*.-]*\.)?([A-Za-z]\w*)(?:\[\d+\])?["']?(?:[ \t]|$)/;
const AZ_SECRET_STORE = /[ \t](?:keyvault[ \t]+secret[ \t]+show|credential[ \t]+(?:show|list|reset))\b/;
const AZ_KEYS_LIST = /[ \t](?:keys[ \t]+list|list-keys)\b/;

/** A field of a secret manager's that holds the secret itself (`vault kv get -field=value`, an Azure query's `[0].value`). */
const VALUE_FIELDS: ReadonlySet<string> = new Set(['value', 'data', 'credential', 'private_key', 'secret_id']);

/** Docker's and Kubernetes's mounted secrets, Vault's token file, PostgreSQL's password file. */
const SECRET_FILE_PLACE = /^\/(?:var\/)?run\/secrets\/|(?:^|\/)\.(?:vault-token|pgpass)$/;
/** What a mounted service account holds beside its token, and certificates: no secret. */
const NOT_SECRET_FILE = /(?:^|\/)(?:namespace|[^/]*\.(?:crt|pem|pub|cert))$/;
/** A mounted secret's name that says it holds no secret (`postgres_user`, `postgres_db`). */
const NOT_SECRET_WORDS: ReadonlySet<string> = new Set(['user', 'username', 'db', 'database', 'host', 'hostname', 'port', 'name', 'url', 'email', 'region', 'login']);

/** Programs that print a file: a secret file's only word is its secret. */
const FILE_PRINTER = /^(?:cat|type|Get-Content|gc|more|bat|head|tail)(?:[ \t]+-\S+(?:[ \t]+\d+)?)*[ \t]+(["']?)([^\s"'|<>]+)\1$/;

/**
 * What runs the command after it, read as that command: another machine's shell (`ssh prod …`,
 * `fly ssh console -C …`), a container's or a pod's exec, a secret manager's or an environment's
 * run (`doppler run -- printenv KEY`), a project's runner (`uv run`).
 */
const RUNNER = /^(?:ssh(?:[ \t]+-[1246AaCfGgKkMNnqsTtVvXxYy]+|[ \t]+-[BbcDEeFIiJLlmOoPpQRSWw][ \t]*\S+)*[ \t]+[\w.@-]+[ \t]+|(?:fly|flyctl)[ \t]+ssh[ \t]+console\b.*?[ \t](?:-C|--command)[ \t]+|(?:docker|podman|nerdctl)[ \t]+run(?:[ \t]+(?:--?(?:e|env|env-file|v|volume|w|workdir|u|user|name|network|net|entrypoint|p|publish|platform|label|l|mount|add-host|hostname|h|m|memory|memory-swap|cpus|cpu-shares|c|pull|gpus|shm-size|cap-add|cap-drop|device|ulimit|log-driver|log-opt|restart|dns|tmpfs|runtime|ipc|pid|security-opt|stop-signal|cidfile|expose|link|group-add|init-path|isolation|kernel-memory|userns|uts|volumes-from|health-cmd)(?:[ \t]+|=)\S+|-\S+))*[ \t]+[\w./:@-]+[ \t]+|(?:docker|podman|nerdctl)(?:[ \t]+compose)?[ \t]+exec(?:[ \t]+-(?:e|w|u|-env|-workdir|-user)[ \t]+\S+|[ \t]+-\S+)*[ \t]+[\w.-]+[ \t]+|(?:kubectl|oc)\b(?:[ \t]+\S+)*?[ \t]+exec\b.*?[ \t]--[ \t]+|(?:doppler|infisical|op|aws-vault)\b.*?[ \t]run\b.*?[ \t]--[ \t]+|(?:dotenv|env-cmd)\b.*?[ \t]--[ \t]+|(?:uv|poetry|pipenv|pdm|hatch|rye)[ \t]+run[ \t]+|bundle[ \t]+exec[ \t]+)/;

/** A shell given the command as its argument: `bash -c "…"`, `pwsh -Command "…"`, `cmd /c …`. */
const SHELL_ARGUMENT = /^(?:(?:\S*\/)?(?:ba|z|da|k)?sh(?:[ \t]+-[a-z]+)*[ \t]+-l?c[ \t]+|(?:pwsh|powershell)(?:\.exe)?(?:[ \t]+-(?!c\b|Command\b)\w+)*[ \t]+-(?:c|Command)[ \t]+|cmd(?:\.exe)?[ \t]+\/[cC][ \t]+)(.*)$/s;

/** How a command prints a secret and nothing else, or null when it does not (or prints more). */
export function printsSecret(command: string): PrintedSecret | null {
  if (command.length > MAX_COMMAND_LENGTH) return null;
  const printing = shellParts(withoutShell(command.trim()), STATEMENT_BREAKS).filter((statement) => !SILENT.test(statement));
  if (printing.length === 1) return printedByStatement(printing[0] as string);
  // Several, each printing a secret alone (`echo $API_KEY; echo $DB_PASSWORD`): each line of the output is one.
  const each = printing.map(printedByStatement);
  if (each.length < 2 || each.some((printed) => printed === null || printed === 'first-line')) return null;
  return each.includes('whole') ? 'whole' : 'random';
}

/** The command a shell is given to run (`bash -lc "…"`, as Codex records its calls), unquoted. */
function withoutShell(command: string): string {
  const inner = SHELL_ARGUMENT.exec(command)?.[1]?.trim();
  if (inner === undefined) return command;
  const quoted = /^(["'])([\s\S]*)\1$/.exec(inner);
  return quoted ? (quoted[2] as string) : inner;
}

/** What one statement of a command prints: a pipe of commands. */
function printedByStatement(statement: string): PrintedSecret | null {
  const stages = shellParts(statement, PIPE).map(withoutWrappers);
  for (let i = 0; i < stages.length; i++) {
    // A secret's line found, then cut to its value (`grep API_KEY .env | head -1 | cut -d= -f2`).
    const search = SECRET_LINE_SEARCH.exec(stages[i] as string)?.[2];
    if (search !== undefined && isPrintedSecretName(search)) {
      let cutter = i + 1;
      while (cutter < stages.length && !VALUE_CUTTER.test(stages[cutter] as string) && /^(?:head|tail|sort|uniq)(?:[ \t]|$)/.test(stages[cutter] as string)) cutter++;
      if (cutter < stages.length && VALUE_CUTTER.test(stages[cutter] as string)) return stages.slice(cutter + 1).every((stage) => KEEPING_FILTER.test(stage)) ? 'whole' : null;
    }
    // A secret store's answer in JSON, its value read by jq (`aws ssm get-parameter --name …/DB_PASSWORD --with-decryption | jq -r .Parameter.Value`).
    if (SECRET_STORE_JSON.test(stages[i] as string) && ssmNameIsSecret(stages[i] as string) && /^jq\b.*\.(?:Parameters?(?:\[\d*\])?\.Value|SecretString)\b/.test(stages[i + 1] ?? '')) {
      return keepsIt(stages.slice(i + 2)) ? 'whole' : null;
    }
    const printed = printedBy(stages[i] as string, i > 0);
    if (printed === null) continue;
    return keepsIt(stages.slice(i + 1)) ? printed : null;
  }
  return null;
}

/** Whether what follows a printer in a pipe still prints its secret: a jq after it must read a secret's member too (`cat token.json | jq -r .expires_at` prints a time). */
function keepsIt(stages: readonly string[]): boolean {
  return stages.every((stage) => (JQ.test(stage) ? printedBy(stage, true) !== null : KEEPING_FILTER.test(stage)));
}

/** What one command of a pipe prints; `piped`: it reads what the commands before it print. */
function printedBy(stage: string, piped: boolean): PrintedSecret | null {
  // Asked for its help, a command prints that.
  if (/(?:^|[ \t])(?:-h|-help|--help)(?:[ \t]|$)/.test(stage)) return null;
  // A secret's value read out of a file's `NAME=value` line by sed, grep or awk alone.
  const valueOf = SED_VALUE.exec(stage) ?? GREP_VALUE.exec(stage) ?? AWK_VALUE.exec(stage);
  if (valueOf) return isPrintedSecretName((valueOf[2] ?? valueOf[1]) as string) ? 'whole' : null;
  // Random bytes made text (`tr -dc 'A-Za-z0-9' </dev/urandom | head -c 32`, `xxd -l 16 -p /dev/urandom`).
  if (/(?:^|[ \t<])\/dev\/u?random\b/.test(stage)) return 'random';
  if (!piped && RANDOM_PRINTERS.some((printer) => printer.test(stage))) return 'random';
  if (JQ.test(stage)) {
    const filter = /[ \t](["'])(.*)\1(?:[ \t]+<?[ \t]*[^\s"'<]+)?$/.exec(stage) ?? /[ \t](\.\S*)(?:[ \t]+<?[ \t]*[^\s"'<]+)?$/.exec(stage);
    return filter && isPrintedMember(filter[2] ?? (filter[1] as string)) ? 'whole' : null;
  }
  if (!piped && PRINTERS.some((printer) => printer.test(stage))) return 'whole';
  if (CODE_RUNNER.test(stage)) {
    // Code may read what is piped to it (`… | python3 -c "…json.load(sys.stdin)['access_token']"`).
    const variable = PRINTS_VARIABLE.exec(stage);
    const direct = variable !== null && PRINTED_DIRECTLY.test(stage.slice(variable.index + variable[0].length)) ? (variable[1] ?? variable[2]) : undefined;
    const name = direct ?? NODE_PRINTS_VARIABLE.exec(stage)?.[1] ?? PRINTS_MEMBER.exec(stage)?.[1];
    if (name !== undefined && isPrintedSecretName(name)) return 'whole';
    if (piped) return null;
    return PRINTS_SECRET.test(stage) ? 'whole' : PRINTS_RANDOM.test(stage) ? 'random' : null;
  }
  if (piped) return null;
  if (/^(?:pass|gopass)[ \t]+(?:(?:show|cat)[ \t]+(?:-\S+[ \t]+)*[\w@.-]+(?:\/[\w@.-]+)*|[\w@.-]+(?:\/[\w@.-]+)+)$/.test(stage) && !/[ \t](?:ls|list|find|grep|init|insert|edit|generate|rm|mv|cp|git)\b/.test(stage)) return 'first-line';
  // Kubernetes: a secret's member by a template (`get secret db -o jsonpath='{.data.password}'`,
  // a kubeconfig's `{.users[0].user.token}`); `| base64 -d` may follow, or not: its base64 is as secret.
  if (/^(?:kubectl|oc)\b/.test(stage)) return isKubernetesSecretMember(stage) ? 'whole' : null;
  const awsMember = AWS_QUERY.exec(stage)?.[1];
  if (awsMember !== undefined && isPrintedSecretName(awsMember)) return 'whole';
  const azMember = AZ_QUERY.exec(stage)?.[1];
  if (azMember !== undefined) return isPrintedSecretName(azMember) || (azMember === 'value' && AZ_SECRET_STORE.test(stage)) || (AZ_KEYS_LIST.test(stage) && !/name|permission|type|creat/i.test(azMember)) ? 'whole' : null;
  const ghJq = /^gh[ \t]+api\b.*[ \t](?:--jq|-q)[= ](["']?)(\S+?)\1(?:[ \t]|$)/.exec(stage)?.[2];
  if (ghJq !== undefined) return isPrintedMember(ghJq) ? 'whole' : null;
  for (const printer of NAMED_PRINTERS) {
    const m = printer.exec(stage);
    const name = m?.[1] ?? m?.[2] ?? m?.[3];
    if (name !== undefined && isPrintedName(name)) return 'whole';
  }
  const hereString = /^cat[ \t]*<<<[ \t]*(\S+)$/.exec(stage)?.[1];
  if (hereString !== undefined) return isSecretVariable(VARIABLE_ARGUMENT.exec(hereString)) ? 'whole' : null;
  const named = /^printenv((?:[ \t]+[A-Za-z_]\w*)+)$/.exec(stage)?.[1];
  if (named !== undefined) return named.trim().split(/[ \t]+/).every((name) => isPrintedSecretName(name)) ? 'whole' : null;
  // PowerShell prints an expression's value: `$env:OPENAI_API_KEY` alone, `(Get-Item Env:KEY).Value`.
  const expression =
    /^\$env:([A-Za-z_]\w*)$/i.exec(stage)?.[1] ??
    /^\[(?:System\.)?Environment\]::GetEnvironmentVariable\([ \t]*["']([A-Za-z_]\w*)["']/i.exec(stage)?.[1] ??
    /^\((?:Get-Item|Get-ChildItem|gi|gci)[ \t]+(?:-Path[ \t]+)?Env:([A-Za-z_]\w*)\)\.Value$/i.exec(stage)?.[1] ??
    // A table of its name and value, one word where `Select-Object -ExpandProperty Value` follows.
    /^(?:Get-Item|Get-ChildItem|gi|gci)[ \t]+(?:-Path[ \t]+)?Env:([A-Za-z_]\w*)$/i.exec(stage)?.[1];
  if (expression !== undefined) return isPrintedSecretName(expression) ? 'whole' : null;
  const echoed = /^(?:echo|printf|Write-Output|Write-Host|print)((?:[ \t]+\S+)+)$/i.exec(stage);
  if (echoed) {
    const words = (echoed[1] as string).trim().split(/[ \t]+/).filter((word) => !/^-[neE]+$/.test(word) && !/^(["']?)%s(?:\\n)?\1$/.test(word));
    if (words.length > 0 && words.every((word) => isSecretVariable(VARIABLE_ARGUMENT.exec(word)))) return 'whole';
    return null;
  }
  const decrypted = /^gpg\b.*[ \t](?:-d|--decrypt)\b.*[ \t](\S+?)(?:\.gpg|\.asc)$/.exec(stage)?.[1];
  if (decrypted !== undefined) return isSecretFile(decrypted) ? 'whole' : null;
  const file = FILE_PRINTER.exec(stage)?.[2];
  if (file !== undefined && isSecretFile(file)) return 'whole';
  return null;
}

function isKubernetesSecretMember(stage: string): boolean {
  const template = /[ \t](?:-o|--output)[= ]?["']?(?:jsonpath|go-template|template)=["']?(.*)$/.exec(stage)?.[1] ?? /[ \t]--template[= ](.*)$/.exec(stage)?.[1];
  if (template === undefined) return false;
  if (/[ \t]get[ \t]+secrets?\b/.test(stage)) {
    // A secret's data by its member's name: `.data.username` or `.metadata.name` print no secret.
    for (const m of template.matchAll(SECRET_DATA_MEMBER)) if (isPrintedSecretName((m[1] ?? m[2] ?? '').replace(/\\?\./g, '_'))) return true;
    return false;
  }
  const path = /\{([^{}]*)\}/.exec(template)?.[1];
  return path !== undefined && isPrintedMember(path);
}

function isSecretVariable(reference: RegExpExecArray | null): boolean {
  const name = reference?.[2] ?? reference?.[3] ?? reference?.[4];
  return name !== undefined && isPrintedSecretName(name);
}

function isPrintedName(name: string): boolean {
  const last = name.replace(/^["']|["']$/g, '').split('.').at(-1) as string;
  return isPrintedSecretName(last) || VALUE_FIELDS.has(last.toLowerCase());
}

function isPrintedMember(filter: string): boolean {
  const member = FILTER_MEMBER.exec(filter);
  const name = member?.[1] ?? member?.[2];
  return name !== undefined && isPrintedSecretName(name);
}

/** The file a command prints whole (`cat`, `tail`, `Get-Content` of one path), or null. */
export function fileItPrints(command: string): string | null {
  return FILE_PRINTER.exec(withoutWrappers(command))?.[2] ?? null;
}

/** A file named for the secret it holds (`db_password.txt`, `~/.config/app/token`, `.token`), or in a place only secrets are. */
function isSecretFile(path: string): boolean {
  if (NOT_SECRET_FILE.test(path)) return false;
  const base = path.split(/[\\/]/).at(-1) as string;
  if (SECRET_FILE_PLACE.test(path)) return isPrintedSecretName(base) || !nameWords(base).some((word) => NOT_SECRET_WORDS.has(word));
  const name = base.replace(/(?<=.)\.(?:txt|key|secret|token)$/i, '');
  // A key file's own name says what it is (`id_ed25519`, `server.key`): its body is found by its shape.
  return name !== '' && isPrintedSecretName(name) && !nameWords(name).includes('public');
}

/** `sudo`, `npx`, `env`, a runner, a program's path and variables set for it: the command they run is the one read. */
function withoutWrappers(stage: string): string {
  let words = stage.trim();
  for (;;) {
    // What a runner runs may be given quoted (`ssh prod 'printenv DB_PASSWORD'`).
    const next = withoutShell(
      words
        .replace(/^(?:(?:sudo|doas)(?:[ \t]+-[ugCDhprtU][ \t]*\S+|[ \t]+-\S+)*[ \t]+|(?:npx|env|time|command|exec)(?:[ \t]+-\S+)*[ \t]+|[A-Za-z_]\w*=\S*[ \t]+)/, '')
        .replace(RUNNER, '')
        .replace(/^--[ \t]+/, '')
        .replace(/^'([^']*)'$|^"((?:[^"\\]|\\.)*)"$/s, (_, single: string | undefined, double: string | undefined) => single ?? (double as string).replace(/\\(["\\$`])/g, '$1')),
    );
    if (next === words) break;
    words = next;
  }
  return words.replace(/^(?:\S*\/)?(\S+?)(?:\.exe)?(?=[ \t]|$)/, '$1').replace(/[ \t]*(?:\d?>>?[ \t]*\/dev\/null|2>&1)/g, '').trim();
}

const JQ = /^(?:jq|yq)(?:[ \t]|$)/;
const STATEMENT_BREAKS = /^(?:&&|\|\||;|\r?\n)/;
const PIPE = /^\|(?!\|)/;

/**
 * A command's parts between the breaks given, outside quotes and here-documents: `;` inside
 * `python -c "…; print(…)"` breaks nothing, nor a line of `python3 - <<'EOF' … EOF`.
 */
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
    if (c === '<' && command[i + 1] === '<' && command[i + 2] !== '<') {
      i = hereDocumentEnd(command, i);
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

/** Where a here-document opened at `at` (`<<'EOF'`) ends: its closing word's line's end (the text's end when none closes it). */
function hereDocumentEnd(command: string, at: number): number {
  const open = /^<<-?[ \t]*(["']?)([A-Za-z_]\w*)\1/.exec(command.slice(at, at + 100));
  if (!open) return at + 1;
  const close = new RegExp(String.raw`\n[ \t]*${open[2]}[ \t]*(?=\r?\n|$)`).exec(command.slice(at));
  return close ? at + close.index + close[0].length - 1 : command.length;
}

/**
 * The header a Codex tool's output opens with (`Exit code: 0`, `Wall time: …`, `Output:`), before
 * what the command printed.
 */
const OUTPUT_HEADER = /^(?:(?:Exit code|Wall time|Chunk ID|Process exited with code|Process running with session ID|Original token count|Total output lines)\b[^\n]*\n)+Output:\r?\n/;

/**
 * What is no part of what a command printed to say: an agent's notes (Pi's exit code, Claude
 * Code's note that the shell went back to its folder), and a tool's log line on its error output
 * (kubectl's `E0115 10:00:00.000000 123 memcache.go:265] …`, `Warning: …`).
 */
const NOTE_LINE = /^(?:Command exited with code -?\d+|Shell cwd was reset to .*|[EWIF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [\w.-]+:\d+\] .*|Warning: .*)$/;

/**
 * A line a tool or the shell prints about itself on the way, around the value (`Defaulted container
 * "api" out of: …`, compose's `WARN[0000] …`, `bash: warning: setlocale: …`, ssh's `** WARNING: …`,
 * gcloud's notice of updates): a line of words that is no value, passed over when the rest is one.
 */
const NOISE_LINE = /\b(?:warn(?:ing)?|error|notice|deprecat\w*|defaulted container|unable to|cannot|setlocale|updates? (?:are|is) available|components update|survey|using (?:c?python|\w+ \d)|installed \d+ packages?|resolved \d+ packages?|to update|please run|creating virtual environment|downloading|prepared \d+|pulling from|pull complete|already exists|download complete|verifying checksum|digest: sha256|status: downloaded|can't)\b|^\*\*|^# |^\+ |^›|^(?:bash|sh|zsh|sudo|ssh):|^\$ /i;

/** A path, where a variable named for a secret names the file that holds it (`GOOGLE_APPLICATION_CREDENTIALS`). */
const PATH_WORD = /^(?:~|\.{1,2})?\/(?:[\w.-]+\/)+[\w.-]+\/?$|^[A-Za-z]:[\\/](?:[\w .-]+[\\/])*[\w .-]+$|^[\w.-]+(?:\/[\w.-]+)+\.[A-Za-z0-9]{1,6}$/;

/** A date or a time (`2026-11-02T10:00:00Z`): an expiry printed, no secret. */
const DATE_WORD = /^\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?$/;

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
  // Claude Code's BashOutput of a command run in the background: what it printed is in `<stdout>`;
  // a Read of its output file numbers the lines, and a reminder may follow.
  body = (/<stdout>\n?([\s\S]*?)<\/stdout>/.exec(body)?.[1] ?? body).replace(/<system-reminder>[\s\S]*?(?:<\/system-reminder>|$)/g, '').replace(/^[ \t]*\d+→/gm, '');
  // jq without -r, and Azure's JSON output, print a string in its quotes.
  const lines = body.split('\n').map((line) => line.trim().replace(/^"([^"\\]*)"$/, '$1')).filter((line) => line !== '' && !NOTE_LINE.test(line));
  // Words the tool said on the way are passed over, where some line is no such word.
  const values = lines.some((line) => !/\s/.test(line)) ? lines.filter((line) => !(/\s/.test(line) && NOISE_LINE.test(line))) : lines;
  const taken = printed === 'first-line' ? values.slice(0, 1) : values;
  if (taken.length === 0 || taken.length > MAX_PRINTED_LINES || !taken.every(isPrintedWord)) return [];
  if (printed === 'random' && taken.some((value) => value.length < MIN_RANDOM_SECRET)) return [];
  return taken;
}

function isPrintedWord(line: string): boolean {
  if (!PRINTED_WORD.test(line) || /^\d{1,5}$/.test(line) || PATH_WORD.test(line) || DATE_WORD.test(line)) return false;
  return isSecretValue(line, { quoted: true, form: 'literal', name: 'secret', after: '' });
}

/**
 * Whether a printed secret is one to take wherever the session quotes it, not only from its
 * output: long, and of letters and digits both, as a key or a password is. A word (`postgres`,
 * `configured`) taken everywhere would take it from every text that says it for its own sake.
 */
export function isQuotedSecret(secret: string): boolean {
  return secret.length >= 8 && /\d/.test(secret) && /[A-Za-z]/.test(secret);
}
