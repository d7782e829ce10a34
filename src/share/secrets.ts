// What --redact looks for, as data: the shapes of keys issued by known services, and the rule
// that tells a secret written after a secret-sounding name (`DB_PASSWORD=…`, `"apiKey": "…"`) from
// ordinary code that merely names one (`const apiKey = await getApiKeyForModel(model)`).
//
// Every rule finds spans of one text; the redactor merges the spans of all rules, so order only
// decides the kind a span is counted under when two rules find it (the earlier, more specific
// one). Patterns are written to stay linear on long lines: every unbounded run is anchored
// to a distinctive prefix or bounded, so a megabyte of near-matches costs one pass.

import { APOSTROPHES, CLOSING_QUOTES } from '../unicode-text.js';

export interface Span {
  start: number;
  end: number;
}

/** A span found by a rule; `kind` when it differs from the rule's. */
export interface Found extends Span {
  kind?: string;
}

export interface SecretRule {
  kind: string;
  find(text: string): readonly Found[];
}

interface ShapeOptions {
  /** The capture group that holds the secret (of several, the first that matched); the rest of the match is kept. Default 0, the whole match. */
  group?: number | readonly number[];
  /** Says whether the captured text is a secret after all. */
  accept?: (value: string) => boolean;
  /** A cheap test that must pass before the pattern runs: patterns that open with a lookbehind or a class scan slowly. */
  hint?: string | RegExp | ((text: string) => boolean);
  /** Says whether the match's place (where it starts) is one its pattern means; where not, the pattern looks on from the next character. */
  place?: (text: string, start: number) => boolean;
}

/** A rule from a pattern (compiled with the d flag, for the positions of groups). */
export function shape(kind: string, pattern: RegExp, options: ShapeOptions = {}): SecretRule {
  const { group = 0, accept, hint, place } = options;
  const groups: readonly number[] = typeof group === 'number' ? [group] : group;
  const flags = pattern.flags.includes('d') ? pattern.flags : `${pattern.flags}d`;
  const re = new RegExp(pattern.source, flags);
  return {
    kind,
    find(text) {
      const found: Found[] = [];
      if (hint !== undefined && !(typeof hint === 'string' ? text.includes(hint) : typeof hint === 'function' ? hint(text) : hint.test(text))) return found;
      // exec on the rule's own pattern, not matchAll: matchAll copies the pattern on every call.
      re.lastIndex = 0;
      for (let match = re.exec(text); match; match = re.exec(text)) {
        if (match[0] === '') re.lastIndex++;
        const indices = match.indices;
        const at = indices === undefined ? undefined : groups.map((g) => indices[g]).find((span) => span !== undefined);
        if (!at || at[1] <= at[0]) continue;
        if (place && !place(text, match.index)) {
          re.lastIndex = match.index + 1;
          continue;
        }
        if (accept && !accept(text.slice(at[0], at[1]))) continue;
        found.push({ start: at[0], end: at[1] });
      }
      return found;
    },
  };
}

const AWS_SECRET_SHAPE = /(?<![A-Za-z0-9/+])(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}\d)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
const AWS_SECRET_CONTEXT = /(?:\b(?:AKIA|ASIA)[A-Z0-9]{16}[\s\S]{0,60}|(?:\bsecret\b|\bkey\b)[^\n]{0,60})$/i;
/** Or said after it: `Use … as the secret access key`. */
const AWS_SECRET_AFTER = /^[^\n]{0,40}\b(?:secret|access key|aws)\b/i;

function awsSecretsInProse(text: string): Found[] {
  const found: Found[] = [];
  if (!/secret|key|AKIA|ASIA/i.test(text)) return found;
  AWS_SECRET_SHAPE.lastIndex = 0;
  for (let m = AWS_SECRET_SHAPE.exec(text); m; m = AWS_SECRET_SHAPE.exec(text)) {
    if (!looksRandom(m[0]) || encodesText(m[0])) continue;
    if (AWS_SECRET_CONTEXT.test(text.slice(Math.max(0, m.index - 100), m.index)) || AWS_SECRET_AFTER.test(text.slice(m.index + 40, m.index + 100))) found.push({ start: m.index, end: m.index + 40 });
  }
  return found;
}

/**
 * Forty characters drawn at random from base64's, not words: a path
 * (src/main/java/com/Example2/Auth/KeyStore) or an identifier (fetchPaginatedItemsWithCursor2AndFilters)
 * holds several runs of four and more small letters, a random key seldom two (about 40% of its
 * characters are small letters: four in a row come about once in forty characters).
 */
function looksRandom(token: string): boolean {
  return (token.match(/[a-z]{4,}/g)?.length ?? 0) < 3;
}

/**
 * Forty characters that are base64 of words written with spaces (a test's fixture, `dGhlIHF1…`
 * for "the quick brown fox…"), not a key: printable, three spaces or more, letters and spaces
 * nearly all of it. A random key's thirty bytes are all printable about once in 10¹³. Hostile
 * looks: "decodes to printable" let every encoded password through, "holds a run of small
 * letters" an encoded passphrase (correcthorsebattery…); the alphabet encoded is redacted.
 */
function encodesText(token: string): boolean {
  const bytes = Buffer.from(token, 'base64');
  if (bytes.length !== 30 || !bytes.every((byte) => (byte >= 0x20 && byte < 0x7f) || byte === 0x09 || byte === 0x0a || byte === 0x0d)) return false;
  const text = bytes.toString('latin1');
  return (text.match(/ /g)?.length ?? 0) >= 3 && (text.match(/[A-Za-z ]/g)?.length ?? 0) >= 27;
}

const SUDO_VALUE = String.raw`(?:'[^'\n]*'|"[^"\n]*"|[^\s|;&'"-][^\s|;&'"]*)`;
/**
 * `sudo -S` (`--stdin`), after its other options and their values (`-u root`, `-p ''`,
 * `--user=root`, `--chdir /tmp`, `-u#1000`). Each option is read one way only: a run of letters
 * without S, a value glued that starts with no letter, then maybe a value that is no option; read
 * two ways, a line of them took exponential time.
 */
const SUDO_STDIN = String.raw`sudo(?:[ \t]+(?:--(?!stdin\b)[A-Za-z][\w-]*(?:=(?:'[^'\n]*'|"[^"\n]*"|[^\s|;&'"]*)|[ \t]+${SUDO_VALUE})?|-[A-RT-Za-z]+(?:'[^'\n]*'|"[^"\n]*"|[^\sA-Za-z|;&'"][^\s|;&]*)?(?:[ \t]+${SUDO_VALUE})?))*?[ \t]+(?:-[A-Za-z]*S[A-Za-z]*(?:'[^'\n]*'|"[^"\n]*"|[^\sA-Za-z|;&'"][^\s|;&]*)?|--stdin)(?=[ \t\r\n]|$)`;
/** What takes a password on its standard input: a registry's login, `gh auth login --with-token`, `docker secret create NAME -`, `sudo -S`; through sudo (with its flags and their values), env or npx. */
const STDIN_LOGIN = String.raw`(?:\\\r?\n[ \t]*)?(?:(?:sudo|doas)(?:[ \t]+--?[A-Za-z][\w-]*(?:[ \t]+[^-\s|;&]\S*)?)*[ \t]+)?(?:env(?:[ \t]+-\S+)*[ \t]+)?(?:[A-Za-z_]\w*=\S*[ \t]+)*(?:npx(?:[ \t]+-\S+)*[ \t]+)?(?:\S*\/)?(?:(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane|finch|cosign)\b[^\n|;&]{0,300}?--password-stdin\b|gh[ \t]+auth[ \t]+login\b[^\n|;&]{0,200}?--with-token\b|(?:docker|podman)[ \t]+secret[ \t]+create[ \t]+(?:-\S+[ \t]+)*\S+[ \t]+-(?=[ \t]|$)|gcloud[ \t]+secrets[ \t]+(?:create|versions[ \t]+add)\b[^\n|;&]{0,300}?--data-file[ \t=]-(?=[ \t]|$)|wrangler\b[^\n|;&]{0,100}?\bsecret[ \t]+put\b|vercel\b[^\n|;&]{0,100}?\benv[ \t]+add\b|gh[ \t]+secret[ \t]+set\b(?![^\n|;&]{0,300}?[ \t](?:-b|--body|-f|--env-file)\b)|${SUDO_STDIN})`;
const STDIN_PASSWORD = new RegExp(String.raw`\b(?:echo|printf|Write-Output|Write-Host)(?:[ \t]+-[neE]+)*(?:[ \t]+(["']?)%s(?:\\n)?\1)?[ \t]+(?:"((?!\[REDACTED:)[^"\n]{1,200})"|'((?!\[REDACTED:)[^'\n]{1,200})'|((?!\[REDACTED:)[^\s"'|;&\`]{4,200}))[ \t]*\|[ \t]*${STDIN_LOGIN}`, 'dg');
/** A here-string: `docker login … --password-stdin <<< PASS`, `cat <<< PASS | docker login …`. */
const STDIN_HERE = new RegExp(String.raw`(?:--password-stdin\b[^\n|;&<]{0,100}?|\bcat[ \t]+|\b${SUDO_STDIN}[^\n|;&<]{0,200}?)<<<[ \t]*(?:"((?!\[REDACTED:)[^"\n]{1,200})"|'((?!\[REDACTED:)[^'\n]{1,200})'|((?!\[REDACTED:)[^\s"'|;&\`]{4,200}))`, 'dg');

function stdinPasswords(text: string): Found[] {
  const found: Found[] = [];
  if (!STDIN_HINT.test(text)) return found;
  // The password is whichever of its three spellings (in double quotes, single quotes, bare) matched, from `first` on.
  const take = (m: RegExpExecArray, first: number) => {
    const group = [first, first + 1, first + 2].find((g) => m[g] !== undefined) ?? first;
    const at = m.indices?.[group];
    const value = m[group];
    if (at && value !== undefined && isLiteralPassword(value) && !value.includes('$')) found.push({ start: at[0], end: at[1] });
  };
  STDIN_PASSWORD.lastIndex = 0;
  for (let m = STDIN_PASSWORD.exec(text); m; m = STDIN_PASSWORD.exec(text)) take(m, 2);
  if (text.includes('<<')) for (const password of hereDocumentPasswords(text)) found.push(password);
  if (!text.includes('<<<')) return found;
  STDIN_HERE.lastIndex = 0;
  for (let m = STDIN_HERE.exec(text); m; m = STDIN_HERE.exec(text)) {
    // `cat <<< …` is a password only when what it feeds logs in with it.
    if (m[0].startsWith('cat') && !STDIN_FED.test(text.slice(m.index + m[0].length))) continue;
    take(m, 1);
  }
  // A here-string given to anything else that reads a secret on its input (`gh auth login
  // --with-token <<< …`, `podman secret create name - <<< …`, `vercel env add NAME <<< …`): its
  // command, from where it starts (HERE_STRING_REACH at most before it).
  // Each command's start and the hints in it are found once, in text order: a line of here-strings
  // is read in linear time.
  const taken = new Set(found.map((password) => password.start));
  const hints: number[] = [];
  STDIN_HINTS.lastIndex = 0;
  for (let h = STDIN_HINTS.exec(text); h; h = STDIN_HINTS.exec(text)) hints.push(h.index);
  let [commandStart, scanned, hint] = [0, 0, 0];
  HERE_STRING.lastIndex = 0;
  for (let m = HERE_STRING.exec(text); m; m = HERE_STRING.exec(text)) {
    for (; scanned < m.index; scanned++) if ('\n|;&(`'.includes(text[scanned] as string)) commandStart = scanned + 1;
    const start = Math.max(commandStart, m.index - HERE_STRING_REACH);
    while ((hints[hint] ?? Infinity) < start) hint++;
    const value = m.indices?.slice(1).find((span) => span !== undefined);
    if (value === undefined || taken.has(value[0]) || (hints[hint] ?? Infinity) >= m.index) continue;
    // The login's own arguments run to the here-string: not prose or another command after it
    // (`See gh auth login --with-token (reads stdin). Example: base64 -d <<< …`).
    const login = LOGIN_ON_LINE.exec(text.slice(start, m.index));
    if (login !== null && !/[()]|[.:!?](?:\s|$)/.test(text.slice(start + login.index + login[0].length, m.index))) take(m, 1);
  }
  return found;
}

/** A here-string (`<<< …`) and its word: see stdinPasswords. */
const HERE_STRING = /<<<[ \t]*(?:"((?!\[REDACTED:)[^"\n]{1,200})"|'((?!\[REDACTED:)[^'\n]{1,200})'|((?!\[REDACTED:)[^\s"'|;&\x60]{4,200}))/dg;
/** How far back a here-string's command is read. */
const HERE_STRING_REACH = 400;
const STDIN_HINT = /--password-stdin|--with-token|secrets?[ \t]+(?:create|put|set)|versions[ \t]+add|env[ \t]+add|sudo\b[^\n|]{0,200}?[ \t](?:-[A-Za-z]*S|--stdin)/;
const STDIN_HINTS = new RegExp(STDIN_HINT.source, 'g');
/** A here-document's opening (`<<EOF`, `<<-'EOF'`, `<< "END"`), its delimiter the second group; not a here-string (`<<<`). */
const HERE_DOCUMENT = /(?<!<)<<(-?)[ \t]*(["']?)([A-Za-z_]\w*)\2/g;
const LOGIN_ON_LINE = new RegExp(STDIN_LOGIN);
/** Lines of a here-document read as a password: a login reads one line, a token file a few. */
const HERE_DOCUMENT_LINES = 3;
/** The whole logical line a shell reads is this long at most: a command continued further is not looked into. */
const COMMAND_CHARS = 4000;
/** A line that starts as a login's command does (after a prompt's `$`), not as prose about one. */
const COMMAND_START = /^\s*(?:\$\s+)?(?:sudo|doas|env|npx|cat|docker|podman|nerdctl|buildah|skopeo|helm|oras|crane|finch|cosign|gh)\b/;
/** A login's command is a line or two: a longer one is something else, and not searched through. */
const LOGIN_CHARS = 1000;

/**
 * The body of a here-document fed to a login (`docker login … --password-stdin <<EOF`, `cat <<EOF
 * | gh auth login --with-token`, over lines continued with `\` or after a `|`): its lines up to the
 * delimiter, each a password unless it holds a space (prose), a variable the shell expands, or a
 * placeholder. Only where the here-document is the login's own input (not another command's on
 * the same line) and its delimiter closes it a few lines on (not a sentence about one).
 */
function hereDocumentPasswords(text: string): Found[] {
  const found: Found[] = [];
  HERE_DOCUMENT.lastIndex = 0;
  let read = 0;
  for (let m = HERE_DOCUMENT.exec(text); m; m = HERE_DOCUMENT.exec(text)) {
    const command = logicalLine(text, m.index, read);
    read = command.end;
    // Whatever this here-document is, the next is looked for after its command: each line once.
    HERE_DOCUMENT.lastIndex = Math.max(HERE_DOCUMENT.lastIndex, command.end);
    if (command.end >= text.length || !feedsLogin(command.text, m.index - command.start)) continue;
    const [, dash, quote, delimiter] = m;
    const lines: { start: number; text: string }[] = [];
    let closed = false;
    let at = command.end + 1;
    for (let n = 0; n <= HERE_DOCUMENT_LINES && at <= text.length; n++) {
      const newline = text.indexOf('\n', at);
      const stop = newline === -1 ? text.length : newline;
      const line = text.slice(at, stop);
      if ((dash ? line.replace(/^\t+/, '') : line).trim() === delimiter) {
        closed = true;
        break;
      }
      lines.push({ start: at, text: line });
      at = stop + 1;
    }
    // Closed by its delimiter, or cut short with the text where the line is a command, not prose
    // about one (a command's output shown in part).
    if (!closed && (at <= text.length || !COMMAND_START.test(command.text))) continue;
    for (const line of lines) {
      const value = line.text.trim();
      if (value.length < MIN_SECRET_LENGTH || /\s/.test(value) || !isLiteralPassword(value) || (quote === '' && value.includes('$'))) continue;
      const start = line.start + line.text.indexOf(value);
      found.push({ start, end: start + value.length });
    }
  }
  return found;
}

/**
 * The logical line of a shell command around `at`: its physical lines joined where one ends with
 * `\` or `|`, from no earlier than `from` (where the last one looked at ended: each line once).
 */
function logicalLine(text: string, at: number, from: number): { start: number; end: number; text: string } {
  const continues = (lineEnd: number) => /(?:\\|\|)[ \t]*\r?$/.test(text.slice(Math.max(0, lineEnd - 40), lineEnd));
  let start = Math.max(from, text.lastIndexOf('\n', at) + 1);
  while (start > from && at - start < COMMAND_CHARS && continues(start - 1)) start = Math.max(from, text.lastIndexOf('\n', start - 2) + 1);
  let end = text.indexOf('\n', at);
  while (end !== -1 && end - start < COMMAND_CHARS && continues(end)) end = text.indexOf('\n', end + 1);
  if (end === -1) end = text.length;
  // Continuations blanked where they stand: offsets in the line stay those in the text.
  return { start, end, text: text.slice(start, end).replace(/\\\r?\n/g, (c) => ' '.repeat(c.length)).replace(/\|[ \t]*\r?\n/g, (c) => `|${' '.repeat(c.length - 1)}`) };
}

/**
 * Whether the here-document at `at` in a logical line is a login's input: the command holding it
 * is the login, or pipes into one (`cat <<EOF | tr -d '\n' | docker login …`). Commands are split
 * at `;`, `&&`, `||` and `|` outside quotes, `$(…)` and backquotes.
 */
function feedsLogin(line: string, at: number): boolean {
  // Quoted arguments blanked: a `;` or `|` in one (`-u 'bob;x'`) is no end of the command.
  const isLogin = (command: string) => command.length <= LOGIN_CHARS && /login|secret|token/.test(command) && LOGIN_ON_LINE.test(command.replace(/'[^']*'|"[^"]*"/g, (quoted) => `'${'x'.repeat(quoted.length - 2)}'`));
  const commands = shellCommands(line);
  const holder = commands.findIndex((c) => at >= c.start && at < c.end);
  if (holder === -1) return false;
  const { pipeline } = commands[holder] as ShellCommand;
  for (let i = holder; i < commands.length && (commands[i] as ShellCommand).pipeline === pipeline; i++) {
    const c = commands[i] as ShellCommand;
    if (isLogin(line.slice(c.start, c.end))) return true;
  }
  return false;
}

interface ShellCommand {
  start: number;
  end: number;
  /** Commands joined by `|` share one. */
  pipeline: number;
}

/** A line's commands, split at `;`, `&&`, `||` and `|` outside quotes, `$(…)` and backquotes. */
function shellCommands(line: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let start = 0;
  let pipeline = 0;
  let quote: string | null = null;
  let depth = 0;
  const cut = (end: number, next: number, newPipeline: boolean) => {
    commands.push({ start, end, pipeline });
    start = next;
    if (newPipeline) pipeline++;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== null) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '\\') i++;
    else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '$' && line[i + 1] === '(') {
      depth++;
      i++;
    } else if (c === ')' && depth > 0) depth--;
    else if (depth > 0) continue;
    else if ((c === '&' && line[i + 1] === '&') || (c === '|' && line[i + 1] === '|')) {
      cut(i, i + 2, true);
      i++;
    } else if (c === ';') cut(i, i + 1, true);
    else if (c === '|') cut(i, i + 1, false);
  }
  commands.push({ start, end: line.length, pipeline });
  return commands;
}
const STDIN_FED = new RegExp(String.raw`^[ \t]*\|[ \t]*${STDIN_LOGIN}`);

/** A value too short to be worth a secret (and too short to tell from a word). */
const MIN_SECRET_LENGTH = 4;
/** How much of a bare value is read to tell a secret from code; a secret is then replaced to its end. */
const VALUE_HEAD_LENGTH = 200;
/** How far a quoted value or a secret's end is looked for: beyond any real key, short enough to stay cheap. */
const MAX_VALUE_LENGTH = 1 << 14;
/** A flag's quoted value (its quote the pattern's first group, its value the second), and a bare one, for the archivers' and openssl's rules. */
const FLAG_QUOTED = String.raw`(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1`;
/** A key's or a certificate's file where a flag may take either it or a password (`az login --service-principal -p cert.pem`). */
function isKeyFile(value: string): boolean {
  return /^(?:\/|~\/|\.\.?\/)|\.(?:pem|pfx|p12|crt|cer|key)$/i.test(value);
}

/** A password given to `net use`: a password's look (not a word of prose, nor code's `+`). */
function isNetUsePassword(value: string): boolean {
  return isFlagPassword(value) && isCommandPassword(value) && /[A-Za-z0-9]/.test(value);
}

/** A Redis password as redis-cli prints it to a pipe, on its own line: letters with a digit or a sign (see its rule). */
function isBareRedisPassword(value: string): boolean {
  return /[A-Za-z]/.test(value) && /[^A-Za-z]/.test(value) && !/^\d+[.)]$/.test(value) && isCommandPassword(value);
}

/** Between a JSON or YAML object's fields: a comma, then blanks and one line's end at most (each read one way). */
const FIELD_END = String.raw`(?:[ \t]*,)?[ \t]*(?:\r?\n[ \t]*)?`;

/** Not a backtick either: `` `zip -P` `` closes a code span, no password. */
const FLAG_BARE = String.raw`((?!\[REDACTED:)[^\s"'\`-][^\s"'\`]{0,200})`;
/** What follows a command's password, not prose: a file (`a.zip`, `./out`) or another flag, or the end of a code span. */
const FLAG_THEN_ARGUMENT = String.raw`(?=[ \t]+(?:-\S|[./~]|\S*\.[A-Za-z0-9]{1,10}(?!\S))|\`)`;
/**
 * An archiver or openssl as a command: at a line's start or after a blank, an operator or sudo, or
 * called by its path (`/usr/bin/zip`, `./7z`, `C:\…\7z.exe`); not a file's name (`a.zip`, `*.7z`,
 * `packaging=zip`).
 */
const COMMAND_AT = String.raw`(?<![^\s;&|("'\x60/\\])`;
/**
 * Whether an archiver's or openssl's name at `start` (bare or a path's end) is the command, not the
 * argument of the flag before it: `rsync -a /srv/exports/zip -P host:…`, `tar -C /opt/zip -P .`,
 * `find -name 7z -perm …`, `mvn -P zip`. After a wrapper's flags it is the command still (`sudo
 * -E zip -P …`, `sudo -u backup -E /usr/bin/zip`), as after a flag that takes one (`find …
 * -exec zip`, `sh -c "zip …"`, `--`), and in quotes.
 */
function isArchiverCommand(text: string, start: number): boolean {
  const low = Math.max(0, start - COMMAND_LOOKBACK);
  let word = start;
  while (word > low && !COMMAND_SEPARATORS.includes(text[word - 1] as string)) word--;
  if (word === low && low > 0) return true;
  const first = text[word] as string;
  // In quotes, or a path a command's output begins (`$(brew --prefix openssl)/bin/openssl`).
  if (first === '"' || first === "'" || /[)}]/.test(text.slice(word, start))) return true;
  // A flag's own value (`--dir=/opt/zip`).
  if (first === '-') return false;
  let before = word;
  while (before > low && (text[before - 1] === ' ' || text[before - 1] === '\t')) before--;
  if (before === word && before > low) return true;
  let flag = before;
  while (flag > low && !COMMAND_SEPARATORS.includes(text[flag - 1] as string)) flag--;
  const previous = text.slice(flag, before);
  if (!/^-[^\s]/.test(previous) || COMMAND_FLAGS.has(previous)) return true;
  // The command the flag is of: past a prompt and a wrapper's options, the first other word.
  const segment = segmentStart(text, flag);
  // Its start too far back to be read: taken for the command, the safe side.
  if (segment < low) return true;
  const words = text.slice(segment, flag).split(/[ \t]+/).filter(Boolean);
  // The last wrapper before the flag runs what follows its options, wherever it stands (`make sure
  // you run sudo -E zip -P …`: a review found the line's first word taken for the command).
  let wrapper = words.length - 1;
  while (wrapper >= 0 && !COMMAND_WRAPPERS.has(baseName(words[wrapper] as string))) wrapper--;
  // With none: an argument only of a command known to take a folder or a name there; any other (a
  // prompt not read as one, `RUN`, `- `, a runner not listed) leaves it the command, the safe side.
  if (wrapper === -1) return !ARGUMENT_COMMANDS.has(baseName(SEGMENT_WORDS.exec(text.slice(segment, flag))?.[1] ?? ''));
  // Past the wrapper's options (a flag's own argument by what the wrapper's flag takes: `sudo -u
  // git -H zip`, not `time -p mvn -P zip`), and wrappers after it, to the command it runs.
  let current = baseName(words[wrapper] as string);
  let argument = false;
  for (const w of words.slice(wrapper + 1)) {
    if (argument) argument = false;
    else if (w.startsWith('-')) argument = takesArgument(current, w);
    else if (/^\d+$/.test(w) || /^[A-Za-z_]\w*=/.test(w)) continue;
    else if (COMMAND_WRAPPERS.has(baseName(w))) current = baseName(w);
    // The command the wrapper runs (`sudo tar -C /opt/zip`), or prose after a wrapper's word
    // (`This time I ran npx -y zip -P …`): an argument only of a command known to take one.
    else return !ARGUMENT_COMMANDS.has(baseName(w));
  }
  return true;
}
/** Whether a wrapper's flag takes the next word as its argument (`sudo -u git`, `nice -n 10`, `timeout -s KILL`). */
function takesArgument(wrapper: string, flag: string): boolean {
  if (/^--(?:user|group|chdir|host|prompt|role|type|other-user|signal|kill-after|adjustment)$/.test(flag)) return true;
  return flag.length === 2 && (WRAPPER_ARGUMENT_FLAGS[wrapper] ?? '').includes(flag[1] as string);
}
/** The wrappers' short flags that take an argument. */
const WRAPPER_ARGUMENT_FLAGS: Readonly<Record<string, string>> = { sudo: 'ughpCDrtUT', doas: 'uC', nice: 'n', ionice: 'cnp', timeout: 'sk', flock: 'wE', runuser: 'ug', env: 'uCS', time: 'of', stdbuf: 'ioe', xargs: 'nLPIdEsa', watch: 'nd', strace: 'oepsu', taskset: '', chrt: '' };
/** How far back a command's words are read. */
const COMMAND_LOOKBACK = 400;
const COMMAND_SEPARATORS = ' \t\r\n;&|(`';
const SEGMENT_STARTS = '\n;&|(`"\'';
/** A command's first word, past a prompt (`ana@box:~$`, `>`) and variables set for it. */
const SEGMENT_WORDS = /^[ \t]*(?:\S*[$#%>][ \t]+)?(?:[A-Za-z_]\w*=\S*[ \t]+)*(\S+)([^\n]*)$/;
/** Commands that run the command after their options. */
const COMMAND_WRAPPERS = new Set(['sudo', 'doas', 'env', 'nice', 'ionice', 'nohup', 'time', 'timeout', 'xargs', 'stdbuf', 'chrt', 'taskset', 'parallel', 'watch', 'exec', 'command', 'strace', 'flock', 'setsid', 'runuser', 'unbuffer', 'caffeinate']);
/** Commands whose flags take a folder, a file or a name that may be an archiver's (`rsync -a /srv/zip`, `tar -C /opt/zip`, `find -name 7z`, `mvn -P zip`). */
const ARGUMENT_COMMANDS = new Set(['rsync', 'tar', 'find', 'mvn', 'mvnw', 'gradle', 'gradlew', 'make', 'cp', 'mv', 'ls', 'du', 'scp', 'rm', 'ln', 'chmod', 'chown', 'mkdir', 'rmdir', 'touch', 'stat', 'cat', 'head', 'tail', 'grep', 'rg', 'fd', 'tree', 'file', 'git', 'cd', 'pushd', 'diff', 'cmp', 'install', 'ant', 'sbt', 'bazel', 'docker', 'podman', 'wget', 'curl', 'go', 'cargo']);
/** Flags whose argument is a command, and the end of another's options. */
const COMMAND_FLAGS = new Set(['--', '-exec', '-execdir', '-ok', '-okdir', '-c', '--exec', '--command', '--entrypoint']);

/**
 * Where the shell command holding `at` starts (past a line's end, an operator, a parenthesis, a
 * backtick or a quote), or -1 where none is within COMMAND_LOOKBACK. Read on from the last place
 * asked in the same text, so a line of many archivers' names is read once, not once for each.
 */
function segmentStart(text: string, at: number): number {
  const known = lastSegment;
  if (known.text !== text || at < known.at) {
    let start = at;
    const low = Math.max(0, at - COMMAND_LOOKBACK);
    while (start > low && !SEGMENT_STARTS.includes(text[start - 1] as string)) start--;
    Object.assign(known, { text, at, start: start === low && low > 0 ? -1 : start });
    return known.start;
  }
  for (let i = known.at; i < at; i++) if (SEGMENT_STARTS.includes(text[i] as string)) known.start = i + 1;
  known.at = at;
  return known.start;
}
const lastSegment = { text: '', at: 0, start: -1 };

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** A client's name then its arguments up to the flag looked for (its blank before it the pattern's): not a name's start (`mongo:7`, `bcp-tools`). */
const CLIENT_END = String.raw`(?:\.exe)?(?=[ \t])[^\n|;&]{0,300}?`;
/** A client's password flag after its name and other arguments (see the rules'). */
const CLIENT_PASSWORD_FLAG = String.raw`(?:(?:sqlcmd|bcp)${CLIENT_END}[ \t]-P[ \t]*|mongo(?:sh|dump|restore|export|import|files|stat|top)?${CLIENT_END}[ \t](?:-p[ \t]+|--password(?:[ \t]+|=))|ldap(?:search|modify|add|delete|modrdn|compare|whoami|passwd|exop)${CLIENT_END}[ \t]-w[ \t]*|ssh-keygen${CLIENT_END}[ \t]-N[ \t]*|cqlsh${CLIENT_END}[ \t](?:-p[ \t]+|--password(?:[ \t]+|=))|ldappasswd${CLIENT_END}[ \t]-s[ \t]*)`;
/** ssh-keygen's old passphrase, a rule of its own: a match ends at the first flag's value, and `-p -P old -N new` gives both. */
const KEYGEN_OLD_PASSPHRASE = String.raw`ssh-keygen${CLIENT_END}[ \t]-P[ \t]*`;
const CLIENT_HINT = /sqlcmd|bcp|mongo|ldap|ssh-keygen|cqlsh/;
/** The password flags of cloud CLIs' logins (see the rules'): apart from the clients', each pattern looked for only where its own hint is. */
const CLOUD_LOGIN_FLAG = String.raw`(?:az(?:\.cmd)?[ \t]+login${CLIENT_END}[ \t](?:-p(?:[ \t]+|=)|--password(?:[ \t]+|=))|az[ \t]+(?:sql[ \t]+(?:server|mi)|postgres|mysql|mariadb)${CLIENT_END}[ \t]-p[ \t]+|oc(?:\.exe)?[ \t]+login${CLIENT_END}[ \t](?:-p[ \t]*|--password(?:[ \t]+|=))|cf(?:\.exe)?[ \t]+(?:login|l)${CLIENT_END}[ \t](?:-p(?:[ \t]+|=)|--password(?:[ \t]+|=))|dotnet[ \t]+nuget[ \t]+(?:add|update)[ \t]+source${CLIENT_END}[ \t](?:-p[ \t]+|--password(?:[ \t]+|=))|twine${CLIENT_END}[ \t](?:-p[ \t]+|--password(?:[ \t]+|=))|doctl[ \t]+auth[ \t]+init${CLIENT_END}[ \t]-t[ \t]+)`;
const CLOUD_LOGIN_HINT = /\baz(?:\.cmd)?[ \t]+(?:login|sql|postgres|mysql|mariadb)\b|\boc(?:\.exe)?[ \t]+login|\bcf(?:\.exe)?[ \t]+(?:login|l)\b|nuget[ \t]+(?:add|update)|\btwine\b|doctl[ \t]+auth/;
/** After the command's name: Windows' `.exe`, the quote closing a quoted path; and not the end of a URL's path (`https://x.io/zip -P downloads`). */
const COMMAND_END = String.raw`(?:\.exe)?["']?(?<!:\/\/\S{0,300})`;
/**
 * A program named `name` as an item of its list of arguments, its quote the pattern's first or
 * second group: quoted (`'zip'`, anywhere in the list: `['sudo', 'zip', …]`, Java's `new
 * String[]{"zip", …}`), looked up (`shutil.which('zip')`), or by its path (`'/usr/bin/zip'`,
 * `r'C:\…\7z.exe'`). A path names the program from a `bin` folder anywhere (after a wrapper and
 * its options: `['sudo', '-u', 'backup', '/usr/bin/zip', …]`; a review found it leak when tied
 * to a place), or as the list's or the call's first item (`Command::new("zip")`); elsewhere it is
 * an argument (`['rsync', '-a', '/srv/exports/zip', '-P', …]`, the list after a program's name in
 * `spawn('ls', ['/opt/zip', …])`). A list naming the program's file (`['ls', '/usr/bin/zip', '-k',
 * …]`) is taken for it: rarer than a password given so.
 */
const argumentsCommand = (name: string) =>
  String.raw`(?:[rRbBuU]?(["'])(?:[^"'\n]{0,200}?[/\\]s?bin[/\\]|(?<=[[({]\s{0,20}[rRbBuU]?["'])(?<!["']\s*,\s*\[\s{0,20}[rRbBuU]?["'])[^"'\n]{0,200}[/\\])?(?:${name})(?:\.exe)?\1|(?:[\w$]{1,40}\.)?which\(\s*(["'])(?:${name})\2\s*\))`;
/** Between a list's items: a comma (over lines, or `, [`), or Rust's next `.arg(` or `.args(&[`. */
const ARGUMENT_SEPARATOR = String.raw`\s*(?:,|\)\s*\.args?\()\s*(?:&?\[\s*)?`;
/**
 * A program's list of arguments after the command's (`'zip', '-r', out_path, `), up to the item
 * looked for, its quote group `group`: each item quoted, or a variable's name or member, thirty at
 * most. An item holds no quote and the blanks before it are one run, so each is read one way only
 * (the blanks read two ways, a list of thirty took 2³⁰ tries).
 */
const argumentItems = (group: number) =>
  String.raw`(?:${ARGUMENT_SEPARATOR}(?:(["'])[^"'\n]{0,200}${'\\'}${group}|[\w.$]{1,100})){0,30}?${ARGUMENT_SEPARATOR}`;
const ARGUMENT_LIST_HINT = /(?:zip|7z[arz]?|rar|openssl|keytool)(?:\.exe)?["']\s*[,)]/;

// ---------------------------------------------------------------------------------------------
// Names: which names say their value is a secret.

/** The last word of a name that makes its value a secret: `DB_PASSWORD`, `PASS`, `client_secret`, `APIKEY`, `auth`. */
const SECRET_LAST_WORDS = new Set(['password', 'passwd', 'pass', 'passphrase', 'passcode', 'secret', 'credential', 'credentials', 'apikey', 'authorization', 'auth']);
/** The names before `_PAT` that make it a personal access token. */
const PAT_OWNERS = new Set(['gh', 'github', 'gitlab', 'gl', 'ado', 'azdo', 'azure', 'devops', 'vsts', 'bitbucket', 'personal', 'jira', 'atlassian', 'confluence', 'gitea', 'forgejo', 'codeberg', 'circleci', 'figma', 'hf', 'huggingface']);
/** The names before `_PW` that make it a password (`DB_PW`; a `PULSE_PW` is a pulse's width). */
const PW_OWNERS = new Set(['db', 'database', 'admin', 'root', 'user', 'mysql', 'postgres', 'pg', 'redis', 'mongo', 'ldap', 'smtp', 'mail', 'email', 'ftp', 'ssh', 'wifi', 'vpn', 'app', 'api', 'service', 'master', 'default', 'initial', 'login', 'account', 'bind', 'keystore', 'store', 'key', 'sa', 'sql', 'oracle', 'proxy', 'vnc', 'rdp', 'web', 'auth', 'my', 'new', 'old', 'temp', 'tmp']);
/** `…Key` is a secret after any word but these (a public key, a sort key, a cache key). */
const NOT_SECRET_KEY_PREFIXES = new Set([
  'public', 'publishable', 'parameter', 'sort', 'partition', 'primary', 'foreign', 'cache', 'idempotency', 'object', 'hash', 'range',
  'row', 'composite', 'unique', 'index', 'lookup', 'map', 'dict', 'group', 'message', 'routing', 'shard', 'cursor',
  'translation', 'i18n', 'react', 'list', 'child', 'parent', 'natural', 'surrogate', 'hot', 'short', 'shortcut', 'next',
  'prev', 'previous', 'first', 'last', 'start', 'end', 'dedup', 'dedupe', 'lock', 'query', 'search', 'order', 'column',
  'field', 'item', 'entry', 'state', 'event', 'metric', 'label', 'tag', 'trace', 'span', 'log', 'storage', 'file', 'thread',
  'tool', 'model', 'provider', 'env', 'config', 'setting', 'settings', 'option', 'options', 'name', 'type',
]);
/** `…Token` is a secret after any word but these (token counts, lexer tokens, page tokens). */
const NOT_SECRET_TOKEN_PREFIXES = new Set([
  'max', 'min', 'num', 'total', 'input', 'output', 'prompt', 'completion', 'reasoning', 'cached', 'cache', 'eos', 'bos',
  'pad', 'unk', 'sep', 'cls', 'mask', 'special', 'stop', 'start', 'end', 'next', 'page', 'continuation', 'cancellation',
  'cancel', 'sync', 'lexer', 'parse', 'parser', 'current', 'prev', 'previous', 'first', 'last', 'count', 'design', 'css',
]);

/** A name's words, lower case, from its last dotted part: `env.SecretAccessKey` → secret, access, key. */
export function nameWords(name: string): string[] {
  const last = name.split('.').filter(Boolean).pop() ?? '';
  return last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/**
 * A property's name in XML configuration (Hadoop's, Java's), read whole: `fs.s3a.secret.key` names
 * a secret key, though its last part alone (`key`) does not. Only there: a locale's dotted keys
 * (`ui.master.key`) name its texts.
 */
function isSecretPropertyName(name: string): boolean {
  return isSecretName(name) || (name.includes('.') && (isSecretName(name.replaceAll('.', '_')) || AZURE_STORAGE_PROPERTY.test(name)));
}

/**
 * Hadoop's Azure storage key and OAuth client secret, named by the account after the secret's
 * words (`fs.azure.account.key.<account>.blob.core.windows.net`), maybe under Spark's prefix.
 */
const AZURE_STORAGE_SECRET = String.raw`(?:spark\.hadoop\.)?fs\.azure\.account\.(?:key|oauth2\.client\.secret)(?![\w-])`;
const AZURE_STORAGE_PROPERTY = new RegExp(String.raw`^${AZURE_STORAGE_SECRET}(?:\.[\w-]+){0,20}$`);
/**
 * The same name built in code, the account a variable's: `f"fs.azure.account.key.{account}.dfs…"`,
 * `s"….$account…"`, `` `….${account}…` ``, `"fs.azure.account.key." + account + ".dfs…"`.
 */
const AZURE_STORAGE_NAME_IN_CODE = String.raw`${AZURE_STORAGE_SECRET}(?:\.[\w-]+|\.\$?\{[\w.]{1,60}\}|\.\$\w{1,60}|\.["']\s*\+\s*[\w.]{1,60}\s*\+\s*["']){0,20}`;

/** Whether a name (`DB_PASSWORD`, `"SecretAccessKey"`, `x-api-key`, `SECRET_KEY_BASE`) says its value is a secret. */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  const last = words.at(-1);
  const before = words.at(-2);
  if (last === undefined) return false;
  if (SECRET_LAST_WORDS.has(last)) return true;
  // A name written as one word: PGPASSWORD, CLIENTSECRET, NGROK_AUTHTOKEN.
  if (/(?:password|passwd|passphrase|passcode|secret)$/.test(last)) return true;
  if (/^(?:auth|access|api|bot|bearer|refresh|session|secret|private|oauth|personal)token$/.test(last)) return true;
  // A personal access token (`GH_PAT`, `AZURE_DEVOPS_PAT`): after a forge's name only, `pat` being
  // as often a pattern (`file_pat`).
  if (last === 'pat') return before !== undefined && PAT_OWNERS.has(before);
  // `DB_PW`, but not bare `pw`, nor a MIME type's `x-pw`, nor a pulse's width.
  if (last === 'pw') return before !== undefined && PW_OWNERS.has(before);
  // Java's keytool and jarsigner: -storepass, -keypass, -srcstorepass, -destkeypass.
  if (/^(?:src|dest)?(?:store|key)pass$/.test(last)) return true;
  // `DB_PWD`, but not bare `PWD`: that is the working directory.
  if (last === 'pwd') return before !== undefined;
  // A storage key is a cache's or a local store's, but Azure's is its account's (the az CLI's `AZURE_STORAGE_KEY`).
  if (last === 'key') return before !== undefined && (!NOT_SECRET_KEY_PREFIXES.has(before) || (before === 'storage' && words.at(-3) === 'azure'));
  if (last === 'token') return before === undefined || !NOT_SECRET_TOKEN_PREFIXES.has(before);
  // A password typed again (`password_confirmation`, `passwordConfirm`, `new_password_repeat`), a
  // secret's value beside its name (`secret_value`).
  if (CONFIRMING.has(last) && before !== undefined && /(?:password|passwd|passphrase|passcode|pwd)$/.test(before)) return true;
  if (last === 'value' && before !== undefined && /(?:secret|password|token)$/.test(before)) return true;
  // AWS Secrets Manager's SecretString and SecretBinary.
  if ((last === 'string' || last === 'binary') && before === 'secret') return true;
  // Rails' SECRET_KEY_BASE.
  return last === 'base' && before === 'key' && words.at(-3) === 'secret';
}

/** The fields naming a secret given as a name and a value, and those holding its value. */
const PAIR_NAMES = ['name', 'Name', 'key', 'Key', 'ParameterKey', 'ParameterName'];
const PAIR_VALUES = new Set(['value', 'Value', 'val', 'secret', 'secret_value', 'secretValue', 'ParameterValue']);

/**
 * The secret's name of an object giving a secret as a name and its value (`{"name":
 * "STRIPE_SECRET", "value": "…"}`: a CI's secrets, a container's environment), or null.
 */
export function pairedSecretName(record: Readonly<Record<string, unknown>>): string | null {
  // Any of its names (`{"name": "prod", "key": "DB_PASSWORD", …}`).
  return PAIR_NAMES.map((key) => record[key]).find((value): value is string => typeof value === 'string' && isSecretName(value)) ?? null;
}

/** Whether a field of such an object holds the secret's value. */
export function isPairValue(key: string): boolean {
  return PAIR_VALUES.has(key);
}

/** The last word of a name for a password typed again. */
const CONFIRMING = new Set(['confirmation', 'confirm', 'confirmed', 'repeat', 'again', 'verify', 'verification', 'check']);

/**
 * A name that says its value holds many secrets: a plural secret name (`apiKeys`,
 * `client_secrets`; not bare `tokens` or `keys`) for a list or an object, and for a text when
 * written as an environment variable (upper case: `DB_PASSWORDS`) or assigned (`db_passwords=`,
 * `api_keys: a,b` in YAML): a JSON key such as npm's script "validate:secrets" runs a command.
 */
export function isSecretsName(name: string, holds: 'many' | 'text' | 'assigned'): boolean {
  if (holds === 'text' && !/^[A-Z][A-Z0-9_]*$/.test(name)) return false;
  const words = nameWords(name);
  const last = words.at(-1);
  if (last === undefined || !last.endsWith('s') || (words.length === 1 && (last === 'tokens' || last === 'keys'))) return false;
  return isSecretName([...words.slice(0, -1), last.slice(0, -1)].join('_'));
}

/** Words that name a PIN or a one-time code: its value is secret when it is all digits (`pin: 4821`, `OTP_CODE=551234`). */
const CODE_WORDS = new Set(['pin', 'otp', 'totp', 'hotp', 'mfa', '2fa', 'passcode']);
/** `…_code` after these: `verification_code`, `sms_code`, `auth_code`, aws's `--token-code`. */
const CODE_PREFIXES = new Set([...CODE_WORDS, 'verification', 'sms', 'auth', 'security', 'login', 'token']);
const DIGIT_CODE = /^\d{4,10}$/;
/**
 * A code of capitals and digits mixed (`A7K9Q2`), as verification e-mails send: two of each, not
 * letters then digits (`GPIO4`, `HTTP2`, `E401`: a pin's, a protocol's, an error's name).
 */
const MIXED_CODE = /^(?=(?:[A-Z]*\d){2})(?=(?:\d*[A-Z]){2})(?![A-Z]+\d+$)(?!\d+[A-Z]+$)[A-Z0-9]{6,10}$/;
/** An authenticator's seed, in base32: what makes every code to come. */
const BASE32_SEED = /^[A-Z2-7]{16,}=*$/;

/** Whether a name says its value is a PIN or a one-time code. */
function isCodeName(name: string): boolean {
  // `2FA` stays one word (nameWords splits a digit from the capitals after it: `base64Key`).
  const words = nameWords(name.replace(/2FA/gi, '2fa'));
  const last = words.at(-1);
  const before = words.at(-2);
  return last !== undefined && (CODE_WORDS.has(last) || ((last === 'code' || last === 'seed') && before !== undefined && CODE_PREFIXES.has(before)));
}

/** Whether a name says its value is a PIN, a one-time code or an authenticator's seed, and the value is one: 4 to 10 digits or capitals with a digit, or base32. */
export function isSecretCode(name: string, value: string): boolean {
  return (DIGIT_CODE.test(value) || (MIXED_CODE.test(value) && !isPinName(name)) || BASE32_SEED.test(value)) && isCodeName(name);
}

/** A PIN is digits: `pin: PB12` names a microcontroller's pin. */
function isPinName(name: string): boolean {
  return nameWords(name).at(-1) === 'pin';
}

/**
 * The secret's name a field of structured data (tool arguments) gives what it holds, or null: its
 * own (a PIN's too: its digits are told by isSecretCode), or, singular, that of a list or object
 * named as many secrets, or of a text named so as an environment variable is (isSecretsName).
 */
export function secretNameOf(name: string, value: unknown): string | null {
  if (isSecretName(name) || isCodeName(name)) return name;
  const one = name.replace(/s$/i, '');
  // A list or an object under a plural name (bare `tokens` and `keys` too: a map of them).
  if (typeof value === 'object' && value !== null) return one !== name && isSecretName(one) ? one : null;
  if (typeof value !== 'string') return null;
  return isSecretsName(name, 'text') || (isSecretsName(name, 'assigned') && isListOfSecrets(value)) ? one : null;
}

/**
 * Whether a text under a plural secret name in lower case (`"db_passwords": "…"`) is the secrets
 * themselves: items split by commas, each one that reads as a generated secret. Such a JSON key
 * also names npm scripts (`"lint:secrets": "secretlint"`, `"validate:secrets": "node check.js"`),
 * types (`"secrets": "list[V1ObjectReference]"`) and resources (`"secrets": "my-app-secrets-v2"`).
 */
export function isListOfSecrets(value: string): boolean {
  const items = value.split(/,[ \t]?/);
  return items.every((item) => isSecretLike(item) && isSecretValue(item, { quoted: true, form: 'literal', name: '', after: '' }));
}

/**
 * A word that reads as a generated secret, not a name: ten characters or more of a secret's
 * alphabet (no brackets, dots or colons: `list[V1ObjectReference]`, `v1.SecretList`, an ARN),
 * letters and a digit among them, not words joined by dashes (`my-app-secrets-v2`,
 * `PBKDF2-SHA256`).
 */
function isSecretLike(item: string): boolean {
  return item.length >= 10 && /^[A-Za-z0-9+/=_!@#$%^&*~-]+$/.test(item) && !/^[~/]/.test(item) && /\d/.test(item) && /[A-Za-z]/.test(item) && !/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$/.test(item);
}

// ---------------------------------------------------------------------------------------------
// Values: is what follows a secret name a secret, or code that names one?

/**
 * Values of documentation, not secrets: `<your key>`, `your-key-here`, `sk-ant-...`, `xxxx`,
 * `REDACTED_TOKEN`; and the stand-ins a local server that takes any key is given (`ollama`, `dummy`, `test-key`).
 */
const PLACEHOLDER = /^(?:<[^<>]*>|\[[^[\]]*\]|\{[^{}]*\}|(.)\1+|your[-_ .].*|your|(?:insert|enter|replace|put|add)[-_ ].*|.*[-_ ]here|changeme|change[-_]me|placeholder|redacted.*|xxx.*|.*(?:\.\.\.|…).*|dummy(?:[-_]key)?|test[-_]?key|ollama|lm[-_]?studio|not[-_]needed|no[-_]key|unused)$/i;
/** Values that refer to a secret kept elsewhere: `$TOKEN`, `${API_KEY}`, `$(cat key)`, `{{ secrets.X }}`, `%(pw)s`, `%TOKEN%`, a file the AWS CLI reads it from (`file://secret.json`). */
const REFERENCE = /^(?:\$(?!2[abxy]?\$)|\{\{|%\(|%[A-Za-z_]+%$|<%|#\{|fileb?:\/\/)/;
/** `process.env.NAME`: a variable's value read at run time, never the value itself. */
const ENV_ACCESS = /^process\.env\.[A-Za-z_][A-Za-z0-9_]*$/;
/** An environment variable's name standing for its value (`"apiKey": "OLLAMA_API_KEY"` in Pi's models.json). */
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/** `"authorization": "Bearer $TOKEN"`: the credential is what follows the scheme. */
const AUTH_SCHEME = /^(?:Bearer|Basic|Token|Bot)[ \t]+/i;
const KEYWORD_LITERALS = new Set(['undefined', 'null', 'nil', 'none', 'true', 'false', 'nan', 'void', 'yes', 'no', 'on', 'off', 'empty', 'required', 'optional']);
/** The ways to sign in a setting names (`auth: oauth2`), in small letters: no secret of their own. */
const AUTH_SCHEMES = new Set(['oauth', 'oauth1', 'oauth2', 'oidc', 'saml', 'saml2', 'ldap', 'kerberos', 'ntlm', 'ntlmv2', 'mtls', 'sso']);
/** npm's version tags and sources of a package (package.json, pnpm's workspaces). */
const DIST_TAG = /^(?:latest|next|beta|alpha|canary|rc|experimental|nightly|stable|insiders|workspace:[*^~]?|(?:npm|file|link|portal|patch|catalog|github):\S*)$/;
/** A PowerShell command by its verb and noun (`Read-Host`, `Get-Content`, `Get-AzKeyVaultSecret`). */
const POWERSHELL_COMMAND = /^(?:Get|Set|Read|New|ConvertTo|ConvertFrom|Import|Export|Invoke|Select|Out|Write|Add|Remove|Test|Start|Stop|Find|Format|Join|Split|Resolve|Update|Unprotect|Protect|Receive|Request|Open|Copy|Move|Clear|Show|Wait|Register|Enable|Disable|Install|Search|Measure|Compare|Group|Sort|Where|ForEach)-[A-Z][A-Za-z]+$/;
/** A value that starts with one of these (cut at the space after it) is an expression: `await getKey()`. */
const CODE_KEYWORDS = new Set([
  'await', 'new', 'typeof', 'yield', 'async', 'function', 'lambda', 'not', 'require', 'import', 'this', 'self', 'super',
  'delete', 'static', 'readonly', 'private', 'public', 'protected', 'const', 'let', 'var', 'def', 'func', 'return', 'else',
]);
/** Words of a message about a secret, not of a passphrase: `errors.password = "Password is required"`. */
const MESSAGE_WORDS = new Set([
  'is', 'are', 'was', 'must', 'should', 'please', 'required', 'invalid', 'incorrect', 'enter', 'your', 'the', 'not', 'too',
  'be', 'least', 'missing', 'wrong', 'failed', 'cannot', 'does', 'match', 'expired', 'for', 'to', 'of',
]);
/** Type names that follow `name:` in TypeScript, Python, Rust and Go annotations. */
const TYPE_NAMES = new Set([
  'string', 'number', 'boolean', 'bigint', 'symbol', 'any', 'unknown', 'never', 'object', 'str', 'int', 'float', 'bool',
  'bytes', 'dict', 'list', 'tuple', 'char', 'usize', 'isize', 'u8', 'i32', 'i64', 'u32', 'u64', 'f64', 'byte', 'rune',
]);
/** Where an API's parameter goes (OpenAPI's `in`): a word a name/value object may hold beside a secret's name. */
const PARAMETER_PLACES = new Set(['header', 'query', 'cookie', 'path', 'body', 'formData']);
/** A call or an index: `getApiKeyForModel(model)`, `args[++i]`, `os.environ["KEY"]`, `Optional[str]`. */
const CALL_OR_INDEX = /^[\w$.?!:]+[([]/;
/**
 * A call or an index as a .env line's value may be one (`getpass()`, `os.environ["TOKEN"]` in a
 * Python file): a name or a member read of letters, any digits at a word's end, or one opening in
 * small letters or read through `::`, `?.`, `!.` (`b64decode(ENC)`, `Config::get('api.key')`,
 * `auth.currentUser?.getIdToken()`); not a password with its bracket inside, its digits amid mixed
 * case (`Kp9wZ3(Tail`, `Hunter2(x`). Each word's parts can be read one way only: two runs of
 * letters side by side made a line of dotted words take seconds a word (exponential).
 */
const LINE_CALL_OR_INDEX = /^(?:[A-Za-z_$]+\d*(?:\.[A-Za-z_$]+\d*)*|[a-z_$]+(?:\d+[a-z_$]*)?(?:[A-Z][a-z]{2,}\d*)*(?:(?:::|\??\.|!\.)[A-Za-z_$]+(?:\d+[a-z_$]*)?)*|[A-Z][A-Za-z_$]{2,}(?:(?:::|\??\.|!\.)[A-Za-z_$]+(?:\d+[a-z_$]*)?)+)[([]/;
/** A member access: `config.apiKey`, `process.env.ANTHROPIC_API_KEY`, `opts?.token`. */
const MEMBER_ACCESS = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+!?$/;
/**
 * A name or a member read as code spells it: letters, digits only at its end (`token2`,
 * `cfg.azure.storage_key2`), or amid them as a technology's name does (`sha256Hash`,
 * `oauth2Token`, `k8sApiKey`, `keys.v2ApiKey`). Not a password of words and digits
 * (`Winter2024.Secure`, `P4ssw0rdAdmin`, `DotLeak7.vR2pLm9`: reviews found each taken for code
 * once digits amid letters were).
 */
function isCodeSpelledName(value: string): boolean {
  return /^[A-Za-z_$][A-Za-z_$]*\d*$/.test(value) || CODE_MEMBER_NAME.test(value);
}
/**
 * A name's or a member read's parts, each of letters, maybe opening with a technology's name in
 * small letters before a capital (`sha256Hash`, `keys.v2ApiKey`; not `Sha256Sunshine`, `md5Hunter2`).
 */
const CODE_NAME_PART = String.raw`(?:(?:sha(?:1|224|256|384|512)|md5|base(?:32|64)|oauth2|argon2|utf(?:8|16)|i18n|l10n|k8s|x509|ed25519|aes(?:128|256)|rsa(?:2048|4096)|http2|ipv[46]|s3|ec2|v\d)(?=[A-Z]))?[A-Za-z_$][A-Za-z_$]*`;
const CODE_MEMBER_NAME = new RegExp(String.raw`^${CODE_NAME_PART}(?:\??\.${CODE_NAME_PART})*(?:(?<=\.[A-Za-z_$]+)\d{1,2})?!?$`);
/** The same, a last part ending in digits too (`cfg.azure.storage_key2`): a setting's name, where no password of words is given. */
const CODE_SETTING_NAME = new RegExp(String.raw`^${CODE_NAME_PART}(?:\.${CODE_NAME_PART})*\d*$`);
/** A name in code: letters only (`apiKey`, `tool_use_id` has no digit either, `result`). */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z_$]*$/;
/** Characters after a value that make it an operand: `a || b`, `a ?? b`, `a ? b : c`, `Model<any>`, `a + b`. */
const OPERATOR_AFTER = /^[ \t]*(?:[|&?:<>=+*/%^!]|\.\w)/;
const NUMBER = /^[-+]?\d+(?:\.\d+)?$/;

/**
 * Where a value stands decides how code-like it may be read:
 * - `literal`: shell and .env assignments (`TOKEN=abc`), URL queries, headers, command-line flags:
 *   whatever is written is the value, unless it is a reference (`$TOKEN`).
 * - `yaml`: `name: value` opening a line: a literal unless it reads as a type or an expression.
 * - `code`: `name = value`, `name: value` inside a line, keyword arguments: the value is an
 *   expression; only a literal that is not a plain name is a secret.
 */
export type ValueForm = 'literal' | 'yaml' | 'code';

export interface ValueRead {
  start: number;
  end: number;
  quoted: boolean;
}

/** Whether the value written after a secret name is a secret (not a placeholder, a reference or code). */
export function isSecretValue(value: string, read: { quoted: boolean; form: ValueForm; name: string; after: string; wholeLine?: boolean }): boolean {
  if (value.length < MIN_SECRET_LENGTH || value.startsWith('[REDACTED:')) return false;
  const credential = value.replace(AUTH_SCHEME, '');
  // A scheme's word alone (`Proxy-Authorization: Basic cHJ…`): the credential after it is another value, redacted as one.
  if (/^(?:Bearer|Basic|Token|Bot|Digest|Negotiate|NTLM)$/i.test(value)) return false;
  if (PLACEHOLDER.test(credential) || REFERENCE.test(credential) || ENV_NAME.test(credential)) return false;
  if (namesItself(value, read.name)) return false;
  if ((read.quoted || read.form === 'yaml') && isTranslatedLabel(value, read.name)) return false;
  // A version or a range of them: `"path-key": "^3.1.1"` in a package.json.
  if (/^[\^~]?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?$/.test(value)) return false;
  const lower = value.toLowerCase();
  if (KEYWORD_LITERALS.has(lower) || AUTH_SCHEMES.has(value)) return false;
  // A package's version by its tag or its source (`"next-auth": "beta"`, `"better-auth": "workspace:*"`).
  if (/[-@/]/.test(read.name) && DIST_TAG.test(value)) return false;
  if (read.quoted) return read.form !== 'code' || !isMessage(lower);
  // PowerShell's commands (`$password = Read-Host "Enter password" -AsSecureString`), in code.
  if (read.form === 'code' && POWERSHELL_COMMAND.test(value)) return false;
  if (CODE_KEYWORDS.has(lower)) return false;
  if (NUMBER.test(value) && value.length < 6) return false;
  // A .env line's call or index is whole, its bracket closed at its end (`getpass()`, `sys.argv[1]`),
  // or given a string (`getpass.getpass("Password: ")`, read to its blank).
  // Under an environment's name outside code (`-e "SA_PASSWORD=…"`, `DB_PASSWORD: …` in compose, an
  // export), a value is read as a .env line's: a password may open with a sign or hold a bracket
  // (`@dm1n2024`, `!QAZ2wsx#EDC`, `yourStrong(!)Password`, Microsoft's own example).
  const environment = read.wholeLine === true || (read.form !== 'code' && /^[A-Z][A-Z0-9_]*$/.test(read.name));
  if ((environment ? isCodeAfterSign(value) : /^[([{!`<@*]/.test(value)) || (environment ? isEnvironmentCall(value, read.wholeLine === true) : CALL_OR_INDEX.test(value)) || /^(?:this|self|super|cls)\./.test(value)) return false;
  // Node's environment by name, in any form (`TOKEN=process.env.TOKEN` in a minified line): a reference.
  if (ENV_ACCESS.test(value)) return false;
  if (read.form === 'literal') return true;
  // YAML's scalar is a member read or a list's item only where it reads as code (`config.db.password`,
  // `hashedPassword,` in an object over lines), not where it holds digits amid mixed case as a
  // password does (`POSTGRES_PASSWORD: DotLeak7.vR2pLm9`, `password: Kp9wZ3,Rm4vQ8xT`).
  const code = read.form !== 'yaml' || CODE_VALUE.test(value) || isCodeSpelledName(value);
  if ((code && MEMBER_ACCESS.test(value)) || OPERATOR_AFTER.test(read.after) || (code && /^[ \t]*[,;]/.test(read.after))) return false;
  if (read.form === 'code') return !IDENTIFIER.test(value);
  // yaml: a type (`apiKey: string`, `token: Token`), a name in camelCase or snake_case, or one
  // that says what it holds (`password: passwordInput`) is code; other words are the value.
  if (TYPE_NAMES.has(lower)) return false;
  return !(IDENTIFIER.test(value) && (/[A-Z_$]/.test(value) || nameWords(value).some((w) => SECRET_WORDS.has(w))));
}

/**
 * A call or an index under an environment's name: a .env line's is whole, its bracket closed at its
 * end (`getpass()`, `sys.argv[1]`), or given a string (`getpass.getpass("Password: ")`). Elsewhere
 * (a settings object's `SECRET_KEY: getSecret(env, "KEY"),`, read to its first blank) a call opens
 * as code does (below), not a password's sign or word in its bracket (`yourStrong(!)Password`).
 */
function isEnvironmentCall(value: string, wholeLine: boolean): boolean {
  if (!LINE_CALL_OR_INDEX.test(value)) return false;
  if (/[)\]]$|[([]['"]/.test(value)) return true;
  // Outside a .env line the value is read to its first blank: a call's path (`env.str(`), or a name
  // of letters whose bracket the value does not close (`getSecret(env,`, `requireEnv(` ending its
  // line); not a password's word in brackets (`Pass(word)9`, `Welcome(Home)2024`, `Xk9(pLm2`).
  return !wholeLine && (/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+[([]/.test(value) || (/^[\w$]+[([][^)\]]*$/.test(value) && isCodeWord(value.slice(0, value.search(/[([]/)))));
}

/**
 * A name as code writes one (isCodeSpelledName), or small letters and `_` with digits anywhere
 * (`b64decode`), or UPPER_SNAKE (`API_KEY_2`, `S3_KEY`); not a capitalised word with digits
 * (`Xk9`, `Summer2024`: a password's start).
 */
function isCodeWord(word: string): boolean {
  if (/^[A-Z][a-z]/.test(word) && /\d/.test(word)) return false;
  return isCodeSpelledName(word) || /^[a-z_$][a-z0-9_$]*$|^[A-Z][A-Z0-9_]*$/.test(word);
}

/**
 * Of a value opening with a sign under an environment's name, whether it is code or markup rather
 * than a password: a list, an object, a tag or a template (`[`, `{`, `<`, a backtick), a mask
 * (`****`), YAML's tag alone (`!vault`, `!Ref`), Azure's Key Vault reference
 * (`@Microsoft.KeyVault(…)`), or a sign before a word of no digit and one case (`@latest`).
 */
function isCodeAfterSign(value: string): boolean {
  if (!/^[([{!`<@*]/.test(value)) return false;
  if (/^[[{`<*]/.test(value) || /^![A-Za-z]+$/.test(value) || /^@[A-Za-z]+\./.test(value)) return true;
  // Code's negation (`!!process.env.GITHUB_TOKEN`, `!config.apiKey`) and a file given by `@` (`@secrets/admin_pw.txt`).
  // (A capitalised word and digits alone is a password's shape: `!Summer2024`.)
  const negated = value.replace(/^!+/, '');
  if (/^!!?[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*$/.test(value) && negated.split(/\??\./).every(isCodeWord) && (negated.includes('.') || !/^[A-Z][a-z]/.test(negated))) return true;
  if (/^@[\w.~/-]*\.(?:txt|json|pem|key|env|ya?ml|conf|cfg|ini|pub|crt|p12|pfx|jks|csv)$/i.test(value)) return true;
  return !/\d/.test(value) && !(/[a-z]/.test(value) && /[A-Z]/.test(value));
}

/** Words a value may consist of and still only name the secret (`--token TOKEN`, `password: password`). */
const SECRET_WORDS = new Set(['password', 'passwd', 'pass', 'pwd', 'secret', 'token', 'key', 'apikey', 'api', 'auth', 'credential', 'credentials', 'passphrase']);

function namesItself(value: string, name: string): boolean {
  if (!/^[A-Za-z _-]+$/.test(value)) return false;
  const own = new Set(nameWords(name));
  return nameWords(value.replace(/[- ]/g, '_')).every((word) => own.has(word) || SECRET_WORDS.has(word));
}

/**
 * What a password, a token, a key and a secret are called in the languages forms and locale files
 * are often in: a value of words holding one under a name of that meaning is its label (`password:
 * "Mot de passe"`, `"forgotPassword": "Mot de passe oublié ?"`, `token: "Jeton"`), not the secret.
 * Each the whole word, or in scripts that glue words (Japanese, Chinese, Thai) and prefixes (Arabic,
 * Hebrew) anywhere in the value. English's own words are here too (`"password": "New password"`).
 */
const LABEL_TRANSLATIONS: Readonly<Record<'password' | 'token' | 'key' | 'secret', { words: readonly string[]; glued: readonly string[] }>> = {
  password: {
    words: [
      'password', 'passphrase', 'passcode', 'passwort', 'kennwort', 'mot de passe', 'contraseña', 'contrasena', 'contrasenya', 'clave', 'senha',
      'palavra-passe', 'palavra passe', 'parola', "parola d'ordine", 'wachtwoord', 'lösenord', 'passord', 'adgangskode', 'kodeord', 'salasana',
      'hasło', 'haslo', 'heslo', 'jelszó', 'parolă', 'şifre', 'şifresi', 'sifre', 'lozinka', 'geslo', 'pasahitza', 'пароль', 'пароля', 'парола',
      'лозинка', 'κωδικός', 'συνθηματικό', 'पासवर्ड', 'mật khẩu', 'kata sandi', 'kata laluan', 'rahasia sandi',
    ],
    glued: ['パスワード', '暗証番号', '密码', '密碼', '口令', '비밀번호', '암호', 'รหัสผ่าน', 'كلمة المرور', 'كلمة السر', 'رمز عبور', 'گذرواژه', 'סיסמה', 'סיסמא'],
  },
  token: {
    words: ['token', 'jeton', 'ficha', 'gettone', 'токен', 'τεκμήριο', 'टोकन'],
    glued: ['トークン', '令牌', '토큰', 'โทเค็น', 'رمز مميز', 'טוקן'],
  },
  key: {
    words: ['key', 'clé', 'clef', 'clave', 'llave', 'chave', 'chiave', 'schlüssel', 'sleutel', 'nyckel', 'nøgle', 'nøkkel', 'avain', 'klucz', 'klíč', 'kulcs', 'cheie', 'anahtar', 'anahtarı', 'ключ', 'κλειδί', 'कुंजी', 'khóa', 'kunci'],
    glued: ['キー', '鍵', '密钥', '密鑰', '키', 'กุญแจ', 'مفتاح', 'کلید', 'מפתח'],
  },
  secret: {
    words: ['secret', 'secrète', 'secreto', 'secreta', 'segreto', 'segredo', 'geheimnis', 'geheim', 'hemlighet', 'hemmelighed', 'hemmelighet', 'salaisuus', 'sekret', 'tajemství', 'titok', 'секрет', 'μυστικό', 'bí mật', 'rahasia'],
    glued: ['シークレット', '秘密', '机密', '비밀', '시크릿', 'ความลับ', 'סוד'],
  },
};
const LABEL_PATTERNS = Object.fromEntries(
  Object.entries(LABEL_TRANSLATIONS).map(([meaning, { words, glued }]) => [
    meaning,
    new RegExp(String.raw`(?<![\p{L}\p{M}])(?:${words.join('|')})(?![\p{L}\p{M}])|${glued.join('|')}`, 'iu'),
  ]),
) as Readonly<Record<keyof typeof LABEL_TRANSLATIONS, RegExp>>;
/** English's own words, which only a label asking or introducing is read by here. */
const ENGLISH_LABEL = /^(?:password|passphrase|passcode|token|key|secret)$/i;
/** Any of those words, the whole of a value. */
const LABEL_WHOLE = new RegExp(`^(?:${Object.values(LABEL_PATTERNS).map((pattern) => pattern.source).join('|')})$`, 'iu');
/** A label's characters: words in any script, with blanks and a label's marks, no digit or sign a password holds (`Passwort!`). */
const LABEL_TEXT = /^[\p{L}\p{M}][\p{L}\p{M} '’.:?¿¡()…-]{0,99}$/u;

/**
 * Whether a value is a label in words for what its name holds (LABEL_TRANSLATIONS): a form's or a
 * locale's, named in code (`forgotPassword`, `api_key`). An environment's variable (`DB_PASSWORD`)
 * holds what it is set to.
 */
function isTranslatedLabel(value: string, name: string): boolean {
  if (!LABEL_TEXT.test(value) || /^[A-Z][A-Z0-9_]*$/.test(name)) return false;
  // A label as a form writes it, with a capital where its script has them: the word alone
  // (`Contraseña`, `Пароль`, `パスワード`), or asking or introducing (`Forgot password?`,
  // `Mot de passe oublié ?`, `Passwort:`). Not a phrase holding one (`My super secret`, `Mein
  // Passwort`, `Nueva contraseña`: a label or a pass phrase alike, and reviews found pass phrases
  // kept each time labels were), nor `geheim` in small letters.
  const bare = value.normalize('NFC').replace(/[\s:?¿¡.…]+$/u, '').replace(/^[¿¡]/u, '');
  if (/^\p{Ll}/u.test(bare)) return false;
  // English's own words alone are read by namesItself; here only a label asking or introducing.
  const asks = /[:?…]\s*$/u.test(value);
  if (!asks && (!LABEL_WHOLE.test(bare) || ENGLISH_LABEL.test(bare))) return false;
  const meanings = new Set(
    nameWords(name).map((word) =>
      /(?:password|passwd|passphrase|passcode|pwd|pass)$/.test(word) ? 'password' : /tokens?$/.test(word) ? 'token' : /(?:key|keys|apikey)$/.test(word) ? 'key' : /secrets?$/.test(word) ? 'secret' : null,
    ),
  );
  return (['password', 'token', 'key', 'secret'] as const).some((meaning) => meanings.has(meaning) && LABEL_PATTERNS[meaning].test(value.normalize('NFC')));
}

function isMessage(lower: string): boolean {
  const words = lower.split(/[^a-z']+/).filter(Boolean);
  return words.length >= 2 && words.some((word) => MESSAGE_WORDS.has(word));
}

/**
 * Where a YAML value starts after its anchor (`password: &db_pw …`) and standard tag (`!!str …`),
 * which are not the value. A local tag (`!secret wifi_password`, `!Ref DbPassword`, `!vault |`)
 * names where the value is, and stays the value read.
 */
function afterYamlProperties(text: string, at: number): number {
  const properties = /^(?:&[\w.-]{1,100}[ \t]+|!![a-z]{1,20}[ \t]+){1,2}(?=\S)/.exec(text.slice(at, at + 250));
  return properties === null ? at : at + properties[0].length;
}

/** Reads the value that starts at `at`: quoted (to its closing quote on the same line) or the head of a bare word. */
export function readValue(text: string, at: number): ValueRead | null {
  const closing = CLOSING_QUOTES.get(text[at] as string);
  let from = at;
  if (closing !== undefined) {
    // A backslash escapes in code's strings; not in a shell's single quotes (`'C:\dir\'`).
    const end = closingQuote(text, at, closing, true) ?? (text[at] === "'" ? closingQuote(text, at, closing, false) : null);
    if (end !== null) return { start: at + 1, end, quoted: true };
    // Not closed on its line (cut off): the rest reads as a bare value.
    from = at + 1;
  }
  // A value in Markdown's emphasis (`KEY=**…**`, ``KEY=**`…`**``) is what the page shows: the
  // value, in bold.
  const emphasis = /^(\*\*?|__?)(?=[A-Za-z0-9+/"'`])/.exec(text.slice(at, at + 3))?.[1];
  if (emphasis !== undefined) {
    const start = at + emphasis.length;
    const inner = text[start];
    if (inner === '"' || inner === "'" || inner === '`') return readValue(text, start);
    const end = bareEnd(text, start, VALUE_HEAD_LENGTH);
    const close = text.indexOf(emphasis, start);
    if (close > start && close <= end) return { start, end: close, quoted: false };
    // Marks not closed around the value (`**DB_PASSWORD=**value`): the value is after them.
    from = start;
  }
  const end = withoutUnbalancedClosers(text, from, bareEnd(text, from, VALUE_HEAD_LENGTH));
  return end > from ? { start: from, end, quoted: false } : null;
}

/**
 * Where the quotation opened at `at` closes on its line, or null: at the first quote that may
 * close it, not glued to a word (`‘zebra tango' done`), but a straight quote at its own where the
 * line holds one (`'the twins’ birthday …'`, `"a” b …"`), and a JSON string's value (`"password":
 * "…`) only at `"` (`"he said “hi” …"`). Where none does, a straight quote closed by its curly
 * twin (`'zebra tango’`, `"zebra tango“`), the last resort.
 */
function closingQuote(text: string, at: number, closing: string, escapes: boolean): number | null {
  const closers = text[at] === '"' && isJsonString(text, at) ? '"' : closing;
  const limit = Math.min(text.length, at + 1 + MAX_VALUE_LENGTH);
  // A straight quote not told closed or not within a line's width is looked for in its stretch (QuoteStretch).
  const straight = STRAIGHT_QUOTES.includes(text[at] as string);
  const near = scanForClosingQuote(text, at, closers, escapes, straight ? Math.min(limit, at + 1 + NEAR_QUOTE_CHARS) : limit, limit);
  return near !== undefined ? near : straightClosingQuote(text, at, closers, escapes, limit);
}

/** How far a straight quote's closer is looked for from it before its stretch is read. */
const NEAR_QUOTE_CHARS = 256;

/** closingQuote read from the quote on to `to`: undefined where it is not told there (`to` short of `limit`, the reach). */
function scanForClosingQuote(text: string, at: number, closers: string, escapes: boolean, to: number, limit: number): number | null | undefined {
  const own = closers[0];
  const twin = LAST_RESORT_CLOSERS.get(text[at] as string);
  let other: number | null = null;
  let last: number | null = null;
  let i = at + 1;
  for (; i < to; i++) {
    const c = text[i] as string;
    if (c === '\\' && escapes) i++;
    else if (c === '\n') break;
    else if (closers.includes(c) || c === twin) {
      const glued = /[\p{L}\p{N}]/u.test(text[i + 1] ?? '');
      // An apostrophe in a word (`it's`) closes nothing, nor another kind of quote glued to one.
      if (c === own && !(glued && APOSTROPHES.includes(c))) return i;
      if (glued) continue;
      // A curly quotation closes at the first quote that may close it (`“umber falcon sky" he said`).
      if (!STRAIGHT_QUOTES.includes(text[at] as string) && c !== twin) return i;
      if (c === twin) last ??= i;
      else other ??= i;
    }
  }
  return i < to || to >= limit ? (other ?? last) : undefined;
}

const STRAIGHT_QUOTES = `"'`;

/**
 * The quotes that may close a straight quote on a stretch of a line, found once for all the
 * quotes opened on it: a line of `token='x’` a thousand times over, each closed by no quote, was
 * read 16 kB on from each (90 ms a kilobyte). Which quote closes one depends only on what follows
 * it (a run of backslashes pairs from its start, after the opening quote), so each is the first
 * of them after it, within its reach: its own, or else the first other, or else the first twin.
 */
interface QuoteStretch {
  /** Where the stretch was read from, and to (a line's end, or as far as a read needed). */
  from: number;
  to: number;
  ended: boolean;
  owns: number[];
  others: number[];
  twins: number[];
}

/** The text the stretches are of, and one stretch for each opening quote, its closers and whether a backslash escapes (see stretchSlot). */
let stretchesOf: string | null = null;
const quoteStretches: QuoteStretch[] = Array.from({ length: 8 }, () => ({ from: 0, to: 0, ended: true, owns: [], others: [], twins: [] }));

function straightClosingQuote(text: string, at: number, closers: string, escapes: boolean, limit: number): number | null {
  if (stretchesOf !== text) {
    stretchesOf = text;
    for (const stretch of quoteStretches) stretch.to = 0;
  }
  // `'`, or `"` closed by `"` and `”`, or by `"` alone (a JSON string's); with backslashes escaping or not.
  const stretch = quoteStretches[(text[at] === '"' ? 1 : 0) + (closers === '"' ? 2 : 0) + (escapes ? 4 : 0)] as QuoteStretch;
  if (at < stretch.from || at >= stretch.to) {
    Object.assign(stretch, { from: at, to: at + 1, ended: false });
    stretch.owns.length = 0;
    stretch.others.length = 0;
    stretch.twins.length = 0;
  }
  const within = (list: readonly number[]) => {
    const found = list[firstAfter(list, at)];
    return found !== undefined && found < limit ? found : null;
  };
  // Its own quote closes it wherever it stands: read on only until one is found.
  const own = within(stretch.owns) ?? (stretch.ended ? null : readStretch(text, stretch, text[at] as string, closers, escapes, limit));
  return own ?? within(stretch.others) ?? within(stretch.twins);
}

/**
 * Reads a stretch on to `limit`, or to its line's end, noting each quote that may close; stops at
 * the first of its own quotes, and returns it (null where none is before `limit`).
 */
function readStretch(text: string, stretch: QuoteStretch, quote: string, closers: string, escapes: boolean, limit: number): number | null {
  const own = closers[0];
  const twin = LAST_RESORT_CLOSERS.get(quote);
  let i = stretch.to;
  for (; i < limit; i++) {
    const c = text[i] as string;
    if (c === '\\' && escapes) i++;
    else if (c === '\n') {
      stretch.ended = true;
      break;
    } else if (closers.includes(c) || c === twin) {
      const glued = /[\p{L}\p{N}]/u.test(text[i + 1] ?? '');
      // An apostrophe in a word (`it's`) closes nothing, nor another kind of quote glued to one.
      if (c === own) {
        if (!(glued && APOSTROPHES.includes(c))) {
          stretch.owns.push(i);
          stretch.to = i + 1;
          return i;
        }
      } else if (!glued) (c === twin ? stretch.twins : stretch.others).push(i);
    }
  }
  if (i >= text.length) stretch.ended = true;
  stretch.to = Math.max(stretch.to, i);
  return null;
}

/** The index of the first of ascending numbers greater than `at` (their length when none is). */
function firstAfter(list: readonly number[], at: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((list[mid] as number) <= at) low = mid + 1;
    else high = mid;
  }
  return low;
}
/** A straight quote's curly twin, that closes it where nothing else on its line does. */
const LAST_RESORT_CLOSERS: ReadonlyMap<string, string> = new Map([
  ["'", '’'],
  ['"', '“'],
]);

/** A `"` that opens a JSON string's value: after `"key":`. */
function isJsonString(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  if (text[i] !== ':') return false;
  i--;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  return text[i] === '"';
}

/**
 * Where a bare value ends, looking at most `limit` characters ahead. Backslashes just before the
 * quote that stops it escape that quote (`echo \"TOKEN=abc\"`, JSON printed in a string): they are
 * the text's, not the value's, and replaced with it they left the quote unescaped.
 */
function bareEnd(text: string, from: number, limit: number): number {
  const stop = Math.min(text.length, from + limit);
  let end = from;
  while (end < stop && !isValueStop(text.charCodeAt(end))) end++;
  if (isQuote(text.charCodeAt(end))) while (end > from && text[end - 1] === '\\') end--;
  return end;
}

function isQuote(c: number): boolean {
  return c === 34 || c === 39 || c === 96;
}

/** A bare secret is replaced whole, however far it runs past the head that was read. */
function secretEnd(text: string, read: ValueRead): number {
  return read.quoted || read.end - read.start < VALUE_HEAD_LENGTH ? read.end : withoutUnbalancedClosers(text, read.start, bareEnd(text, read.start, MAX_VALUE_LENGTH));
}

/** Whitespace, quotes and the characters that end a shell word or an argument: , ; & | < > */
function isValueStop(c: number): boolean {
  return c <= 32 || c === 34 || c === 39 || c === 96 || c === 44 || c === 59 || c === 38 || c === 124 || c === 60 || c === 62;
}

/** `f(api_key=abc123)` reads `abc123`, not `abc123)`. */
function withoutUnbalancedClosers(text: string, start: number, end: number): number {
  let open = 0;
  for (let i = start; i < end; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') open++;
    else if (c === ')' || c === ']' || c === '}') {
      if (open === 0) return i;
      open--;
    }
  }
  return end;
}

// ---------------------------------------------------------------------------------------------
// Named values: NAME=value, NAME: value, "NAME": "value", --flag value.

/** A name, its closing quote or bracket, and an assignment: `=`, `:`, `:=`, `=>` (not `==`, `::`, `://`). */
// A name starts a word, or a diff's line (`-password: …` removed); it may be closed by quotes, a
// bracket, or Markdown's bold or code marks (`**PASSWORD**=…`, `` `TOKEN`=… ``). Of the names
// that start with a digit, only 2FA's (`2fa_code=`) says what its value is.
const NAMED = /(?:(?<![\w$.-])|(?<=(?:^|\n)[-+]))((?:2[fF][aA])?[A-Za-z_$][\w$.-]{0,100}|2[fF][aA])(["'\]*`]{0,4})([ \t]*)(:=|\?=|=>|=(?![=~])|:(?![:/\\]))([ \t]*)/g;
/**
 * A command-line flag with its value: `--password=…`, `--api-key …`; or a Java or Gradle property
 * set with -D or -P, its name dotted (`-Djavax.net.ssl.keyStorePassword=…`): the name is the first
 * group or the third, the sign after it the second or the fourth.
 */
const FLAG = /(?<![\w-])(?:-[DP](?=[A-Za-z_][\w-]*\.)([\w.-]{1,200})(=)|--?([A-Za-z][\w-]{0,60})(=|[ \t]+))(?=[^\s-])/g;
const CODE_DECLARATION = /(?:^|[^\w$])(?:const|let|var|val|final|readonly|private|public|protected)[ \t]+$/;
/** How far back to look for the start of the line a name opens: indentation and a list dash. */
const LINE_LOOKBACK = 40;

/** An ARN up to its resource's type: `arn:aws:secretsmanager:us-east-1:123456789012:`. */
const ARN_BEFORE = /\barn:[\w-]+:[\w-]+:[\w-]*:\d*:$/;

/** A quick look before the words of a name are read. */
const SECRET_NAME_HINT = /pass|pw|pat|secret|token|key|auth|credential|pin|otp|mfa|2fa|code|access|refresh/i;

/**
 * Names that say nothing alone (an S3 object's `Key`, a list item's `key`), whose quoted value is a
 * credential in an object that says it holds one: Pi's auth.json keeps `{"type": "api_key",
 * "key": …}` and `{"type": "oauth", "access": …, "refresh": …}`.
 */
const BARE_CREDENTIAL_NAMES = new Set(['key', 'access', 'refresh']);
const CREDENTIAL_TYPE = /["']type["']?[ \t]*:[ \t]*["'](?:api[_-]?key|oauth2?)["']/i;
/** How far around a value its object is looked for, each way: an OAuth access token (a JWT) runs to a few kB. */
const CREDENTIAL_OBJECT_CHARS = 4096;

function isIssuedCredential(text: string, name: string, start: number, end: number): boolean {
  // A credential is a long token: looked around for only then (a flood of short values is cheap).
  if (!BARE_CREDENTIAL_NAMES.has(name.toLowerCase()) || end - start < 16 || /\s/.test(text.slice(start, end))) return false;
  // The object around it, its own fields only: what it holds nested (`"meta": {…}`) is skipped.
  // From past the value's quotes (it is quoted: see namedValues).
  const before = objectSide(text, start - 2, -1);
  const after = objectSide(text, end + 1, 1);
  return before !== null && after !== null && CREDENTIAL_TYPE.test(`${[...before].reverse().join('')} ${after}`);
}

/**
 * The characters of the object a value sits in, from `from` to its brace in `step`'s direction
 * (-1: its `{`, backwards), less what objects nested in it hold; null when no brace closes it
 * within CREDENTIAL_OBJECT_CHARS.
 */
function objectSide(text: string, from: number, step: 1 | -1): string | null {
  const [opens, closes] = step === 1 ? ['{', '}'] : ['}', '{'];
  const own: string[] = [];
  let depth = 0;
  let inString = false;
  for (let i = from, n = 0; i >= 0 && i < text.length && n < CREDENTIAL_OBJECT_CHARS; i += step, n++) {
    const c = text[i] as string;
    // A brace in a string (`"note": "a } b"`) is no object's: a quote not after a backslash opens or closes one.
    if (c === '"' && text[i - 1] !== '\\') inString = !inString;
    if (inString) {
      if (depth === 0) own.push(c);
      continue;
    }
    if (c === opens) depth++;
    else if (c === closes && depth-- === 0) return own.join('');
    else if (depth === 0) own.push(c);
  }
  return null;
}

/** `NAME=value` and `NAME := value` count as assignments, `"NAME": value` as a secret field, `NAME: value` as an API key. */
function namedValues(text: string): Found[] {
  const found: Found[] = [];
  const objects = objectsRead();
  NAMED.lastIndex = 0;
  for (let m = NAMED.exec(text); m; m = NAMED.exec(text)) {
    const [whole, name = '', closer = '', before = '', op = '', after = ''] = m;
    if (!SECRET_NAME_HINT.test(name)) continue;
    // A URL's user (`https://x-access-token:…@github.com/…`): its password is the URL rules', the
    // host and path after it stay.
    if (op === ':' && text.slice(Math.max(0, m.index - 3), m.index) === '://') continue;
    // An ARN's resource type (`arn:aws:secretsmanager:…:123456789012:secret:prod/db-AbCdEf`): what follows names the secret.
    if (op === ':' && ARN_BEFORE.test(text.slice(Math.max(0, m.index - 200), m.index))) continue;
    const kind = op !== ':' ? 'assignment' : /["']/.test(closer) ? 'secret-field' : 'api-key';
    const at = op === ':' ? afterYamlProperties(text, m.index + whole.length) : m.index + whole.length;
    const secret = isSecretName(name);
    if (text[at] === '[') {
      // `"api_keys": ["…", "…"]`, `PASSWORDS = ['…']`: each string of the list is a value.
      if (!secret && !isSecretsName(name, 'many')) continue;
      const list = listStrings(text, at, name);
      found.push(...list.found.map((span) => ({ ...span, kind: /["']/.test(closer) ? 'secret-field' : 'assignment' })));
      NAMED.lastIndex = Math.max(NAMED.lastIndex, list.end);
      continue;
    }
    if (text[at] === '{') {
      // `"password": {"value": "…"}`: the values of the object, as data printed as text; the
      // rules go on inside it too (`{user: bob, password: …}`).
      if (secret && isSecretObjectName(text, m.index, name, closer) && objects.worthReading(at)) {
        const object = objectStrings(text, at, name);
        objects.read(at, object);
        found.push(...object.found.map((span) => ({ ...span, kind: 'secret-field' })));
      }
      continue;
    }
    if (secret && op === ':') {
      // `password: |` and `api_key: >-`: YAML's block scalars, the value on the lines below.
      const block = yamlBlock(text, at, m.index, name);
      if (block !== null) {
        found.push(...block.spans.map((span) => ({ ...span, kind })));
        NAMED.lastIndex = Math.max(NAMED.lastIndex, block.end);
        continue;
      }
    }
    const read = readValue(text, at);
    if (!read) continue;
    // A value of a line of its own (YAML's, a .env file's) holds the signs glued into it; elsewhere
    // (`…;AccountKey=…;Endpoint=…`, `?token=…&page=2`) they end it.
    // A .env line's value (`DB_PASSWORD=kX7@pL:9mQ]wR2*vT5nB8zY`) is all its word: a bracket, a
    // comma or a quote inside is the password's, not the end of an argument.
    const wholeLine = !read.quoted && read.start === at && isEnvironmentLine(text, m.index, name, closer, op, before + after);
    if (wholeLine) read.end = callLineEnd(text, read.start, Math.max(read.end, wordEnd(text, read.start)));
    if (!read.quoted && /^[ \t]*(?:export[ \t]+|-[ \t]+)?["']?$/.test(lineBefore(text, m.index) ?? 'x')) read.end = withGluedSigns(text, read.start, read.end);
    const plural =
      !secret &&
      (isSecretsName(name, closer === '' ? 'assigned' : 'text') ||
        (read.quoted && /["']/.test(closer) && isSecretsName(name, 'assigned') && isListOfSecrets(text.slice(read.start, read.end))));
    if (!secret && !plural) {
      const value = text.slice(read.start, read.end);
      if (isSecretCode(name, value) || (read.quoted && isIssuedCredential(text, name, read.start, read.end) && isSecretValue(value, { quoted: true, form: 'literal', name, after: '' }))) found.push({ start: read.start, end: read.end, kind });
      continue;
    }
    // Many secrets: `DB_PASSWORDS=one,two` is all of them, not counts, paths or a list of names.
    if (plural && !read.quoted) read.end = commaRunEnd(text, read.end);
    const value = text.slice(read.start, read.end);
    if (plural && isPluralOfNames(name, value)) continue;
    const form = isDottedSetting(text, m.index, name, closer, op, before + after, read.end) ? 'literal' : formOf(text, m.index, name, closer, op, before + after);
    // What follows a form's or a query's value is its next field (`&user[email]=…`), no operator.
    const following = NEXT_FIELD.test(text.slice(read.end, read.end + 200)) ? '' : text.slice(read.end, read.end + 8);
    if (!isSecretValue(value, { quoted: read.quoted, form, name, after: following, wholeLine }) && !isSecretCode(name, value)) continue;
    const end = wholeLine ? read.end : form === 'yaml' && !read.quoted ? lineEnd(text, read.start, secretEnd(text, read)) : secretEnd(text, read);
    found.push({ start: read.start, end, kind });
    // Many secrets quoted one by one: `DB_PASSWORDS='one','two'` (not a JSON key's: the next is a key).
    const items = plural && read.quoted && closer === '' ? quotedItems(text, end + 1) : [];
    found.push(...items.map((item) => ({ ...item, kind })));
    NAMED.lastIndex = Math.max(NAMED.lastIndex, items.at(-1)?.end ?? end);
  }
  return found;
}

/**
 * Whether a name opens a .env file's line: an environment variable's (upper case) set with `=` at
 * the line's start, maybe after `export` or a YAML list's dash (docker-compose's `environment:`).
 */
function isEnvironmentLine(text: string, start: number, name: string, closer: string, op: string, spaces: string): boolean {
  return op === '=' && closer === '' && spaces === '' && /^[A-Z][A-Z0-9_]*$/.test(name) && /^[ \t]*(?:export[ \t]+|-[ \t]+)?$/.test(lineBefore(text, start) ?? 'x');
}

/**
 * A .env line's call given arguments with blanks (`jwt.encode(payload, KEY)`, `getpass(f"Password
 * for {user}: ")`): read to the bracket closing it at the line's end, or its word (cut at the blank)
 * was taken for a password and the rest of the call left on the page. Its name is of letters.
 */
function callLineEnd(text: string, start: number, end: number): number {
  const word = text.slice(start, end);
  // A call's name of letters only: a password's bracket follows its digits (`Hunter2(x y)`).
  if (/[)\]]$/.test(word) || !LINE_CALL_OR_INDEX.test(word) || !/^[A-Za-z_$]+(?:(?:::|\??\.)[A-Za-z_$]+)*[([]/.test(word)) return end;
  let stop = end;
  const limit = Math.min(text.length, start + MAX_VALUE_LENGTH);
  while (stop < limit && text[stop] !== '\n' && text[stop] !== '\r') stop++;
  const call = text.slice(start, stop).trimEnd();
  const opened = call.replace(/[^([]/g, '').length;
  return /[)\]]$/.test(call) && opened > 0 && opened === call.replace(/[^)\]]/g, '').length ? start + call.length : end;
}

/**
 * Where a .env line's bare value ends: at a blank (a ` # comment` after it stays), a backtick (a
 * code span's end), or a shell's `;`, `&` or `|` (withGluedSigns takes those into a value ending
 * its line); within MAX_VALUE_LENGTH. A comma before a blank is a list's or a sentence's
 * (`DB_PASSWORDS=one, two`: commaRunEnd reads on).
 */
function wordEnd(text: string, from: number): number {
  const stop = Math.min(text.length, from + MAX_VALUE_LENGTH);
  let end = from;
  while (end < stop && !isLineWordStop(text.charCodeAt(end))) end++;
  return text[end - 1] === ',' && end > from + 1 ? end - 1 : end;
}

/** Whitespace, a backtick, `;`, `&` and `|`. */
function isLineWordStop(c: number): boolean {
  return c <= 32 || c === 96 || c === 59 || c === 38 || c === 124;
}

/** The quoted strings that follow a closing quote at `at`, each after a comma (`,'two', "three"`), that are secret values. */
function quotedItems(text: string, at: number): Span[] {
  const items: Span[] = [];
  let next = afterBlanks(text, at);
  while (text[next] === ',') {
    next = afterBlanks(text, next + 1);
    if (text[next] !== "'" && text[next] !== '"') break;
    const read = readValue(text, next);
    // A JSON object's next key is no item of the list.
    if (read === null || !read.quoted || text[afterBlanks(text, read.end + 1)] === ':') break;
    // Each one that reads as a secret: a list after `secrets:` may go on with paths and names.
    const item = text.slice(read.start, read.end);
    if (isSecretLike(item) && isSecretValue(item, { quoted: true, form: 'literal', name: '', after: '' })) items.push({ start: read.start, end: read.end });
    next = afterBlanks(text, read.end + 1);
  }
  return items;
}

function afterBlanks(text: string, at: number): number {
  while (text[at] === ' ' || text[at] === '\t') at++;
  return at;
}

/** Where a bare value's comma-separated run ends: `one,two,three`, `one, two`. */
function commaRunEnd(text: string, end: number): number {
  let at = end;
  for (;;) {
    const next = text[at] === ',' ? (text[at + 1] === ' ' || text[at + 1] === '\t' ? at + 2 : at + 1) : -1;
    if (next === -1 || next >= text.length || isValueStop(text.charCodeAt(next))) return at;
    at = next;
    while (at < text.length && !isValueStop(text.charCodeAt(at))) at++;
  }
}

/** ODBC's password keyword, any case: `PWD=`, `Pwd=`. */
const CONNECTION_PWD = /(?<![\w$.-])pwd[ \t]*=[ \t]*/gi;
/** A connection string's part naming its driver, server, database or user: what says `PWD` is one's password. */
const CONNECTION_PART = /(?:^|[;=\s])(?:Driver|Server|Data[ \t]+Source|Address|Addr|DSN|Database|Initial[ \t]+Catalog|UID|User[ \t]*ID|User)[ \t]*=/i;
/** How far a connection string's other parts are looked for either side of its `PWD=`. */
const CONNECTION_STRING_REACH = 400;

/**
 * `PWD=` in an ODBC or ADO connection string (`Driver={ODBC Driver 18 for SQL
 * Server};Server=x;UID=sa;PWD=…;`, `"Server=db;Uid=root;Pwd=…;"` in appsettings.json): its value,
 * in braces or to the next `;`. Only where it is a part of a `;`-separated string (after a `;`, or
 * opening it) that names a server, driver, database or user on the same line within its quotes;
 * elsewhere `PWD` is the working directory's variable (`PWD=/tmp`, `cd "$PWD"`).
 */
function connectionStringPasswords(text: string): Found[] {
  const found: Found[] = [];
  if (!/pwd[ \t]*=/i.test(text)) return found;
  CONNECTION_PWD.lastIndex = 0;
  for (let m = CONNECTION_PWD.exec(text); m; m = CONNECTION_PWD.exec(text)) {
    let back = m.index - 1;
    while (text[back] === ' ' || text[back] === '\t') back--;
    if (back >= 0 && !';"\'\n'.includes(text[back] as string)) continue;
    const at = m.index + m[0].length;
    let start = at;
    let end: number;
    if (text[at] === '{') {
      // ODBC's braces hold a value with `;` in it, `}}` a brace.
      start = at + 1;
      end = start;
      while (end < Math.min(text.length, start + 200) && text[end] !== '\n' && (text[end] !== '}' || text[end + 1] === '}')) end += text[end] === '}' ? 2 : 1;
      if (text[end] !== '}') continue;
    } else {
      end = at;
      while (end < Math.min(text.length, at + 200) && !/[\s;"'\x60]/.test(text[end] as string)) end++;
    }
    const value = text.slice(start, end);
    if (end === start || /^[~/]/.test(value) || !isSecretValue(value, { quoted: text[at] === '{', form: 'literal', name: 'PWD', after: '' })) continue;
    const around = `${stringSide(text, m.index, -1)};${stringSide(text, end, 1)}`;
    if (!CONNECTION_PART.test(around)) continue;
    found.push({ start, end });
  }
  return found;
}

/** The text of a quoted string or a line from `at` to its quote or its line's end in `step`'s direction, within CONNECTION_STRING_REACH. */
function stringSide(text: string, at: number, step: 1 | -1): string {
  let i = at;
  for (let n = 0; n < CONNECTION_STRING_REACH; n++, i += step) {
    const c = text[step === 1 ? i : i - 1];
    if (c === undefined || c === '\n' || c === '"' || c === "'") break;
  }
  return step === 1 ? text.slice(at, i) : text.slice(i, at);
}

/**
 * Whether what a plural name holds is counts, a path or names rather than secrets: `MAX_KEYS=1000`,
 * `SSH_AUTHORIZED_KEYS=/etc/ssh/…`, `ALLOWED_AUTHS=basic,bearer`. Every item of a plural of
 * passwords, secrets or credentials is one, even a word (`DB_PASSWORDS=correcthorse,battery`).
 */
function isPluralOfNames(name: string, value: string): boolean {
  const parts = value.split(/,[ \t]?/);
  if (parts.every((part) => NUMBER.test(part)) || /^[~./]/.test(value)) return true;
  const strong = /(?:password|passwd|passphrase|passcode|secret|credential)s$/i.test(nameWords(name).at(-1) ?? '');
  return !strong && parts.every(isNameLike);
}

/**
 * Whether the object after a secret's name is data holding the secret: the name quoted, its
 * last word not `auth` (a locale file's `"auth": {"signIn": …}`), not the end of a path
 * (`"node_modules/js-tokens": {`) nor a `case 'password': {` of a switch.
 */
function isSecretObjectName(text: string, start: number, name: string, closer: string): boolean {
  if (!/["']/.test(closer) || /^auth/.test(nameWords(name).at(-1) ?? '')) return false;
  // The name may follow its namespace in the same quotes (Pulumi's `"shop:dbPassword": {`).
  let opening = start - 1;
  if (text[opening] === ':') for (opening--; opening >= 0 && start - opening < 100 && /[\w.-]/.test(text[opening] as string); ) opening--;
  const quote = text[opening];
  if (quote !== '"' && quote !== "'") return false;
  const lead = text.slice(Math.max(0, opening - LINE_LOOKBACK), opening);
  return !lead.endsWith('/') && !/\bcase[ \t]*$/.test(lead);
}

/** The quoted strings of a list that opens at `at` (`[` … `]`, over lines), up to the first element that is not one. */
function listStrings(text: string, at: number, name: string): { found: Found[]; end: number } {
  const found: Found[] = [];
  const limit = Math.min(text.length, at + MAX_VALUE_LENGTH);
  let i = at + 1;
  for (;;) {
    while (i < limit && /[\s,]/.test(text[i] ?? '')) i++;
    const read = i < limit && (text[i] === '"' || text[i] === "'") ? readValue(text, i) : null;
    if (!read?.quoted) return { found, end: i };
    const value = text.slice(read.start, read.end);
    if (!isNameLike(value) && isSecretValue(value, { quoted: true, form: 'literal', name, after: '' })) found.push({ start: read.start, end: read.end });
    i = read.end + 1;
  }
}

/**
 * Which objects under a secret's name are worth reading: not one inside an object read to its end
 * (its values were weighed with it, as its own read weighs them: see objectStrings), nor one where
 * many reads that ran their whole reach without finding an end are still under way
 * (`"password":{` a thousand times over, never closed, read 16 KB on each time: seconds a
 * kilobyte). A read that stopped early (a string not closed on its line) costs little and counts
 * for neither.
 */
function objectsRead(): { worthReading(at: number): boolean; read(at: number, object: ObjectRead): void } {
  let readUntil = -1;
  const unclosed: number[] = [];
  return {
    worthReading(at) {
      while (unclosed.length > 0 && (unclosed[0] as number) <= at) unclosed.shift();
      return at >= readUntil && unclosed.length < UNCLOSED_READS;
    },
    read(at, object) {
      if (object.end === 'closed') readUntil = Math.max(readUntil, object.until);
      else if (object.end === 'unclosed') unclosed.push(at + MAX_VALUE_LENGTH);
    },
  };
}

/** How a read of an object ended: closed, stopped early, or not closed within reach. */
interface ObjectRead {
  found: Found[];
  end: 'closed' | 'stopped' | 'unclosed';
  /** Past its closing brace, where it closed. */
  until: number;
}

/** Reads of objects that found no end, under way at once, past which more are not read. */
const UNCLOSED_READS = 32;

/**
 * The quoted values of an object that opens at `at` (`{` … `}`, nested, over lines), when it
 * closes within reach, held under a key that holds the secret (VALUE_KEYS): not keys, not
 * arguments of a call (`Buffer.from(password, 'utf8')`), nor names. An object inside under a
 * secret's own name is weighed as its own read would: a call open around it (`re: /(a|b/,
 * 'password': {…}`) ends at it. So a read to the end covers those inside, and a text of them nested
 * is read once.
 */
function objectStrings(text: string, at: number, name: string): ObjectRead {
  const found: Found[] = [];
  const limit = Math.min(text.length, at + MAX_VALUE_LENGTH);
  /** Open brackets, each with the parentheses open outside it (open again where it closes). */
  const open: { bracket: string; parens: number }[] = [];
  let parens = 0;
  /** The key each value being read is under, and where the last quoted key closed its quotes. */
  let key: string | null = null;
  let keyEnd = -1;
  let jsonKey = false;
  /** Keys judged, each once a read: a key is the same a thousand times over in hostile text. */
  const secretKeys = new Map<string, boolean>();
  const isSecretKey = (k: string) => secretKeys.get(k) ?? secretKeys.set(k, SECRET_NAME_HINT.test(k) && isSecretName(k)).get(k) === true;
  const regexEnd = regexLiterals(text, limit);
  for (let i = at; i < limit; i++) {
    const c = text[i] as string;
    // A comment (JSONC's `// don't commit`, `/* … */`, Python's `# ops' own`) holds no value, and
    // its apostrophe opens no string; nor does a regex literal's `//` (`/^https?:\/\//`) open one.
    const comment = c === '/' || c === '#' ? commentEnd(text, i, limit) ?? regexEnd(i) : null;
    if (comment !== null) {
      if (comment >= limit) return { found: [], end: 'unclosed', until: -1 };
      i = comment - 1;
    } else if (c === '{' || c === '[') {
      open.push({ bracket: c, parens });
      if (c === '{' && parens > 0 && keyEndBefore(text, i) === keyEnd && key !== null && isSecretKey(key)) parens = 0;
    } else if (c === '}' || c === ']') {
      parens = open.pop()?.parens ?? parens;
      if (open.length === 0) return { found, end: 'closed', until: i + 1 };
    } else if (c === '(') parens++;
    else if (c === ')') parens = Math.max(0, parens - 1);
    else if (c === ':' || c === '=') {
      // An unquoted key (`{ value: 'x' }`): the word before.
      if (text[i - 1] !== '"' && text[i - 1] !== "'") {
        key = wordBefore(text, i, at) ?? key;
        jsonKey = false;
      }
    } else if (c === '"' || c === "'") {
      const read = readValue(text, i);
      // A string not closed on its line: not data whose values can be told apart.
      if (!read?.quoted) return { found: [], end: 'stopped', until: -1 };
      const value = text.slice(read.start, read.end);
      let back = i - 1;
      while (back > at && /\s/.test(text[back] as string)) back--;
      const before = text[back];
      i = read.end;
      let next = i + 1;
      while (text[next] === ' ' || text[next] === '\t') next++;
      if (text[next] === ':' || (text[next] === '=' && text[next + 1] !== '=')) {
        key = value;
        keyEnd = i;
        jsonKey = c === '"';
        continue;
      }
      const inList = open.at(-1)?.bracket === '[' && (before === '[' || before === ',');
      const isValue = parens === 0 && (before === ':' || before === '=' || inList);
      if (!isValue || key === null || !VALUE_KEYS.has(key.toLowerCase())) continue;
      // JSON's `"value": "…"` is data (an ARM template's parameter): a word or words there are a
      // password (`"Monkey-Trousers-Lamp-Canyon"`), unless a label; elsewhere they name one.
      if (jsonKey && c === '"' && key.toLowerCase() === 'value' ? isWordsLabel(value) : isNameLike(value)) continue;
      if (isSecretValue(value, { quoted: true, form: 'code', name, after: '' })) found.push({ start: read.start, end: read.end });
    }
  }
  // Not closed within reach: code, not data.
  return { found: [], end: 'unclosed', until: -1 };
}

/** Where the quoted key before a bracket at `at` closes its quotes (`"password": {`), or -1. */
function keyEndBefore(text: string, at: number): number {
  let i = at - 1;
  while (text[i] === ' ' || text[i] === '\t') i--;
  if (text[i] !== ':' && text[i] !== '=') return -1;
  i--;
  while (text[i] === ' ' || text[i] === '\t') i--;
  return text[i] === '"' || text[i] === "'" ? i : -1;
}

/**
 * Where a comment that opens at `at` ends (its line's end, or past its `*\/`), outside strings,
 * looked for up to `limit` (`limit` where it does not end before); null where none opens. `#`
 * opens one after a blank only (not `a#b`).
 */
function commentEnd(text: string, at: number, limit: number): number | null {
  const c = text[at];
  if (c !== '/' && c !== '#') return null;
  if (c === '#' ? !/\s/.test(text[at - 1] ?? '\n') : text[at + 1] !== '/' && text[at + 1] !== '*') return null;
  const block = c === '/' && text[at + 1] === '*';
  // Within the reach only: a comment never closed is not looked for to the text's end at each read.
  const close = text.slice(at, limit).indexOf(block ? '*/' : '\n', block ? 2 : 1);
  return close === -1 ? limit : at + close + (block ? 2 : 0);
}

/**
 * Regex literals along one forward read up to `limit`: where one that opens at `at` ends (past its
 * closing `/` and flags, on its line, within REGEX_REACH), or null where none opens. A `/` opens
 * one only after what ends no operand (`:`, `,`, `(`, `=` …), not a division's; and none within
 * what a literal never closed was read to (`a: /[` over and over would each read on again).
 */
function regexLiterals(text: string, limit: number): (at: number) => number | null {
  let unclosedUntil = -1;
  return (at) => {
    if (at < unclosedUntil || text[at] !== '/' || text[at + 1] === '/' || text[at + 1] === '*') return null;
    let back = at - 1;
    while (text[back] === ' ' || text[back] === '\t') back--;
    if (!/[(,=:[!&|?{};]/.test(text[back] ?? '')) return null;
    let inClass = false;
    let i = at + 1;
    for (const end = Math.min(limit, at + REGEX_REACH); i < end && text[i] !== '\n'; i++) {
      const c = text[i];
      if (c === '\\') i++;
      else if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) {
        let flags = i + 1;
        while (/[a-z]/.test(text[flags] ?? '')) flags++;
        return flags;
      }
    }
    unclosedUntil = i;
    return null;
  };
}

/** How far a regex literal's closing `/` is looked for. */
const REGEX_REACH = 200;

/**
 * The word just before `at` past blanks (`value` in `{ value: 'x' }`), of at most 64 characters
 * and not before `from`; null where there is none. Read backwards character by character: a
 * pattern anchored at the end, tried at each of 64 places, cost that many squared at every colon.
 */
function wordBefore(text: string, at: number, from: number): string | null {
  let end = at;
  while (end > from && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  let start = end;
  while (start > Math.max(from, at - 64) && /[\w$-]/.test(text[start - 1] as string)) start--;
  while (start < end && !/[A-Za-z_$]/.test(text[start] as string)) start++;
  return start < end ? text.slice(start, end) : null;
}

/**
 * The keys under which an object holds the secret its name says it is (`{"value": …}`, a
 * Kubernetes secret's `data`, a rotation's `current` and `new`): only their values are taken.
 * Any other key of such an object (a schema's `pattern`, an API model's `documentation`, a
 * locale's `hint`, a `path`, a date) describes the secret, and real files are full of them.
 */
const VALUE_KEYS = new Set(['value', 'values', 'data', 'plaintext', 'cleartext', 'raw', 'current', 'new', 'old', 'previous', 'secret', 'password', 'token', 'key']);

/**
 * A string of a list that names something rather than holds a secret: a field, a scope, a header
 * (`"key_name"`, `"read:user"`, `"x-api-key"`, `"oauth2_scope"`). A list under `api_keys` is as
 * often the fields of a key as the keys.
 */
function isNameLike(value: string): boolean {
  return /^[A-Za-z][A-Za-z:._-]*$/.test(value) || /^[a-z][a-z0-9]*(?:[_:.-][a-z0-9]+)+$/.test(value);
}

/** `--password=…` is whatever follows; `--token …` only a value that is not a plain word (`--token flag`). */
/** Whether openssl is called on the line before `at` or lines continued into it, within 1,000 characters (a line of a megabyte is not read back each time). */
function isOpensslLine(text: string, at: number): boolean {
  const lines = text.slice(Math.max(0, at - 1000), at).split('\n');
  // The command's own lines: back over those continued with a `\`.
  let first = lines.length - 1;
  while (first > 0 && /\\[ \t]*\r?$/.test(lines[first - 1] as string)) first--;
  return /\bopenssl\b/.test(lines.slice(first).join('\n'));
}

function flagValues(text: string): Found[] {
  const found: Found[] = [];
  FLAG.lastIndex = 0;
  for (let m = FLAG.exec(text); m; m = FLAG.exec(text)) {
    const property = m[1];
    const name = property ?? m[3] ?? '';
    const sign = m[2] ?? m[4];
    if (!SECRET_NAME_HINT.test(name)) continue;
    const read = readValue(text, m.index + m[0].length);
    if (!read) continue;
    // openssl's `-pass` names where its password is (`file:pw.txt`, `env:VAR`, `fd:3`, `stdin`);
    // `pass:…` is the password, the openssl rule's.
    // Its own only (a review: `vault login -pass file:Hunter22x` was kept): openssl on the line before it.
    if (property === undefined && !m[0].startsWith('--') && name === 'pass' && OPENSSL_PASS_SOURCE.test(text.slice(read.start, read.end)) && isOpensslLine(text, m.index)) continue;
    // A property's name is read whole, as in XML configuration (`-Dfs.s3a.secret.key=…`).
    const secret = property === undefined ? isSecretName(name) : isSecretPropertyName(name);
    const plural = !secret && isSecretsName(name, 'assigned');
    if (!secret && !plural) {
      const value = text.slice(read.start, read.end);
      if (isSecretCode(name, value)) found.push({ start: read.start, end: read.end });
      continue;
    }
    // `--db-passwords=one,two`: all of them (not `--dns-authorizations=a-example-com`, names).
    if (plural && !read.quoted) read.end = commaRunEnd(text, read.end);
    const value = text.slice(read.start, read.end);
    if (plural && isPluralOfNames(name, value)) continue;
    if (sign !== '=' && !read.quoted && /^[A-Za-z]+(?:[-_][A-Za-z]+)*$/.test(value)) continue;
    if (!isSecretValue(value, { quoted: read.quoted, form: 'literal', name, after: '' })) continue;
    const end = secretEnd(text, read);
    found.push({ start: read.start, end });
    FLAG.lastIndex = Math.max(FLAG.lastIndex, end);
  }
  return found;
}

/** Where openssl's `-pass` (`-passin`, `-passout`) reads a password from, not the password. */
const OPENSSL_PASS_SOURCE = /^(?:(?:file|env|fd):\S|stdin$)/;

function formOf(text: string, start: number, name: string, closer: string, op: string, spaces: string): ValueForm {
  const line = lineBefore(text, start);
  if (name.includes('-') && !name.includes('.')) return 'literal';
  if (op === ':') return line !== null && /^[ \t]*(?:-[ \t]+)?["']?$/.test(line) && closer.length <= 1 ? 'yaml' : 'code';
  if (op !== '=' || spaces !== '' || name.includes('.') || closer.includes(']')) return 'code';
  const previous = previousNonSpace(text, start);
  if (previous === '(' || previous === ',' || previous === '{') return 'code';
  if (line !== null ? CODE_DECLARATION.test(line) : CODE_DECLARATION.test(text.slice(Math.max(0, start - LINE_LOOKBACK), start))) return 'code';
  return 'literal';
}

/**
 * Whether a dotted name (`a.b=…`, no blanks) is a setting's, not a member's in code, so that its
 * value is read as written: helm's `--set a=1,auth.password=…`, or a line of a .properties file
 * (`spring.datasource.password=…`), its value to the line's end and not one capitalised word, a
 * locale's label (`login.password=Passwort` in messages_de.properties).
 */
function isDottedSetting(text: string, start: number, name: string, closer: string, op: string, spaces: string, valueEnd: number): boolean {
  if (op !== '=' || spaces !== '' || closer !== '' || !name.includes('.')) return false;
  if (/--set(?:-string|-literal)?(?:[ \t]+|=)\S*$/.test(text.slice(Math.max(0, start - 300), start))) return true;
  // Indented, an object's member (`  user.password=hashed`) is a statement in a block of code
  // without semicolons; a setting's name is mostly deeper (`  spring.datasource.password=…`).
  const indent = lineBefore(text, start);
  if (indent === null || !/^[ \t]*$/.test(indent) || (indent !== '' && !/\..*\./.test(name)) || /^(?:this|self)\./.test(name)) return false;
  return /^[ \t]*(?:\r?\n|$)/.test(text.slice(valueEnd, valueEnd + 40)) && !/^[A-Z][a-z]+$/.test(text.slice(start + name.length + 1, valueEnd));
}

/** The text from the start of the line to `at`, or null when the line began too far back to matter. */
function lineBefore(text: string, at: number): string | null {
  for (let i = at - 1; i >= 0 && at - i <= LINE_LOOKBACK; i--) if (text[i] === '\n') return text.slice(i + 1, at);
  return at <= LINE_LOOKBACK ? text.slice(0, at) : null;
}

function previousNonSpace(text: string, at: number): string | undefined {
  for (let i = at - 1; i >= 0 && at - i <= LINE_LOOKBACK; i--) if (text[i] !== ' ' && text[i] !== '\t') return text[i];
  return undefined;
}

/** A block scalar's header: `|` or `>`, its chomping and indentation marks, maybe a comment, then the line's end. */
const YAML_BLOCK_HEADER = /^(?:[&!][^\s]*[ \t]+){0,2}[|>](?:[+-]?[1-9]?|[1-9][+-])[ \t]*(?:#[^\n]*)?\r?\n/;
/** How many lines of a block scalar are read: a secret's are one or a few (a key's base64 some tens). */
const YAML_BLOCK_LINES = 64;

/**
 * The text of a YAML block scalar whose header is at `at`, under a key whose name starts at
 * `keyAt`: each line indented more than the key's, to the first that is not (blank lines within
 * it). The lines' texts as spans, when what they hold together is a secret's value; else null.
 */
function yamlBlock(text: string, at: number, keyAt: number, name: string): { spans: Span[]; end: number } | null {
  const header = YAML_BLOCK_HEADER.exec(text.slice(at, at + 200));
  if (header === null) return null;
  const lineStart = text.lastIndexOf('\n', keyAt - 1) + 1;
  const keyIndent = /^[ \t]*(?:-[ \t]+)?/.exec(text.slice(lineStart, keyAt))?.[0].length ?? 0;
  const spans: Span[] = [];
  let from = at + header[0].length;
  let end = from;
  for (let lines = 0; from < text.length && lines < YAML_BLOCK_LINES; lines++) {
    const next = text.indexOf('\n', from);
    const stop = next === -1 ? text.length : next;
    const line = text.slice(from, stop).replace(/\r$/, '');
    if (line.trim() !== '') {
      const indent = line.length - line.trimStart().length;
      if (indent <= keyIndent) break;
      spans.push({ start: from + indent, end: from + line.trimEnd().length });
      end = from + line.length;
    }
    from = stop + 1;
  }
  // One line is judged as the value after a key on its line is, by its first word (a passphrase
  // holds spaces under a password's name; under a token's, a line of words is its description). A
  // secret of several lines (a key's base64) is words without spaces: a block of prose or settings
  // (`auth: |` holding `enabled = true`) is the value's description, not the value.
  const lines = spans.map((span) => text.slice(span.start, span.end));
  if (lines.length === 0 || lines.length === YAML_BLOCK_LINES) return null;
  const first = (lines[0] as string).split(/\s/, 1)[0] as string;
  const secret =
    lines.length === 1
      ? (isPasswordName(name) || first === lines[0]) && isSecretValue(first, { quoted: false, form: 'yaml', name, after: (lines[0] as string).slice(first.length, first.length + 8) })
      : !lines.some((line) => /\s/.test(line)) && isSecretValue(lines.join(''), { quoted: true, form: 'literal', name, after: '' });
  return secret ? { spans, end } : null;
}

/**
 * Where a bare value of a line of its own ends once the signs glued into it are taken in
 * (`Tr0ub4dor&3`, `k8;Zq|Lm2#Xv9pW`, `correct&horse&staple`): only where the value then ends its
 * line (`;psql -U app`, `|tee log` are a shell's next command), no sign starts another field
 * (`;Server=db.local`, `&user[email]=bob`), and no part is a type (`Uint8Array|null`).
 */
function withGluedSigns(text: string, start: number, end: number): number {
  let at = end;
  const parts = [text.slice(start, end)];
  while (GLUE.has(text[at] as string) && at + 1 < text.length && !/[\s&;|'"`]/.test(text[at + 1] as string)) {
    let next = at + 1;
    while (next < text.length && !/[\s'"`]/.test(text[next] as string) && !GLUE.has(text[next] as string)) next++;
    if (NEXT_FIELD.test(text.slice(at, next))) return end;
    parts.push(text.slice(at + 1, next));
    at = next;
  }
  if (at === end || !/^[ \t]*(?:#.*)?(?:\r?\n|$)/.test(text.slice(at, at + 200))) return end;
  return parts.some((part) => TYPE_NAMES.has(part.toLowerCase()) || UNION_MEMBERS.has(part.toLowerCase()) || TYPED_ARRAY.test(part)) ? end : at;
}
const GLUE = new Set(['&', ';', '|']);
/** What a union type names beside a type: `Uint8Array|null`, `str|None`. */
const UNION_MEMBERS = new Set(['null', 'undefined', 'none', 'void', 'nil', 'optional']);
const TYPED_ARRAY = /^(?:Uint8Clamped|U?[Ii]nt(?:8|16|32)|Float(?:32|64)|Big(?:Ui|I)nt64)Array$/;
/** A form's, a query's or a connection string's next field, after the value before it. */
const NEXT_FIELD = /^[&;|][A-Za-z_][\w.\-[\]%]*=/;

/** A YAML scalar runs to the end of its line (`password: correct horse battery staple`), not past a ` #` comment. */
function lineEnd(text: string, start: number, end: number): number {
  let i = end;
  const limit = Math.min(text.length, start + MAX_VALUE_LENGTH);
  // Up to a comment (`# …`, or code's `// …`) or an object's next member on the line (`, user: bob`).
  while (i < limit && text[i] !== '\n' && text[i] !== '\r' && !(text[i] === '#' && text[i - 1] === ' ') && !(text[i] === '/' && text[i + 1] === '/' && text[i - 1] === ' ') && !(text[i] === ',' && NEXT_MEMBER.test(text.slice(i, i + 120)))) i++;
  while (i > end && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  // Code's comma or semicolon ending the line is no part of the value.
  if (i > end && (text[i - 1] === ',' || text[i - 1] === ';')) i--;
  return i;
}
/** An object's next member after a value on its line: `, user: bob` (not `, https://…`). */
const NEXT_MEMBER = /^,[ \t]+[A-Za-z_$][\w$-]*[ \t]*:(?:[ \t]|$)/;

// ---------------------------------------------------------------------------------------------
// Private keys whose BEGIN line is missing: the body printed by `tail`, `sed -n` or a cut preview.

const BASE64_LINE = /^[A-Za-z0-9+/]{16,}={0,2}$/;
/** A body's last line may be short: `e8TnroaWPSx6iIgIZN3m`, `Cv==`. */
const BASE64_TAIL = /^[A-Za-z0-9+/]{2,}={0,2}$/;
/** The start of a DER private key (PKCS#1, PKCS#8, EC) or of an OpenSSH key, in base64. */
const KEY_BODY_START = /^(?:MII[A-Za-z0-9+/]|MC4CAQAw|MHcCAQEE|MIGHAgEA|MIGEAgEA|b3BlbnNzaC1rZXktdjE)/;
const END_LINE = /^-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
/** PEM bodies are wrapped at 64 characters (OpenSSH at 70): two such lines in a row are a key body. */
const PEM_WIDTHS = new Set([64, 70]);
/** A line's number before its text, as a file read shows it: `20→`, `20\t`. */
const LINE_NUMBER_MARK = /^\d{1,9}(?:→|\t)/;
/** A diff's mark before a line it adds or removes. */
const DIFF_MARK = /^[+-](?=[A-Za-z0-9+/])/;
/** A BEGIN line of something public (a certificate, a public key): its body is not a secret. */
const PUBLIC_BEGIN = /^-----BEGIN (?![A-Z0-9 ]*PRIVATE)/;

/**
 * Runs of base64 lines that are a private key's body: ended by an END line, opened by the start
 * of a DER or OpenSSH key, or two or more lines at PEM's width (mixed case, as base64 is).
 */
function pemBodies(text: string): Span[] {
  const found: Span[] = [];
  if (!text.includes('\n')) return found;
  let run: { start: number; end: number; lines: number; full: number; keyStart: boolean; afterPublic: boolean } | null = null;
  let previous = '';
  for (let at = 0; at <= text.length; ) {
    let next = text.indexOf('\n', at);
    if (next < 0) next = text.length;
    const raw = text.slice(at, next);
    // A file read with its line numbers (Claude Code's `  20→`, `cat -n`'s tab) is its lines.
    const trimmed = raw.trim().replace(LINE_NUMBER_MARK, '');
    // A line of a diff (a patch adding a key file, an edit shown as one) is its mark and the line.
    // (Base64 has `+` too: a line of PEM's width may begin with one, and is taken either way.)
    const marked = DIFF_MARK.test(trimmed);
    const line = marked ? trimmed.slice(1) : trimmed;
    if (run ? BASE64_TAIL.test(line) && /[0-9+/=]|[a-z][A-Z]|[A-Z][a-z]/.test(line) : BASE64_LINE.test(line) && /[0-9+/]/.test(line) && /[a-z]/.test(line) && /[A-Z]/.test(line)) {
      const start = at + raw.indexOf(trimmed) + trimmed.length - line.length;
      run ??= { start, end: start, lines: 0, full: 0, keyStart: (KEY_BODY_START.test(line) || KEY_BODY_START.test(trimmed)) && line.length >= 40, afterPublic: PUBLIC_BEGIN.test(previous) };
      run.lines++;
      if (PEM_WIDTHS.has(line.length) || (marked && PEM_WIDTHS.has(trimmed.length))) run.full++;
      run.end = start + line.length;
    } else {
      if (run && (END_LINE.test(line) || (!run.afterPublic && (run.keyStart || run.full >= 2)))) found.push({ start: run.start, end: run.end });
      run = null;
      previous = line;
    }
    at = next + 1;
  }
  if (run && !run.afterPublic && (run.keyStart || run.full >= 2)) found.push({ start: run.start, end: run.end });
  return found;
}

// ---------------------------------------------------------------------------------------------

/** A token after `Bearer` or `Token`: random (a digit, or long), not a word of prose (`Bearer authentication`) or a placeholder. */
function isCredential(token: string): boolean {
  return (/\d/.test(token) || token.length >= 24) && !PLACEHOLDER.test(token);
}

/** A password written out: not a reference to one (`$PASS`) nor a placeholder. */
/** A word of prose after a flag's name (`the --requirepass flag sets …`), not its value. */
const PROSE_AFTER_FLAG = /^(?:flag|option|setting|parameter|argument|directive|value|is|are|and|or|to|in|on|at|with|for|the|a|an|was|must|should|can|when|enabled|disabled|required|set|sets|enables)$/i;

/** A Redis password: not redis.conf's stock example (`requirepass foobared`). */
function isRedisPassword(value: string): boolean {
  return isCommandPassword(value) && value !== 'foobared';
}

/** A password sed writes into redis.conf: not a template's token for one (`__REDIS_PASSWORD__`, `@@PASSWORD@@`). */
function isSedPassword(value: string): boolean {
  return isRedisPassword(value) && isPasswordLiteral(value) && !/^(?:__|@@|%%|\{\{|<).*(?:__|@@|%%|\}\}|>)$/.test(value);
}

/** ACL SETUSER as a command (opening a line, after a prompt, a quote or redis-cli) and its user: group 1, its rules. */
const ACL_SETUSER_LINE = /(?:(?:^|\n)[ \t]*(?:(?:[-*+]|\d{1,3}[.)])[ \t]+)?|[>"'`][ \t]*|\b(?:redis|valkey)-cli\b(?:[ \t]+[^\s|;&]{1,200}){0,20}?[ \t]+)ACL[ \t]+SETUSER[ \t]+[^\s,;]{1,100}([^\n]{0,2000})/gi;
/** A line of users.acl (`user app on … >… ~* +@all`): group 1, its rules. */
const USERS_ACL_LINE = /(?:^|\n)[ \t]*user[ \t]+[^\s]{1,100}[ \t]+(?:on|off)\b([^\n]{0,2000})/g;
/** What only an ACL's rules hold: key and channel patterns, command categories. */
const ACL_RULE = /[ \t](?:[~%&]\S|\+[@\w]|-@|-\w{3,}|allkeys|allcommands|allchannels|resetkeys|resetchannels|resetpass|nopass)/;
/** A password an ACL rule adds: `>…` after a blank, maybe quoted as a shell needs it (`'>…'`). */
const ACL_PASSWORD = /[ \t](["']?)>([^\s"'`]{1,200})\1/g;

/**
 * Redis users' passwords set by ACL SETUSER or in users.acl (`>…`): not a word of prose ending in
 * a sign (`rules like on, >password, ~pattern.`), nor, in users.acl, a redirection (`>/dev/null`).
 */
function redisAclPasswords(text: string): Found[] {
  const found: Found[] = [];
  if (!text.includes('>') || !/setuser|user/i.test(text)) return found;
  for (const [line, aclFile] of [[ACL_SETUSER_LINE, false], [USERS_ACL_LINE, true]] as const) {
    line.lastIndex = 0;
    for (let m = line.exec(text); m; m = line.exec(text)) {
      const rules = m[1] ?? '';
      if (aclFile && !ACL_RULE.test(rules)) continue;
      const base = m.index + m[0].length - rules.length;
      ACL_PASSWORD.lastIndex = 0;
      for (let p = ACL_PASSWORD.exec(rules); p; p = ACL_PASSWORD.exec(rules)) {
        // A command's `;` after it ends it (`>…; redis-cli ACL SAVE`); one inside is the password's.
        const value = (p[2] as string).replace(/;$/, '');
        if (/[,.]$/.test(value) || (aclFile && value.startsWith('/')) || value.startsWith('[REDACTED:') || !isRedisPassword(value)) continue;
        const start = base + p.index + (p[1] ?? '').length + 2;
        found.push({ start, end: start + value.length });
      }
    }
  }
  return found;
}

/** Where a command's last argument ends: its line's end (also a line continued, `\`), a redirection, an operator, a comment. */
const COMMAND_ENDS = String.raw`[ \t]*(?:$|\r?\n|\\n|\\\r?\n|[<>|;&)"'\x60]|\d>|#)`;

/** wpa_passphrase run as a command: opening its line (after a prompt or sudo), or after an operator, a quote or a bracket of a command's. */
const WPA_PASSPHRASE_AT = String.raw`(?:(?<=^|\n|[;&|(\`"'][ \t]*)|(?<=(?:^|\n)[ \t]*(?:\$|#|>|sudo)[ \t]+)|(?<=(?:^|\n)[ \t]+))`;

/** Words of a message about a password, not one: a label, a prompt, a rule. */
const PASSWORD_MESSAGE = /\b(?:pass(?:word|phrase)s?|enter|type|your|new|please|must|should|required|invalid|at least|characters?|change|reset)\b/i;

/**
 * A token a service issued, not a documentation's stand-in for one (`glsa_xxxx…`, `sbp_0000…`) nor
 * a name or a hash given a prefix alike: two kinds of small letters, capitals and digits; no one
 * character making half of it (not "no run of six": Fly.io's tokens of encoded bytes hold runs of
 * zeros); and not words (isWordy: `re_password_containsUppercase…`, `glagent-operator-controller`).
 * Read whole, prefix and all: a prefix without a separator (`EAAA`, `AQVN`) cut at the token's
 * first `-` or `_` left only its end to be read.
 */
function isIssuedToken(token: string): boolean {
  if (Number(/[a-z]/.test(token)) + Number(/[A-Z]/.test(token)) + Number(/\d/.test(token)) < 2 || isMostlyOneCharacter(token) || isWordy(token)) return false;
  // What follows a prefix ending in a separator, read alone too: a prefix of letters thins a name's words.
  const rest = token.slice(token.search(/[-_.]/) + 1);
  return rest.length < 16 || rest.length === token.length || !isWordy(rest);
}

/** A token of small letters and digits (Neon's, ReadMe's): words of its letters come by chance, so only the stand-in is refused. */
function isIssuedSmallToken(token: string): boolean {
  return /\d/.test(token) && /[a-z]{2}/.test(token) && !isMostlyOneCharacter(token);
}

/**
 * A token of letters in both cases and digits after a prefix of four characters (Render's `rnd_`,
 * Infracost's `ico-`): a name given a hash (`rnd_3f9a…`, `ico-<md5>.png`) is in one case.
 */
function isMixedCaseToken(token: string): boolean {
  const body = token.slice(4);
  return /[a-z]/.test(body) && /[A-Z]/.test(body) && isIssuedToken(token);
}

/** Whether one character makes half of a text or more: a stand-in (`xxxx…`, `0000…`). */
function isMostlyOneCharacter(text: string): boolean {
  const counts = new Map<string, number>();
  for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
  return Math.max(0, ...counts.values()) * 2 > text.length;
}

/**
 * Whether most of a text is words: runs of five small letters or more (maybe after a capital)
 * make more than 60% of it. A random key of letters in both cases and digits seldom has one (of 24
 * such characters, 0.16% of keys pass the mark); names and identifiers are made of them.
 */
function isWordy(text: string): boolean {
  let letters = 0;
  for (const run of text.matchAll(/[A-Z]?[a-z]{5,}/g)) letters += run[0].length;
  return letters > text.length * 0.6;
}

/** A base64 text decoded, for a token that is encoded JSON (`{"a":…` is any JSON's start too). */
function decodedBase64(token: string): string {
  return Buffer.from(token, 'base64').toString('latin1');
}

/** Characters that may not stand next to a key known by its end: a key's, or a name's (`tfstate-<hash>-us1`). */
const KEY_NEIGHBOUR = /[A-Za-z0-9_.+/=-]/;

/**
 * A token known by its end: thirty-two hex digits before Mailchimp's `-us<n>`, thirty-six before a
 * New Relic license key's `NRAL`, eighty characters holding Azure DevOps's `AZDO` at the 77th.
 * Found from that end and checked backwards, so that a long run of hex or letters is read once,
 * not once from each of its places.
 */
function keysEndingIn(text: string, mark: RegExp, before: number, body: RegExp, after: number): Found[] {
  const found: Found[] = [];
  mark.lastIndex = 0;
  for (let m = mark.exec(text); m; m = mark.exec(text)) {
    const start = m.index - before;
    const end = m.index + m[0].length + after;
    if (start < 0 || end > text.length || KEY_NEIGHBOUR.test(text[start - 1] ?? '') || KEY_NEIGHBOUR.test(text[end] ?? '')) continue;
    const random = text.slice(start, m.index) + text.slice(m.index + m[0].length, end);
    if (body.test(text.slice(start, end)) && !isMostlyOneCharacter(random) && !isWordy(random) && /\d/.test(random) && /[A-Za-z]/.test(random)) found.push({ start, end });
  }
  return found;
}

const NEW_RELIC_LICENSE_END = /NRAL(?![A-Za-z0-9])/g;
const NEW_RELIC_LICENSE = /^[0-9a-z]{36}NRAL$/;
function newRelicLicenseKeys(text: string): Found[] {
  return text.includes('NRAL') ? keysEndingIn(text, NEW_RELIC_LICENSE_END, 36, NEW_RELIC_LICENSE, 0) : [];
}

const MAILCHIMP_END = /-us\d{1,2}(?![A-Za-z0-9])/g;
const MAILCHIMP_KEY = /^[0-9a-f]{32}-us\d{1,2}$/;
function mailchimpKeys(text: string): Found[] {
  return text.includes('-us') ? keysEndingIn(text, MAILCHIMP_END, 32, MAILCHIMP_KEY, 0) : [];
}

const AZURE_DEVOPS_MARK = /AZDO/g;
const AZURE_DEVOPS_TOKEN = /^[A-Za-z0-9]{84}$/;
function azureDevOpsTokens(text: string): Found[] {
  return text.includes('AZDO') ? keysEndingIn(text, AZURE_DEVOPS_MARK, 76, AZURE_DEVOPS_TOKEN, 4) : [];
}

/**
 * A password said in prose or typed into a prompt, not a word about one. Prose names many things
 * after "the password is" (`SHA-256`, `UTF-8`, `str|None`, `std::string`, `bcrypt(cost=12)`,
 * `vault:secret/db`, `Ed25519`, `user@host`), so only a value that no name looks like is taken: six
 * characters or more, three kinds of small letters, capitals, digits and the signs `!@#$%^&*+?~`,
 * none of brackets, slashes, colons, commas, `|`, `=`, `.`, `-` or `_` (which join a name's parts),
 * not words (isWordy), nor a hex number or the name of a hash, cipher or encoding.
 */
function isSaidPassword(value: string): boolean {
  return isPasswordSaid(value, /[^A-Za-z0-9!@#$%^&*+?~]/);
}

/** The same in quotes, which mark where it ends: `.`, `-` and `_` may be in it (`'Qx7-mm9!'`). */
function isQuotedPasswordSaid(value: string): boolean {
  return isPasswordSaid(value, /[^A-Za-z0-9!@#$%^&*+?~._-]/);
}

function isPasswordSaid(value: string, otherCharacter: RegExp): boolean {
  if (value.length < 6 || otherCharacter.test(value) || !isLiteralPassword(value) || isWordy(value)) return false;
  if (/^0x[0-9a-f]+$/i.test(value) || /^(?:sha|md|aes|rsa|dsa|ecdsa|ed|utf|ucs|latin|iso|base|pbkdf|hmac|argon|bcrypt|scrypt|blake|crc|chacha|poly|curve|secp|tls|ssl)\d/i.test(value)) return false;
  return Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + Number(/\d/.test(value)) + Number(/[!@#$%^&*+?~]/.test(value)) >= 3;
}

/** A Discord token's first part is its bot's id, a number, in base64: nothing else of its shape decodes so. */
function isDiscordToken(token: string): boolean {
  return /^\d{17,20}$/.test(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('latin1'));
}

/** A password written in quotes where one is given: not its own name, a label, a mask or a placeholder. */
function isPasswordLiteral(value: string): boolean {
  return isSecretValue(value, { quoted: true, form: 'literal', name: 'password', after: '' });
}

function isLiteralPassword(password: string): boolean {
  return !REFERENCE.test(password) && !PLACEHOLDER.test(password);
}

/**
 * An Azure storage key (base64's, 88 characters) or client secret (`Abc8Q~…`) as a setting's value,
 * not code naming where it is (isAzureKeyReference).
 */
function isAzureStorageKey(value: string): boolean {
  return isLiteralPassword(value) && /[\d+/=~]/.test(value) && !isAzureKeyReference(value);
}

/**
 * Where an Azure key is kept rather than the key, as its setting's value in code: a variable or a
 * member (`storage_account_access_key`, `cfg.azure.key`), a file's path
 * (`/mnt/secrets/azure-storage-key`) or a URL holding no password (Key Vault's
 * `https://myvault.vault.azure.net/secrets/sp-secret`).
 */
function isAzureKeyReference(value: string): boolean {
  // A name of words (not an older client secret's pieces amid digits: `kX7_pL9mQ.wR2vT5nB8zY3c…`).
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(value) && /[_.]/.test(value) && CODE_SETTING_NAME.test(value)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+(?:[/?#][^\s@]*)?$/i.test(value)) return true;
  return /^(?:~|\.\.?)?\/(?:[\w.-]+\/)*[\w.-]+\/?$/.test(value) && !/[+=]/.test(value);
}

/**
 * A shell's redirection after a flag that asks for its password (`sqlcmd … -P < pw.txt`, `-w
 * 2>&1`): no password. (A port given to `mongosh -p` by mistake is redacted: digits are as often
 * a password, `ldapsearch -w 12345`.)
 */
function isRedirection(value: string): boolean {
  return /^(?:\d?[<>]|&|\|)/.test(value);
}

/** A command's password that is no word naming one (`zip -P password archive.zip`). */
function isCommandPassword(password: string): boolean {
  return isLiteralPassword(password) && !SECRET_WORDS.has(password.toLowerCase());
}

/** A URL's host and what may follow it: a dotted name (then : / ? # a space, a quote, ; , | or a bracket), a word (not then ; or ,), or an IPv6 address. */
const URL_HOST_END = String.raw`(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?=:\d|[/?#\s"'<>);,|]|$)|[A-Za-z0-9-]+(?=:\d|[/?#\s"'<>)|]|$)|\[[0-9A-Fa-f:.]+\](?=:\d|[/?#\s"'<>)|]|$))`;

/**
 * Prefixes distinctive enough to name a key even when the key is cut short (`ghp_AbC…`); the
 * shorter ones only at a word's start (`kotlin_api_generator…` holds `lin_api_`).
 */
const KEY_PREFIX = String.raw`(?:sk-ant-|sk-(?:proj|svcacct|admin)-|gh[pousr]_|github_pat_|xox[abposre]-|glpat-|(?:AKIA|ASIA)[A-Z0-9]|AIza|npm_|hf_|[sr]k_live_|GOCSPX-|ya29\.|(?<![A-Za-z0-9_-])(?:shp(?:at|ss|ca|pa)_|lin_api_|ntn_|lsv2_(?:pt|sk)_|pcsk_|nvapi-|sntry[su]_|ATATT|glsa_|PMAK-|sq0(?:atp|csp)-|sb_secret_|tskey-(?:auth|api|client)-|ops_eyJ|figd_|CFPAT-|xkeysib-|pscale_(?:tkn|pw)_|rubygems_|gl(?:rt|dt|ptt)-|NRAK-|tvly-|bkua_|CCIPAT_|dt0c01\.|rdme_|HRKU-))`;

/** The hints of SERVICE_KEY_RULES' shapes, as they are made: SERVICE_KEY_HINT looks for any of them at once. */
const serviceKeyHints: string[] = [];

/** A shape of SERVICE_KEY_RULES, its hint (a pattern, to be joined with the others') kept for SERVICE_KEY_HINT. */
function serviceShape(kind: string, pattern: RegExp, options: ShapeOptions & { hint: RegExp }): SecretRule {
  serviceKeyHints.push(options.hint.source);
  return shape(kind, pattern, options);
}

/**
 * Tokens of other services by the prefixes they are issued with, each of the length and alphabet
 * its service issues: Grafana, Postman, Square, Meta, Twilio, Mailchimp, Doppler, Pulumi,
 * Terraform Cloud, Supabase, Tailscale, 1Password, Netlify, Figma, Airtable, Contentful, Dropbox,
 * Brevo, Mapbox, PlanetScale, RubyGems, GitLab's other tokens, New Relic, E2B, Firecrawl, Tavily,
 * Resend, Neon, Sourcegraph, Buildkite, CircleCI, Alibaba Cloud, Dynatrace, Flutterwave, Prefect,
 * Typeform, ReadMe, Yandex Cloud, Adobe, Browserbase, Heroku, Fly.io, ElevenLabs, Bitbucket,
 * JFrog, Amazon Bedrock, Microsoft Entra, Cloudflare, Duffel, EasyPost, Frame.io, Infracost,
 * MaxMind, OpenShift, Scalingo, Shippo, Hugging Face's organisations, Harness, Azure DevOps,
 * ClickUp, Asana, SonarQube, Plaid, Braintree, Render, Together AI, Anyscale.
 * Where a key is found by its prefix alone, a documentation's stand-in (`glsa_xxxx…`) is none.
 */
const SERVICE_KEY_RULES: readonly SecretRule[] = [
  serviceShape('grafana-token', /(?<![A-Za-z0-9_])(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?![A-Za-z0-9])|glc_[A-Za-z0-9+/]{32,400}={0,3})/g, { hint: /glsa_|glc_/, accept: isIssuedToken }),
  // Grafana's older API key: base64 of `{"k":"…","n":"…","id":…}`, decoded to tell it from base64 of any JSON.
  serviceShape('grafana-token', /(?<![A-Za-z0-9+/])eyJrIjoi[A-Za-z0-9+/]{50,400}={0,3}/g, { hint: /eyJrIjoi/, accept: (token) => /^\{"k":"[A-Za-z0-9]{16,}","n":"/.test(decodedBase64(token)) }),
  serviceShape('postman-key', /PMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}(?![A-Za-z0-9])|PMAT-[0-9A-Z]{26}(?![A-Za-z0-9])/g, { hint: /PMA[KT]-/, accept: isIssuedToken }),
  serviceShape('square-token', /(?<![A-Za-z0-9_+/=-])(?:sq0atp-[A-Za-z0-9_-]{22,60}|sq0csp-[A-Za-z0-9_-]{40,50}|EAAA[A-Za-z0-9_-]{60}(?![A-Za-z0-9_+/=-]))/g, { hint: /sq0[ac][ts]p-|EAAA/, accept: isIssuedToken }),
  // Meta's tokens (`EAAG…`, `EAAB…`, `EAAC…`) are of letters and digits only: one standing inside
  // base64 (a font inlined in CSS holds `+EAAC…`) is none.
  serviceShape('meta-token', /(?<![A-Za-z0-9_+/=-])EAA[A-Za-z0-9]{100,}(?![A-Za-z0-9_+/=-])/g, { hint: /EAA/, accept: isIssuedToken }),
  serviceShape('twilio-key', /(?<![A-Za-z0-9+/=])SK[0-9a-f]{32}(?![A-Za-z0-9+/=])/g, { hint: /SK[0-9a-f]{32}/, accept: isIssuedToken }),
  { kind: 'mailchimp-key', find: mailchimpKeys },
  serviceShape('doppler-token', /(?<![A-Za-z0-9.])dp\.(?:pt|st|sa|said|ct|scim|audit)\.(?:[A-Za-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,}/g, { hint: /dp\.(?:pt|st|sa|said|ct|scim|audit)\./, accept: isIssuedToken }),
  serviceShape('pulumi-token', /(?<![A-Za-z0-9_-])pul-[a-f0-9]{40}(?![A-Za-z0-9])/g, { hint: /pul-/, accept: isIssuedToken }),
  serviceShape('terraform-token', /(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}/g, { hint: /\.atlasv1\./, accept: isIssuedToken }),
  serviceShape('supabase-key', /(?<![A-Za-z0-9_])(?:sbp_[a-f0-9]{40}(?![A-Za-z0-9])|sb_secret_[A-Za-z0-9_-]{20,})/g, { hint: /sbp_|sb_secret_/, accept: isIssuedToken }),
  serviceShape('tailscale-key', /(?<![A-Za-z0-9_-])tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}/g, { hint: /tskey-/, accept: isIssuedToken }),
  serviceShape('1password-token', /(?<![A-Za-z0-9_])ops_eyJ[A-Za-z0-9+/]{100,}={0,3}|(?<![A-Za-z0-9-])A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}(?![A-Za-z0-9])/g, { hint: /ops_eyJ|A3-/, accept: isIssuedToken }),
  serviceShape('netlify-token', /(?<![A-Za-z0-9_])nfp_[A-Za-z0-9]{36,40}(?![A-Za-z0-9])/g, { hint: /nfp_/, accept: isIssuedToken }),
  serviceShape('figma-token', /(?<![A-Za-z0-9_])figd_[A-Za-z0-9_-]{40,}/g, { hint: /figd_/, accept: isIssuedToken }),
  serviceShape('airtable-token', /(?<![A-Za-z0-9])pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![A-Za-z0-9])/g, { hint: /pat[A-Za-z0-9]{14}\./, accept: isIssuedToken }),
  serviceShape('contentful-token', /CFPAT-[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, { hint: /CFPAT-/, accept: isIssuedToken }),
  serviceShape('dropbox-token', /(?<![A-Za-z0-9_.])sl\.(?:u\.)?[A-Za-z0-9_-]{130,}/g, { hint: /sl\.[A-Za-z0-9_-]{20}/, accept: isIssuedToken }),
  serviceShape('brevo-key', /x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}(?![A-Za-z0-9])/g, { hint: /x(?:keysib|smtpsib)-/, accept: isIssuedToken }),
  serviceShape('mapbox-token', /(?<![A-Za-z0-9_])[st]k\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}/g, { hint: /k\.eyJ/, accept: isIssuedToken }),
  serviceShape('planetscale-token', /pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{32,64}/g, { hint: /pscale_/, accept: isIssuedToken }),
  serviceShape('rubygems-key', /rubygems_[a-f0-9]{48}(?![A-Za-z0-9])/g, { hint: /rubygems_/, accept: isIssuedToken }),
  // GitLab's other tokens, with the routing part a newer one ends in (`….01.121flyh6j`).
  serviceShape('gitlab-token', /(?<![A-Za-z0-9_])(?:gl(?:rtr?|dt|ft|soat|ffct|imt|agent|oas|ptt|cbt|wt)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,})(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9}(?![A-Za-z0-9]))?/g, { hint: /gl[a-z]{1,5}-|GR1348941/, accept: isIssuedToken }),
  serviceShape('newrelic-key', /(?<![A-Za-z0-9])NR(?:AK|AA|II|IQ)-[A-Za-z0-9-]{27,32}(?![A-Za-z0-9-])/g, { hint: /NR(?:AK|AA|II|IQ)-/, accept: isIssuedToken }),
  { kind: 'newrelic-key', find: newRelicLicenseKeys },
  serviceShape('e2b-key', /(?<![A-Za-z0-9_])e2b_[a-f0-9]{40}(?![A-Za-z0-9])/g, { hint: /e2b_/, accept: isIssuedToken }),
  serviceShape('firecrawl-key', /(?<![A-Za-z0-9_-])fc-[a-f0-9]{32}(?![A-Za-z0-9])/g, { hint: /fc-[a-f0-9]{32}/, accept: isIssuedToken }),
  serviceShape('tavily-key', /(?<![A-Za-z0-9_-])tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}(?![A-Za-z0-9])/g, { hint: /tvly-/, accept: isIssuedToken }),
  serviceShape('resend-key', /(?<![A-Za-z0-9_])re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}(?![A-Za-z0-9_])/g, { hint: /re_[A-Za-z0-9]{8}_/, accept: isIssuedToken }),
  serviceShape('neon-key', /(?<![A-Za-z0-9_])napi_[a-z0-9]{64}(?![A-Za-z0-9])/g, { hint: /napi_/, accept: isIssuedSmallToken }),
  serviceShape('sourcegraph-token', /(?<![A-Za-z0-9_])sgp_(?:[a-f0-9]{16}_|local_)?[a-f0-9]{40}(?![A-Za-z0-9])/g, { hint: /sgp_/, accept: isIssuedToken }),
  serviceShape('buildkite-token', /(?<![A-Za-z0-9_])bkua_[a-f0-9]{40}(?![A-Za-z0-9])/g, { hint: /bkua_/, accept: isIssuedToken }),
  serviceShape('circleci-token', /CCIP(?:AT|RJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}(?![A-Za-z0-9])/g, { hint: /CCIP/, accept: isIssuedToken }),
  serviceShape('alibaba-key', /(?<![A-Za-z0-9+/=])LTAI[A-Za-z0-9]{12,20}(?![A-Za-z0-9+/=])/g, { hint: /LTAI/, accept: isIssuedToken }),
  serviceShape('dynatrace-token', /dt0[a-z]\d{2}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}(?![A-Za-z0-9])/g, { hint: /dt0[a-z]\d{2}\./, accept: isIssuedToken }),
  serviceShape('flutterwave-key', /FLWSECK(?:_TEST)?-[A-Za-z0-9]{12,32}(?:-X)?(?![A-Za-z0-9])/g, { hint: /FLWSECK/, accept: isIssuedToken }),
  serviceShape('prefect-key', /(?<![A-Za-z0-9_])pnu_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, { hint: /pnu_/, accept: isIssuedToken }),
  serviceShape('typeform-token', /(?<![A-Za-z0-9_])tfp_[A-Za-z0-9_.=-]{40,80}/g, { hint: /tfp_/, accept: isIssuedToken }),
  serviceShape('readme-key', /(?<![A-Za-z0-9_])rdme_[a-z0-9]{70}(?![A-Za-z0-9])/g, { hint: /rdme_/, accept: isIssuedSmallToken }),
  serviceShape('yandex-key', /(?<![A-Za-z0-9+/=])AQVN[A-Za-z0-9_-]{35,38}(?![A-Za-z0-9_+/=-])/g, { hint: /AQVN/, accept: isIssuedToken }),
  serviceShape('adobe-secret', /(?<![A-Za-z0-9_-])p8e-[A-Za-z0-9]{32}(?![A-Za-z0-9])/g, { hint: /p8e-/, accept: isIssuedToken }),
  serviceShape('browserbase-key', /bb_live_[A-Za-z0-9_-]{20,}/g, { hint: /bb_live_/, accept: isIssuedToken }),
  serviceShape('heroku-key', /HRKU-[A-Za-z0-9_-]{58,}/g, { hint: /HRKU-/, accept: isIssuedToken }),
  serviceShape('fly-token', /(?<![A-Za-z0-9_])(?:fm[12][ar]?_[A-Za-z0-9+/]{40,}={0,3}|fo1_[A-Za-z0-9_-]{43})/g, { hint: /fm[12][ar]?_|fo1_/, accept: isIssuedToken }),
  serviceShape('elevenlabs-key', /(?<![A-Za-z0-9_])sk_[a-f0-9]{48}(?![A-Za-z0-9])/g, { hint: /sk_[a-f0-9]{48}/, accept: isIssuedToken }),
  serviceShape('bitbucket-token', /(?<![A-Za-z0-9+/=])ATBB[A-Za-z0-9_=.-]{28,}(?![+/])/g, { hint: /ATBB/, accept: isIssuedToken }),
  serviceShape('jfrog-key', /(?<![A-Za-z0-9+/=])(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})(?![A-Za-z0-9+/=])/g, { hint: /AKCp|cmVmd/, accept: isIssuedToken }),
  serviceShape('bedrock-key', /(?<![A-Za-z0-9+/])ABSK[A-Za-z0-9+/]{100,}={0,2}|bedrock-api-key-[A-Za-z0-9+/=%]{40,}/g, { hint: /ABSK|bedrock-api-key-/, accept: isIssuedToken }),
  serviceShape('azure-client-secret', /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, { hint: /\dQ~/, accept: isIssuedToken }),
  serviceShape('cloudflare-key', /v1\.0-[a-f0-9]{24}-[a-f0-9]{146}(?![A-Za-z0-9])/g, { hint: /v1\.0-/, accept: isIssuedToken }),
  // A Cloudflare tunnel's token: base64 of `{"a":"<account>","t":"<tunnel>","s":"<secret>"}`.
  serviceShape('cloudflare-token', /(?<![A-Za-z0-9+/])eyJhIjoi[A-Za-z0-9+/]{80,}={0,2}/g, { hint: /eyJhIjoi/, accept: (token) => /^\{"a":"[0-9a-f]{32}","t":"[0-9a-f-]{36}","s":"/.test(decodedBase64(token)) }),
  serviceShape('duffel-token', /duffel_(?:test|live)_[A-Za-z0-9_=-]{43}/g, { hint: /duffel_/, accept: isIssuedToken }),
  serviceShape('easypost-key', /(?<![A-Za-z0-9+/=])EZ[AT]K[A-Za-z0-9]{54}(?![A-Za-z0-9+/=])/g, { hint: /EZ[AT]K/, accept: isIssuedToken }),
  serviceShape('frameio-token', /fio-u-[A-Za-z0-9_=-]{64}/g, { hint: /fio-u-/, accept: isIssuedToken }),
  serviceShape('infracost-key', /(?<![A-Za-z0-9_-])ico-[A-Za-z0-9]{32}(?![A-Za-z0-9])/g, { hint: /ico-/, accept: isMixedCaseToken }),
  serviceShape('maxmind-key', /(?<![A-Za-z0-9])[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk(?![A-Za-z0-9])/g, { hint: /_mmk/, accept: isIssuedToken }),
  serviceShape('openshift-token', /(?<![A-Za-z0-9_-])sha256~[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, { hint: /sha256~/, accept: isIssuedToken }),
  serviceShape('scalingo-token', /tk-us-[A-Za-z0-9_-]{48}(?![A-Za-z0-9_-])/g, { hint: /tk-us-/, accept: isIssuedToken }),
  serviceShape('shippo-token', /shippo_(?:live|test)_[a-fA-F0-9]{40}(?![A-Za-z0-9])/g, { hint: /shippo_/, accept: isIssuedToken }),
  serviceShape('huggingface-token', /(?<![A-Za-z0-9_])api_org_[A-Za-z]{34}(?![A-Za-z0-9])/g, { hint: /api_org_/, accept: (token) => /[a-z]/.test(token.slice(8)) && /[A-Z]/.test(token.slice(8)) && !isMostlyOneCharacter(token.slice(8)) }),
  serviceShape('harness-token', /(?<![A-Za-z0-9_])[ps]at\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}(?![A-Za-z0-9])/g, { hint: /[ps]at\.[A-Za-z0-9_-]{22}\./, accept: isIssuedToken }),
  { kind: 'azure-devops-token', find: azureDevOpsTokens },
  serviceShape('clickup-token', /(?<![A-Za-z0-9_])pk_\d{5,12}_[A-Z0-9]{32}(?![A-Za-z0-9])/g, { hint: /pk_\d/, accept: isIssuedToken }),
  serviceShape('asana-token', /(?<![\w/])[12]\/\d{10,20}(?:\/\d{10,20})?:[0-9a-f]{32}(?![A-Za-z0-9])/g, { hint: /\d\/\d{10}/, accept: (token) => isIssuedToken(token.slice(token.indexOf(':') + 1)) }),
  serviceShape('sonarqube-token', /(?<![A-Za-z0-9_])sq[upa]_[a-f0-9]{40}(?![A-Za-z0-9])/g, { hint: /sq[upa]_/, accept: isIssuedToken }),
  serviceShape('plaid-token', /access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![A-Za-z0-9])/g, { hint: /access-(?:sandbox|development|production)-/, accept: isIssuedToken }),
  serviceShape('braintree-token', /access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}(?![A-Za-z0-9])/g, { hint: /access_token\$/ }),
  serviceShape('render-key', /(?<![A-Za-z0-9_])rnd_[A-Za-z0-9]{32}(?![A-Za-z0-9])/g, { hint: /rnd_/, accept: isMixedCaseToken }),
  serviceShape('together-key', /tgp_v1_[A-Za-z0-9_-]{40,}/g, { hint: /tgp_v1_/, accept: isIssuedToken }),
  serviceShape('anyscale-key', /(?<![A-Za-z0-9_])esecret_[A-Za-z0-9]{20,}/g, { hint: /esecret_/, accept: isIssuedToken }),
];

/**
 * What a text holds before any of SERVICE_KEY_RULES can find a key in it: any of their hints (the
 * shapes' own, gathered as they are made, and the marks of keys known by their end). Most texts
 * hold none, and one look for all costs less than a look for each.
 */
const SERVICE_KEY_HINT = new RegExp([...serviceKeyHints, '-us\\d', 'NRAL', 'AZDO'].join('|'));

/** Keys found by SERVICE_KEY_RULES, each named by its service's kind. */
function serviceKeys(text: string): Found[] {
  if (!SERVICE_KEY_HINT.test(text)) return [];
  return SERVICE_KEY_RULES.flatMap((rule) => rule.find(text).map((found) => ({ ...found, kind: found.kind ?? rule.kind })));
}

/** A key's prefix where a match starts (KEY_PREFIX), to read what follows it. */
const KEY_PREFIX_AT = new RegExp(String.raw`^${KEY_PREFIX}`);
/** Words joined by `_`, `-` or `.`, each maybe in camelCase or ending in digits (`plugin_manager2`, `registerMap`), or a number. */
const WORD_CHAIN = /^(?:[A-Z]?[a-z]{2,}(?:[A-Z][a-z]{2,})*\d*|[a-z]?\d+)(?:[_.-](?:[A-Z]?[a-z]{2,}(?:[A-Z][a-z]{2,})*\d*|[a-z]?\d+))*$/;

/**
 * A key cut short by a preview (`ghp_AbC…`), or at a text's end: what follows its prefix is not a
 * name (`rubygems_integration`, `hf_transfer_enabled`, `gem install rubygems_plugin_manager`) nor a
 * stand-in (`ghp_xxxx…`). A token of JSON cut short has no such prefix and is taken.
 */
function isKeyCutShort(token: string): boolean {
  const prefix = KEY_PREFIX_AT.exec(token)?.[0];
  if (prefix === undefined) return true;
  const rest = token.slice(prefix.length);
  return !WORD_CHAIN.test(rest) && !isMostlyOneCharacter(rest);
}

export const SECRET_RULES: readonly SecretRule[] = [
  // Private keys, whole blocks; a block cut off by truncated output is redacted to its end.
  shape('private-key', /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g, { hint: 'PRIVATE KEY' }),
  { kind: 'private-key', find: pemBodies },
  // Keys written whole in other forms: OpenVPN's static key, and the private lines of PuTTY's key
  // file (lines of base64, each line's end required, so that no run is read two ways); a private key
  // given in hex right after its name (`private key: 0x…`, `privateKey = "…"`; a transaction's hash
  // in the next sentence is no secret).
  shape('private-key', /-----BEGIN OpenVPN Static key V1-----[\s\S]*?(?:-----END OpenVPN Static key V1-----|$)/g, { hint: 'OpenVPN Static key' }),
  shape('private-key', /\bPrivate-Lines:[ \t]*\d{1,3}\r?\n([A-Za-z0-9+/=]+(?:\r?\n[A-Za-z0-9+/=]+)*)(?=\r?\n|$)/g, { group: 1, hint: 'Private-Lines:' }),
  shape('private-key', /\bprivate[ _-]?key["'`]?[ \t]*(?:(?:is|was|=|:|of)[ \t]*)?(?:(?:is|was)[ \t]*:?[ \t]*)?["'`]?((?:0x)?[0-9a-fA-F]{64})(?![0-9A-Za-z])/gi, { group: 1, hint: /private[ _-]?key/i, accept: isIssuedToken }),
  // A password said in prose: "the password is Hx7!…", `the password "…"`, "set the password to
  // '…'"; and what an expect script sends after a prompt for a password. Both only of a value that
  // looks like none of the names prose gives there (isSaidPassword).
  shape('prose-password', /\b(?:password|passphrase|passcode)[ \t]+(?:is|was)[ \t]*:?[ \t]+(?:(["'`])((?!\[REDACTED:)[^\s"'`<>]{4,128})\1|((?!\[REDACTED:)[^\s"'`<>]{3,127}[^\s"'`<>.,;:!?)]))(?=[.,;:!?)]*(?:\s|$))/gi, { group: 2, hint: /pass/i, accept: isQuotedPasswordSaid }),
  shape('prose-password', /\b(?:password|passphrase|passcode)[ \t]+(?:is|was)[ \t]*:?[ \t]+(?:(["'`])((?!\[REDACTED:)[^\s"'`<>]{4,128})\1|((?!\[REDACTED:)[^\s"'`<>]{3,127}[^\s"'`<>.,;:!?)]))(?=[.,;:!?)]*(?:\s|$))/gi, { group: 3, hint: /pass/i, accept: isSaidPassword }),
  shape('prose-password', /\b(?:the|a|new|my|your|its|(?:set|change|reset)[ \t]+(?:the|a|my|your|its)?[ \t]*)[ \t]*(?:password|passphrase)[ \t]+(?:(?:to|of|as)[ \t]+)?(["'`])((?!\[REDACTED:)[^\s"'`]{4,128})\1/gi, { group: 2, hint: /pass/i, accept: isQuotedPasswordSaid }),
  shape('prose-password', /\bexpect[ \t]+[^\n]{0,60}?assword[^\n]{0,60}?(?:\r?\n[ \t]*|[ \t]*\{[ \t]*)send[ \t]+(?:--[ \t]+)?"((?!\[REDACTED:)(?:[^"\\\r\n]|\\[^rn]){1,200}?)(?:\\r|\\n|\r)?"/g, { group: 1, hint: 'assword', accept: isSaidPassword }),
  // Password hashes in crypt's forms (/etc/shadow, .htpasswd, a users table; bcrypt, yescrypt,
  // argon2, Django's PBKDF2): what a password is cracked from, offline.
  shape('password-hash', /\$(?:2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}|(?:1|5|6|apr1|md5|sha1)\$(?:rounds=\d{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{20,86}|y\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{1,86}\$[./A-Za-z0-9]{43}|argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,})(?![./A-Za-z0-9])|\bpbkdf2_sha(?:256|1)\$\d{4,7}\$[A-Za-z0-9]{1,64}\$[A-Za-z0-9+/]{40,}={0,2}/g, { hint: /\$(?:2[abxy]|1|5|6|apr1|md5|sha1|y|argon2(?:id|i|d))\$|pbkdf2_sha/ }),
  // Passlib's and Werkzeug's forms (Flask's `scrypt:32768:8:1$…`), Django's other hashers, LDAP's
  // `{SSHA}…` and MySQL's `*2470C0…`.
  shape('password-hash', /\$(?:pbkdf2(?:-sha(?:256|512|1))?|scrypt|bcrypt-sha256|7|gy)\$[^\s$:"']{1,200}(?:\$[^\s$:"']{1,200}){0,2}\$[./A-Za-z0-9+=]{16,}(?![./A-Za-z0-9+=])|\b(?:scrypt:\d{1,7}:\d{1,3}:\d{1,3}|pbkdf2:sha(?:256|512|1):\d{1,7})\$[^\s$"']{1,100}\$[0-9a-f]{40,}(?![0-9a-f])|\b(?:argon2\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+|sha1|md5)\$[^\s$"']{1,100}\$[0-9a-f+/A-Za-z]{32,}={0,2}(?![A-Za-z0-9+/=])|\{(?:SSHA|SHA|SSHA256|SSHA512|SHA256|SHA512|SMD5|MD5)\}[A-Za-z0-9+/]{20,}={0,2}|(?<![\w*])\*[0-9A-F]{40}(?![0-9A-Za-z])/g, { hint: /\$(?:pbkdf2(?:-sha\d+)?|scrypt|bcrypt-sha256|7|gy)\$|scrypt:|pbkdf2:|argon2\$|sha1\$|md5\$|\{S?(?:SHA|MD5)|\*[0-9A-F]{40}/ }),
  // A wallet's seed phrase after its name: 12, 15, 18, 21 or 24 words of small letters, in quotes
  // (an assembler's mnemonic is one word; a sentence after `seed:` is no phrase in quotes).
  shape('seed-phrase', /\b(?:mnemonic|MNEMONIC|Mnemonic|(?:seed|SEED|Seed|recovery|RECOVERY|Recovery)[_ -]?(?:phrase|PHRASE|Phrase|words|WORDS|Words))["']?[ \t]*[:=][ \t]*(["'`])((?:[a-z]{3,8} ){11}(?:(?:[a-z]{3,8} ){3}){0,4}[a-z]{3,8})\1/g, { group: 2, hint: /mnemonic|seed|recovery/i }),
  // Issued keys. Distinctive prefixes need no word boundary: a key glued to a word is still a key.
  shape('anthropic-key', /sk-ant-[A-Za-z0-9_-]{16,}/g),
  shape('openrouter-key', /sk-or-v1-[A-Za-z0-9]{32,}/g),
  shape('openai-key', /sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|\bsk-[A-Za-z0-9_-]{20,}/g, { hint: 'sk-' }),
  shape('stripe-key', /(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|\bpk_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{20,}/g),
  shape('github-token', /gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}/g),
  shape('slack-token', /xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g),
  shape('gitlab-token', /glpat-[A-Za-z0-9_-]{20,}/g),
  shape('sendgrid-key', /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g),
  shape('google-oauth', /ya29\.[A-Za-z0-9_-]{20,}|GOCSPX-[A-Za-z0-9_-]{20,}/g),
  shape('digitalocean-token', /do[pro]_v1_[a-f0-9]{64}(?![a-f0-9])/g),
  shape('aws-access-key', /(?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[A-Z0-9]{16}(?![A-Z0-9])/g),
  // `aws configure set aws_secret_access_key …` takes it after a space.
  shape('aws-secret-key', /(?<![A-Za-z0-9])((?:aws_?)?secret_?access_?key)(["']?[ \t]*[=:][ \t]*["']?|[ \t]+)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi, { group: 3, hint: /access_?key/i }),
  // Written in prose: forty characters of base64's in both cases and digits (an AWS secret key's
  // shape; a git hash is hex), not words, a few words after an access key id (on its line or the
  // next), "key" or "secret", or before "secret", "access key" or "AWS".
  { kind: 'aws-secret-key', find: awsSecretsInProse },
  shape('google-api-key', /AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g),
  shape('npm-token', /npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g),
  shape('huggingface-token', /(?<![A-Za-z])hf_[A-Za-z0-9]{30,}/g, { hint: 'hf_' }),
  // Keys of other services by the prefixes they are issued with (Shopify, Linear, Notion,
  // LangSmith, Pinecone, NVIDIA, Sentry, Mailgun, Atlassian; an age identity is a private key):
  // before a key cut short, whose prefixes they are too, so that a whole one is named as it is.
  shape('shopify-token', /(?<![A-Za-z0-9])shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}(?![A-Za-z0-9])/g, { hint: 'shp' }),
  shape('linear-key', /(?<![A-Za-z0-9])lin_(?:api|oauth)_[A-Za-z0-9]{32,}/g, { hint: 'lin_' }),
  shape('notion-token', /(?<![A-Za-z0-9])ntn_[A-Za-z0-9]{40,}|(?<![A-Za-z0-9_])secret_[A-Za-z0-9]{43}(?![A-Za-z0-9_])/g, { hint: /ntn_|secret_/, accept: (token) => /\d/.test(token) && /[A-Z]/.test(token) && looksRandom(token.slice(token.indexOf('_') + 1)) }),
  shape('langsmith-key', /(?<![A-Za-z0-9])lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}(?![A-Za-z0-9])/g, { hint: 'lsv2_' }),
  shape('pinecone-key', /(?<![A-Za-z0-9])pcsk_[A-Za-z0-9]{4,12}_[A-Za-z0-9]{40,}/g, { hint: 'pcsk_' }),
  shape('nvidia-key', /(?<![A-Za-z0-9])nvapi-[A-Za-z0-9_-]{40,}/g, { hint: 'nvapi-' }),
  shape('sentry-token', /(?<![A-Za-z0-9])sntry[su]_[A-Za-z0-9+/=_-]{40,}/g, { hint: 'sntr' }),
  shape('mailgun-key', /(?<![A-Za-z0-9-])key-[0-9a-f]{32}(?![A-Za-z0-9])/g, { hint: 'key-' }),
  shape('atlassian-token', /(?<![A-Za-z0-9])ATATT[A-Za-z0-9_=-]{50,}/g, { hint: 'ATATT' }),
  shape('private-key', /AGE-SECRET-KEY-1[A-Z0-9]{50,70}/g, { hint: 'AGE-SECRET-KEY-' }),
  // Tokens of other services by the prefixes they are issued with (SERVICE_KEY_RULES): also
  // before a key cut short.
  { kind: 'service-key', find: serviceKeys },
  // The header part is bounded so that a megabyte of "eyJ" fails fast at every start.
  shape('jwt', /eyJ[A-Za-z0-9_-]{8,300}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, { hint: '.eyJ' }),
  // A key cut short by a preview or an ellipsis: the part shown is still the start of a real key.
  shape('partial-key', new RegExp(String.raw`${KEY_PREFIX}[A-Za-z0-9_-]{8,200}(?=…|\.\.\.|$)|eyJ[A-Za-z0-9_-]{8,300}\.eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*)?(?=…|\.\.\.|$)`, 'g'), { hint: (text) => text.includes('…') || text.includes('...') || /[\w-]$/.test(text), accept: isKeyCutShort }),
  // Azure storage and service bus connection strings, and the signature of a SAS URL.
  shape('azure-key', /(?<![A-Za-z])(?:AccountKey|SharedAccessKey|SharedAccessSignature|SharedSecret)=([^;"'\s<>]{8,})/gi, { group: 1, hint: /AccountKey|SharedAccess|SharedSecret/i }),
  shape('sas-signature', /[?&;]sig=([^&\s"'<>#;]{8,})/g, { group: 1, hint: 'sig=' }),
  // S3's and Cloud Storage's signed URLs: their signature, and S3's session token beside it.
  shape('sas-signature', /[?&;](?:X-Amz-Signature|X-Goog-Signature|X-Amz-Security-Token)=([^&\s"'<>#;{}$]{8,})/gi, { group: 1, hint: /X-(?:Amz|Goog)-/i }),
  // And their older form (S3's and Cloud Storage's V2, CloudFront's): `?…&Expires=…&Signature=…`.
  shape('sas-signature', /[?&](?:Expires=\d+&(?:[\w-]+=[^&\s]*&){0,3}Signature|Signature)=([A-Za-z0-9%+/=_~-]{16,})(?![A-Za-z0-9%+/=_~-])/g, { group: 1, hint: /[?&]Signature=/, accept: (value) => /[\d%]/.test(value) && !/signature|example/i.test(value) && isLiteralPassword(value) }),
  // A password given to its setter or a builder as a literal (`ds.setPassword("…")`,
  // `.password("…")`, `user.set_password("…")`); a variable or a call there names it.
  shape('assignment', /(?:\b(?:set|with|Set|With)_?(?:[Pp]assword|[Pp]assphrase)|(?<!:)\.(?:password|passphrase))[ \t]*\([ \t]*(["'])((?!\[REDACTED:)[^"'\s]{1,200})\1[ \t]*[,)]/g, { group: 2, hint: /password|passphrase/i, accept: isPasswordLiteral }),
  // A pass phrase given to the setter (`user.set_password("correct horse battery staple")`), not
  // a message about one (`setPassword("Enter your password")`).
  shape('assignment', /\b(?:set|with|Set|With)_?(?:[Pp]assword|[Pp]assphrase)[ \t]*\([ \t]*(["'])((?!\[REDACTED:)(?=[^"'\n]{0,200}?[ \t])[^"'\n]{1,200})\1[ \t]*\)/g, { group: 2, hint: /password|passphrase/i, accept: (value) => isPasswordLiteral(value) && !PASSWORD_MESSAGE.test(value) && !/[•●*]{2}|%[sdr]|\{\d*\}/.test(value) }),
  // Of a noun's password (`setKeyStorePassword`, `setSshPassword`, `set_db_password`), one of a
  // password's shape: a UI's state is set so too (`setShowPassword("visible")`).
  shape('assignment', /\b(?:(?:set|with|Set|With)(?:[A-Z][a-z]+|[A-Z]{2,5}){1,3}(?:Password|Passphrase)|set_(?:[a-z]+_){1,3}(?:password|passphrase))[ \t]*\([ \t]*(["'])((?!\[REDACTED:)[^"'\s]{1,200})\1[ \t]*[,)]/g, { group: 2, hint: /Password|Passphrase|_password|_passphrase/, accept: (value) => isPasswordLiteral(value) && isWordNamedSecret(value) }),
  // Django's users: `User.objects.create_user("ana", "ana@x.com", "…")`, `create_superuser(…)`, the third given.
  // Called bare (a helper of the same name may take a role third), a password's shape only.
  shape('assignment', /(?<![\w.])create_(?:super)?user\([ \t]*(?:(["'])[^"'\n]{0,200}\1[ \t]*,[ \t]*){2}(["'])((?!\[REDACTED:)[^"'\n]{1,200})\2/g, { group: 3, hint: 'create_', accept: (value) => isPasswordLiteral(value) && isWordNamedSecret(value) && (/[^A-Za-z0-9]/.test(value) || /\d[A-Za-z]/.test(value)) }),
  shape('assignment', /\.create_(?:super)?user\([ \t]*(?:(["'])[^"'\n]{0,200}\1[ \t]*,[ \t]*){2}(["'])((?!\[REDACTED:)[^"'\n]{1,200})\2/g, { group: 3, hint: 'create_', accept: isPasswordLiteral }),
  // Gradle's signing configs as Groovy writes them (`storePassword "…"`, `keyPassword '…'`), and a
  // Wi-Fi passphrase in wpa_supplicant.conf (`psk="…"`).
  shape('assignment', /\b(?:storePassword|keyPassword)[ \t]+(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1/g, { group: 2, hint: 'Password', accept: isPasswordLiteral }),
  shape('assignment', /(?:^|\n)[ \t]*(?:#[ \t]*)?psk[ \t]*=[ \t]*(?:"((?!\[REDACTED:)[^"\n]{8,63})"|([0-9a-fA-F]{64})(?![\w]))/g, { group: [1, 2], hint: 'psk', accept: isPasswordLiteral }),
  // Hadoop's and Spark's setting of an Azure storage key (in XML: xmlValues): `name value` in
  // spark-defaults.conf, `name=value`, `spark.conf.set("name", "value")`. Its value is long and no
  // word, of a key's characters to where a value ends: a call (`dbutils.secrets.get(…)`) is code.
  // It ends where a code span or emphasis ends too (`` `name=key` ``, `**name=key**`), or a pipe's
  // or a query's next part (a review: a key in a reply's code span was kept).
  shape('azure-key', new RegExp(String.raw`(?<![\w.-])${AZURE_STORAGE_NAME_IN_CODE}(["'\x60]?)(?:[ \t]*[=:,]\s{0,100}|[ \t]+)(["']?)((?!\[REDACTED:)[\w+/=~.-]{16,2000})(?=["'\s<>,;)}\]\x60*|&:]|$)`, 'g'), { group: 3, hint: 'fs.azure.account.', accept: isAzureStorageKey }),
  // Quoted, to its own quote whatever it holds: Azure AD's older client secrets hold `@ : ? [ ] *`;
  // a reference (a path, a variable's name, a vault's URL) stays, as the unquoted rule keeps it.
  shape('azure-key', new RegExp(String.raw`(?<![\w.-])${AZURE_STORAGE_NAME_IN_CODE}(["'\x60]?)(?:[ \t]*[=:,]\s{0,100}|[ \t]+)(["'])((?!\[REDACTED:)[^"'\s]{16,2000})\2`, 'g'), { group: 3, hint: 'fs.azure.account.', accept: (value) => isLiteralPassword(value) && !isAzureKeyReference(value) }),
  // The keys `az storage account keys list` prints: each one's name (`key1`, `key2`, `kerb1`),
  // then its value a few fields on, as JSON, YAML or TSV (which names nothing but the key's name
  // and its permissions before it).
  shape('azure-key', new RegExp(String.raw`["']?keyName["']?[ \t]*:[ \t]*["']?(?:key|kerb)\d["']?${FIELD_END}(?:["']?\w{1,40}["']?[ \t]*:[ \t]*(?:"[^"\n]{0,100}"|'[^'\n]{0,100}'|[^\s"',:]{1,100})${FIELD_END}){0,3}["']?value["']?[ \t]*:[ \t]*["']?((?!\[REDACTED:)[A-Za-z0-9+/]{40,200}={0,2})(?![\w+/=])`, 'g'), { group: 1, hint: 'keyName', accept: isVariedKey }),
  shape('azure-key', /\b(?:key|kerb)\d\t(?:FULL|READ|Full|Read)\t([A-Za-z0-9+/]{40,200}={0,2})(?![\w+/=])/g, { group: 1, hint: '\t', accept: isVariedKey }),
  // The two keys of an Azure AI (OpenAI, Cognitive Services) resource as `az cognitiveservices
  // account keys list` prints them: `"key1": "…", "key2": "…"`, 32 hex digits (84 letters and
  // digits, newer), each beside the other.
  shape('azure-key', /["']?key[12]["']?[ \t]*:[ \t]*["']?([0-9a-fA-F]{32}|[A-Za-z0-9]{84})(?![\w+/=])/g, { group: 1, hint: 'key2', place: isBesideOtherAzureKey, accept: isVariedKey }),
  // scheme://user:password@host (the user may be empty, the password may hold a /): the password
  // goes, the rest stays readable. A number before / is a port, not a password. The scheme may
  // follow a sign (a diff's `-postgres://…`), never a letter or digit (the middle of a word).
  // A password may hold an @ unencoded: it ends at the first @ a host follows (a dotted name, one
  // word or an IPv6 address, then a port or where an address ends; a dotted name at ; or , too,
  // as in `…@db.internal;Contact=ops@corp.com`), not at the first @, which left the rest of it.
  shape('url-password', new RegExp(String.raw`(?<![a-z0-9])[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@"'<>]{0,200}:(?!\d{1,5}(?:[/?#]|$))((?:[^\s"'<>/?#@]|@(?!${URL_HOST_END})){1,200}(?=@${URL_HOST_END})|[^\s@"'<>]{1,200}(?=@))@`, 'gi'), { group: 1, hint: '://' }),
  // scheme://token@host: a user name that is a random string is a token.
  shape('url-password', /(?<![a-z0-9])[a-z][a-z0-9+.-]{0,30}:\/\/([A-Za-z0-9_-]{24,200})@/gi, { group: 1, hint: '://', accept: (user) => /\d/.test(user) && /[A-Za-z]/.test(user) }),
  // .npmrc: //registry/:_authToken=…, _auth=…, _password=…
  shape('npm-token', /(?::_authToken|:_auth|:_password|^_authToken|^_auth|^_password)[ \t]*=[ \t]*(\S+)/gm, { group: 1, hint: /_auth|_password/ }),
  // HTTP's scheme names are case-insensitive: `authorization: bearer …` is as common.
  shape('bearer-token', /\bBearer[ \t]+((?!\[REDACTED:)[A-Za-z0-9._~+/=-]{8,})/gi, { group: 1, hint: /bearer/i, accept: (token) => isCredential(token) && !ENV_NAME.test(token) }),
  shape('basic-auth', /\bAuthorization["']?[ \t]*[:=][ \t]*["']?Basic[ \t]+([A-Za-z0-9+/=]{8,})/gi, { group: 1, hint: /authorization/i }),
  shape('auth-header', /\bAuthorization["']?[ \t]*[:=][ \t]*["']?(?:Token|Bot|Digest|ApiKey|Api-Key|SSWS|OAuth|JWT|Key)[ \t]+((?!\[REDACTED:)[^\s"'<>]{6,})/gi, { group: 1, hint: /authorization/i, accept: (token) => isCredential(token) && !REFERENCE.test(token) }),
  // A service's own scheme (Opsgenie's `GenieKey`, Splunk's `Splunk`, `Zoho-oauthtoken`): a
  // credential of 16 characters or more that looks issued, of a token's characters to where a
  // token ends (a code span's backtick, a JSON string's escape, a comma stay); not a word after a
  // header's name in prose, a path, a time, parameters (`id=…, ts=…`), nor the schemes whose value
  // is a signature or a protocol's message, no key (Digest, Hawk, Signature, NTLM, Negotiate, AWS's).
  shape('auth-header', /\bAuthorization["']?[ \t]*[:=][ \t]*["']?(?!(?:NTLM|Negotiate|Kerberos|Digest|Hawk|Signature|SharedKey|SharedKeyLite|AWS4-HMAC-SHA256|AWS|HOBA|Mutual|SCRAM-SHA-\d+|VAPID|Sentry)[ \t])[A-Za-z][\w-]{1,30}[ \t]+((?!\[REDACTED:)[A-Za-z0-9._~+/-]{15,}={0,2})(?=$|[\s"'<>,;)\]}\x60\\])/gi, { group: 1, hint: /authorization/i, accept: (token) => looksIssued(token) && isCredential(token) && !REFERENCE.test(token) && !/^(?:\/|~\/|\.\.?\/)/.test(token) }),
  // curl -u user:password, --user=user:password (the user may be empty).
  shape('basic-auth', /(?<![\w-])(?:-u|--user)(?:[ \t]+|=)["']?[^\s:"'@]{0,100}:([^\s"']{1,200})/g, { group: 1, hint: /-u|--user/, accept: isLiteralPassword }),
  // curl -uuser:password: curl takes the value glued to -u too.
  shape('basic-auth', /\bcurl\b[^\n|;&]{0,300}?[ \t]-u[^\s:"'@-][^\s:"'@]{0,100}:([^\s"']{1,200})/g, { group: 1, hint: 'curl', accept: isLiteralPassword }),
  // curl -u "user:a pass phrase": quoted, the password may hold spaces.
  shape('basic-auth', /(?<![\w-])(?:-u|--user)(?:[ \t]+|=)(["'])[^"'\n:@]{0,100}:([^"'\n]{1,200})\1/g, { group: 2, hint: /-u|--user/, accept: isLiteralPassword }),
  // The same clients' password in quotes, spaces and all (`sshpass -p 'correct horse'`,
  // `mysql -p'violet otter'`): regression, only its first word went, or none.
  shape('cli-password', /\b(?:docker\b[^\n|;&]{0,100}?\blogin\b[^\n|;&]{0,300}?[ \t](?:-p|--password)(?:[ \t]+|=)|sshpass\b[^\n|;&]{0,100}?[ \t]-p[ \t]*|redis-cli\b[^\n|;&]{0,300}?[ \t](?:-a|--pass)[ \t]+|mysql(?:dump|admin|import|sh|check)?\b[^\n|;&]{0,300}?[ \t]-p)(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1/g, { group: 2, hint: /docker|sshpass|redis-cli|mysql/, accept: isLiteralPassword }),
  // Archives' and openssl's passwords: `unzip -P 'a phrase'`, `zip -P pw`, `7z x -ppw`, `openssl enc -k pw`, `-pass pass:pw`.
  // An archiver's or openssl's password: quoted or glued to its flag (`-Psecret`, 7z's `-psecret`),
  // `pass:` given, or followed by a file or a flag (`unzip -P dragonfly a.zip`), it is one; a bare
  // word after a blank may be prose (`zip -P is insecure`).
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}(?:un)?zip${COMMAND_END}(?:[ \t][^\n|;&]{0,300}?)?[ \t]-[A-Za-z0-9]*P(?:[ \t]*${FLAG_QUOTED}|${FLAG_BARE})`, 'g'), { group: [2, 3], hint: 'zip', accept: isCommandPassword, place: isArchiverCommand }),
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}(?:un)?zip${COMMAND_END}(?:[ \t][^\n|;&]{0,300}?)?[ \t]-[A-Za-z0-9]*P[ \t]+${FLAG_BARE}`, 'g'), { group: 1, hint: 'zip', accept: isFlagPassword, place: isArchiverCommand }),
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}(?:un)?zip${COMMAND_END}(?:[ \t][^\n|;&]{0,300}?)?[ \t]-[A-Za-z0-9]*P[ \t]+${FLAG_BARE}${FLAG_THEN_ARGUMENT}`, 'g'), { group: 1, hint: 'zip', accept: isCommandPassword, place: isArchiverCommand }),
  // 7-Zip's and RAR's are glued to -p (RAR's -hp hides the names too), maybe with the flag in quotes (`"-pa pass phrase"`).
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}(?:7z[arz]?|(?:un)?rar)${COMMAND_END}(?:[ \t][^\n|;&]{0,300}?)?[ \t](?:-h?p(?:${FLAG_QUOTED}|${FLAG_BARE})|(["'])-h?p((?!\[REDACTED:)[^"'\n]{1,200})\4)`, 'g'), { group: [2, 3, 5], hint: /7z|rar/, accept: isCommandPassword, place: isArchiverCommand }),
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}openssl${COMMAND_END}(?:[ \t][^\n|;&]{0,300}?)?[ \t]-pass(?:in|out)?[ \t]+(?:pass:(?:${FLAG_QUOTED}|${FLAG_BARE})|(["'])pass:((?!\[REDACTED:)[^"'\n]{1,200})\4)`, 'g'), { group: [2, 3, 5], hint: 'openssl', accept: isCommandPassword, place: isArchiverCommand }),
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}openssl${COMMAND_END}(?:[ \t][^\n|;&]{0,300}?)?[ \t]-k[ \t]+${FLAG_QUOTED}`, 'g'), { group: 2, hint: 'openssl', accept: isCommandPassword, place: isArchiverCommand }),
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}openssl${COMMAND_END}(?:[ \t][^\n|;&]{0,300}?)?[ \t]-k[ \t]+${FLAG_BARE}`, 'g'), { group: 1, hint: 'openssl', accept: isFlagPassword, place: isArchiverCommand }),
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}openssl${COMMAND_END}(?:[ \t][^\n|;&]{0,300}?)?[ \t]-k[ \t]+${FLAG_BARE}${FLAG_THEN_ARGUMENT}`, 'g'), { group: 1, hint: 'openssl', accept: isCommandPassword, place: isArchiverCommand }),
  // openssl's key itself, in hex (`-K 603deb…`; its -iv is no secret).
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}openssl${COMMAND_END}(?:[ \t][^\n|;&]{0,300}?)?[ \t]-K[ \t]+([0-9A-Fa-f]{16,256})(?![0-9A-Za-z])`, 'g'), { group: 1, hint: 'openssl', place: isArchiverCommand }),
  // The same commands' arguments as a program's list (`subprocess.run(['zip', '-P', '…', …])`,
  // `spawn("7z", ["x", "-p…"])`): the item after a password's flag, or 7-Zip's and RAR's glued to -p.
  shape('cli-password', new RegExp(String.raw`${argumentsCommand(String.raw`(?:un)?zip|openssl|keytool`)}${argumentItems(3)}(["'])(?:-[A-Za-z0-9]*P|--password|-k|-K|-pass(?:in|out)?|-(?:src|dest)?(?:store|key)pass)\4${ARGUMENT_SEPARATOR}(["'])(?:pass:)?((?!\[REDACTED:)[^"'\n]{1,200})\5`, 'g'), { group: 6, hint: ARGUMENT_LIST_HINT, accept: isCommandPassword }),
  shape('cli-password', new RegExp(String.raw`${argumentsCommand(String.raw`7z[arz]?|(?:un)?rar`)}${argumentItems(3)}(["'])-h?p((?!\[REDACTED:)[^"'\n]{1,200})\4`, 'g'), { group: 5, hint: ARGUMENT_LIST_HINT, accept: isCommandPassword }),
  // docker login -p SECRET, sshpass -p SECRET, redis-cli -a SECRET: passwords these clients take as a flag's value.
  shape('cli-password', /\bdocker\b[^\n|;&]{0,100}?\blogin\b[^\n|;&]{0,300}?[ \t](?:-p|--password)(?:[ \t]+|=)["']?((?!\[REDACTED:)[^\s"'-][^\s"']{0,200})/g, { group: 1, hint: 'docker', accept: isLiteralPassword }),
  // sshpass's own -p only: before the command it runs (`sshpass -e ssh -p 2201 host` gives ssh a port).
  // SQL's own: ALTER/CREATE USER … WITH PASSWORD '…', … IDENTIFIED BY '…' (MySQL, Oracle).
  shape('sql-password', /\b(?:WITH[ \t]+(?:ENCRYPTED[ \t]+|UNENCRYPTED[ \t]+)?PASSWORD|IDENTIFIED(?:[ \t]+WITH[ \t]+\w+)?[ \t]+BY)[ \t]+'((?!\[REDACTED:)[^'\n]{1,200})'/gi, { group: 1, hint: /password|identified/i, accept: isLiteralPassword }),
  // PostgreSQL's without WITH (`ALTER USER postgres PASSWORD '…'`, `CREATE ROLE app LOGIN PASSWORD
  // '…'`), MySQL's `SET PASSWORD FOR 'u'@'h' = PASSWORD('…')` and `SET PASSWORD = '…'`.
  shape('sql-password', /\b(?:(?:CREATE|ALTER)[ \t]+(?:USER|ROLE)\b[^;']{0,200}?\sPASSWORD|SET[ \t]+PASSWORD\b(?:[ \t]+FOR[ \t]+[^;\n=]{1,200}?)?[ \t]*=[ \t]*(?:PASSWORD[ \t]*\([ \t]*)?)[ \t]*'((?!\[REDACTED:)[^'\n]{1,200})'/gi, { group: 1, hint: /password/i, accept: isPasswordLiteral }),
  // MySQL's `IDENTIFIED BY "…"` in double quotes.
  shape('sql-password', /\bIDENTIFIED(?:[ \t]+WITH[ \t]+\w+)?[ \t]+BY[ \t]+"((?!\[REDACTED:)[^"\n]{1,200})"/gi, { group: 1, hint: /identified/i, accept: isPasswordLiteral }),
  // MongoDB's users (`db.createUser({user: "admin", pwd: "…", roles: […]})`, over lines or not):
  // `pwd` beside `user` in one object; elsewhere `pwd` is as often a working folder.
  shape('sql-password', /\buser["']?[ \t]*:[ \t]*(["'])[^"'\n]{1,200}\1[ \t]*,\s{0,40}["']?pwd["']?[ \t]*:[ \t]*(["'])((?!\[REDACTED:)[^"'\n]{1,200})\2/g, { group: 3, hint: 'pwd', accept: isPasswordLiteral }),
  // MongoDB's new password for a user: `db.updateUser("app", { pwd: "…" })`, its command's
  // (`runCommand({ updateUser: "app", pwd: "…" })`, pymongo's `db.command("createUser", "app",
  // pwd="…")`), and `createUser({ user, roles, pwd })` with anything between them.
  shape('sql-password', /\bupdateUser[ \t]*\(\s{0,40}(["'])[^"'\n]{1,200}\1[ \t]*,\s{0,40}\{(?:[^{}]|\{[^{}]{0,200}\}){0,400}?["']?\bpwd["']?[ \t]*:[ \t]*(["'])((?!\[REDACTED:)[^"'\n]{1,200})\2/g, { group: 3, hint: 'updateUser', accept: isPasswordLiteral }),
  shape('sql-password', /["']?\b(?:createUser|updateUser)["']?[ \t]*:[ \t]*(["'])[^"'\n]{1,200}\1(?:[^{}]|\{[^{}]{0,200}\}){0,400}?["']?\bpwd["']?[ \t]*:[ \t]*(["'])((?!\[REDACTED:)[^"'\n]{1,200})\2/g, { group: 3, hint: 'pwd', accept: isPasswordLiteral }),
  shape('sql-password', /\bcreateUser[ \t]*\(\s{0,40}\{(?:[^{}]|\{[^{}]{0,200}\}){0,600}?["']?\bpwd["']?[ \t]*:[ \t]*(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1/g, { group: 2, hint: 'createUser', accept: isPasswordLiteral }),
  shape('sql-password', /\bcommand[ \t]*\(\s{0,40}(["'])(?:createUser|updateUser)\1(?:[^()]|\([^()]{0,100}\)){0,300}?\bpwd[ \t]*=[ \t]*(["'])((?!\[REDACTED:)[^"'\n]{1,200})\2/g, { group: 3, hint: 'pwd', accept: isPasswordLiteral }),
  // Oracle's unquoted password (`CREATE USER scott IDENTIFIED BY tiger;`, in a GRANT, a database
  // link or SET ROLE too), up to the statement's end or its next clause, as SQL writes it (in
  // capitals); in Title Case or small letters, a statement ending in `;` only, and not a word that
  // names what identifies a user in prose (`… identified by email;`).
  // Not `IDENTIFIED BY VALUES '…'` (a hash), MySQL's `RANDOM PASSWORD`, a bind variable.
  shape('sql-password', /(?:\b(?:CREATE|ALTER)\s+(?:USER|ROLE)\s+(?:IF\s+NOT\s+EXISTS\s+)?|\bSET\s+ROLE\s+|\bTO[ \t]+|,[ \t]*)[^\s;,]{1,200}(?:[ \t]*,[ \t]*[^\s;,]{1,200})?(?:[ \t]*--[^\n]{0,200})?(?:\s+(?:ACCOUNT\s+(?:UN)?LOCK|PASSWORD\s+EXPIRE))?\s+IDENTIFIED\s+BY\s+(?!(?:VALUES|RANDOM|PASSWORD)\b)([A-Za-z][\w$#]{0,127})(?=[ \t]*(?:[;,]|$|\r?\n|--|\/|["'`)]|[ \t](?:DEFAULT|TEMPORARY|QUOTA|PROFILE|PASSWORD|ACCOUNT|CONTAINER|REPLACE|USING|WITH|ENABLE|LOCAL|default|temporary|quota|profile|password|account|container|replace|enable|local)\b))/g, { group: 1, hint: 'IDENTIFIED', accept: isPasswordLiteral }),
  shape('sql-password', /\b(?:Create|Alter)[ \t]+(?:User|Role)[ \t]+[^\s;,]{1,200}[ \t]+Identified[ \t]+By[ \t]+([A-Za-z][\w$#]{0,127})(?=[ \t]*;)/g, { group: 1, hint: 'Identified', accept: isPasswordLiteral }),
  shape('sql-password', /\b(?:create|alter)[ \t]+user[ \t]+[^\s;]{1,200}[ \t]+identified[ \t]+by[ \t]+(?!(?:values|random|password|default|externally|globally|none|null)\b)([A-Za-z][\w$#]{0,127})(?=[ \t]*(?:;|["'`]|\s(?:default|temporary|quota|profile|password|account|container|replace|enable|local)\b[^;\n]{0,200};))/g, { group: 1, hint: 'identified', accept: (value) => isPasswordLiteral(value) && !/^(?:e?mail|name|user(?:name)?|login|id|uuid|guid|token|key|phone|number|role|group|certificate|cert|slug|hash|code)s?$/i.test(value) }),
  // PowerShell's password given as text: `ConvertTo-SecureString "…" -AsPlainText -Force`.
  shape('assignment', /\bConvertTo-SecureString\b(?=[^\n|;]{0,200}?-AsPlainText)(?:[ \t]+-(?:AsPlainText|Force))+[ \t]+(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1/gi, { group: 2, hint: /ConvertTo-SecureString/i, accept: isPasswordLiteral }),
  shape('assignment', /\bConvertTo-SecureString(?:[ \t]+-(?:AsPlainText|Force))*[ \t]+-String[ \t]+(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1/gi, { group: 2, hint: /ConvertTo-SecureString/i, accept: isPasswordLiteral }),
  shape('assignment', /(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1[ \t]*\|[ \t]*ConvertTo-SecureString\b(?=[^\n]{0,100}?-AsPlainText)/gi, { group: 2, hint: /ConvertTo-SecureString/i, accept: isPasswordLiteral }),
  shape('assignment', /\bConvertTo-SecureString(?:[ \t]+-String)?[ \t]+(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1(?=[^\n]{0,100}?-AsPlainText)/gi, { group: 2, hint: /ConvertTo-SecureString/i, accept: isPasswordLiteral }),
  // Redis's own setting and flag: redis.conf's `requirepass …`/`masterauth …`, `CONFIG SET
  // requirepass "…"`, `redis-server --requirepass …`.
  shape('cli-password', /(?:^|\n)[ \t]*(?:requirepass|masterauth|masterpass)[ \t]+(?:(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1|((?!\[REDACTED:)[^\s"'#;|&][^\s"';|&]{0,200}))[ \t]*(?=$|\r?\n|#)/g, { group: [2, 3], hint: /requirepass|masterauth|masterpass/, accept: isPasswordLiteral }),
  // Written into redis.conf by a command: `echo "requirepass …" >> /etc/redis/redis.conf`.
  shape('cli-password', /\b(?:echo|printf)(?:[ \t]+-[neE]+)*[ \t]+["']?(?:requirepass|masterauth|masterpass)[ \t]+((?!\[REDACTED:)[^\s"'#;|&]{1,200})(?=[ \t]*(?:["'>|;&]|$|\r?\n|\\n))/g, { group: 1, hint: /requirepass|masterauth|masterpass/, accept: (value) => isPasswordLiteral(value) && !PROSE_AFTER_FLAG.test(value) }),
  shape('cli-password', /(?:\bCONFIG[ \t]+SET[ \t]+|\bredis-server\b[^\n|;&]{0,300}?[ \t]--|["']--)(?:requirepass|masterauth|masterpass)["']?(?:[ \t]+|["']?,[ \t]*["'])(?:(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1|((?!\[REDACTED:)[^\s"'#;|&,\]][^\s"';|&,\]]{0,200}))/gi, { group: [2, 3], hint: /requirepass|masterauth|masterpass/i, accept: (value) => isPasswordLiteral(value) && !PROSE_AFTER_FLAG.test(value) }),
  // Written into redis.conf by sed (the replacement of `s/…/requirepass …/`, not its pattern; its
  // commands that add a line, `a`, `i` and `c`, after a quote, an address or a `;`, not in prose).
  shape('cli-password', /\bsed\b[^\n]{0,300}?\bs([/|#,:@])(?:(?!\1)[^\\\n]|\\.){0,300}\1[ \t]*(?:requirepass|masterauth)[ \t]+((?!\[REDACTED:|\$)(?:(?!\1)[^\s\\"'`]){1,200})\1/g, { group: 2, hint: 'sed', accept: isSedPassword }),
  shape('cli-password', /\bsed\b[^\n]{0,300}?(?:["'`;{/$\d])[ \t]*[aic]\\?[ \t]*(?:requirepass|masterauth)[ \t]+((?!\[REDACTED:|\$)[^\s\\"'`]{1,200})/g, { group: 1, hint: 'sed', accept: isSedPassword }),
  // Redis's AUTH in a session with redis-cli (`127.0.0.1:6379> AUTH …`, `AUTH user …`: its
  // prompt, a host and port, opening the line), given to it as a command (`redis-cli -h cache
  // AUTH …`) or piped into it (`echo "AUTH …" | redis-cli`); a user's passwords set by ACL
  // SETUSER or in users.acl (`user app on >… ~* +@all`). Not redis.conf's stock example, foobared.
  shape('cli-password', /(?:^|\n|\\n|["'`])[ \t]*(?:redis(?:[ \t]+(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|[A-Za-z][\w.-]{0,100}):\d{2,5})?|(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|[A-Za-z][\w.-]{0,100}):\d{2,5})(?:\[\d{1,2}\])?>[ \t]*(?:AUTH|auth)[ \t]+(?:(?:[^\s"'`\\]|\\(?!n)){1,100}[ \t]+)?(["']?)((?!\[REDACTED:)(?:[^\s"'`\\]|\\(?!n))+)\1[ \t]*(?=\r?\n|$|\\n|[`"'])/g, { group: 2, hint: /AUTH|auth/, accept: isRedisPassword }),
  shape('cli-password', /\bredis-cli\b[^\n|;&]{0,300}?[ \t]AUTH[ \t]+(?:[^\s"'`|;&]{1,100}[ \t]+)?(["']?)((?!\[REDACTED:)[^\s"'`|;&]{1,200})\1(?=[ \t]*(?:$|\r?\n|[|;&"'`)]|\\n))/g, { group: 2, hint: 'redis-cli', accept: (value) => isRedisPassword(value) && isFlagPassword(value) && !/[.,:]$/.test(value) }),
  shape('cli-password', /\b(?:echo|printf)(?:[ \t]+-[neE]+)*[ \t]+["']?AUTH[ \t]+(?:[^\s"'`|\\]{1,100}[ \t]+)?((?!\[REDACTED:)[^\s"'`|\\]{1,200})(?=(?:\\[rn][^"'\n|]{0,300})?["']?[ \t]*\|[ \t]*redis-cli\b)/g, { group: 1, hint: 'redis-cli', accept: isRedisPassword }),
  // Ruby's `req.basic_auth 'ana', '…'` (no brackets); PHP's curl `CURLOPT_USERPWD, "ana:…"`.
  shape('basic-auth', /\.basic_auth[ \t]+(["'])[^"'\n]{1,200}\1[ \t]*,[ \t]*(["'])((?!\[REDACTED:)[^"'\n]{1,200})\2/g, { group: 3, hint: 'basic_auth', accept: isPasswordLiteral }),
  shape('basic-auth', /\b(?:CURLOPT_|pycurl\.)(?:PROXY)?USERPWD[ \t]*(?:,|=>)[ \t]*(["'])[^"':\n]{1,200}:((?!\[REDACTED:)[^"'\n]{1,200})\1/g, { group: 2, hint: 'USERPWD', accept: isPasswordLiteral }),
  shape('basic-auth', /\b(?:CURLOPT_|pycurl\.)(?:PROXY)?PASSWORD[ \t]*(?:,|=>)[ \t]*(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1/g, { group: 2, hint: 'PASSWORD', accept: isPasswordLiteral }),
  { kind: 'cli-password', find: redisAclPasswords },
  // `redis-cli CONFIG GET requirepass` (or masterauth): the name, then its value on the next
  // line, numbered and quoted at a terminal (right-aligned numbers for ten or more); bare, as
  // printed to a pipe (an agent's), where only a value with a digit or a sign is taken: the next
  // line of a list of settings, a heading's rule, a fence or a placeholder is none.
  shape('cli-password', /^[ \t]*\d{1,4}\) "(?:requirepass|masterauth)"\r?\n[ \t]*\d{1,4}\) "((?!\[REDACTED:)(?:[^"\\\n]|\\.){1,512})"\r?$/gm, { group: 1, hint: /requirepass|masterauth/ }),
  shape('cli-password', /^(?:requirepass|masterauth)\r?\n((?!\[REDACTED:)[^\s"'\x60<>=#*+-][^\s"'\x60]{5,511})\r?$/gm, { group: 1, hint: /requirepass|masterauth/, accept: isBareRedisPassword }),
  // A Wi-Fi network's password given to NetworkManager (`nmcli dev wifi connect Home password …`,
  // `nmcli con modify Home wifi-sec.psk …`, 802.1X's `802-1x.password …`) or shown by it (`nmcli
  // -s con show Home`: `802-11-wireless-security.psk:  …`); the password given to wpa_passphrase
  // after the network's name, piped into it or read from a here-string.
  shape('cli-password', new RegExp(String.raw`\bnmcli\b(?:[ \t]+-[-\w]+)*[ \t]+(?:d|dev|device)[ \t]+(?:wifi|wi-fi)[ \t]+(?:(?:c|con|connect)[ \t]+(?:"[^"\n]{1,64}"|'[^'\n]{1,64}'|(?:[^\s"'|;&\\]|\\.){1,64})|hotspot)(?:[ \t]+(?:ifname|bssid|name|ssid|private|hidden|wep-key-type|band|channel|con-name)[ \t]+(?:"[^"\n]{1,64}"|'[^'\n]{1,64}'|[^\s"'|;&]{1,64})){0,8}[ \t]+password[ \t]+(?:${FLAG_QUOTED}|((?!\[REDACTED:)[^\s"'\x60<>|;&-][^\s"'\x60<>|;&]{0,200}))(?=${COMMAND_ENDS}|[ \t]+(?:ifname|bssid|name|private|hidden|wep-key-type|band|channel|con-name|--?[A-Za-z])\b)`, 'g'), { group: [2, 3], hint: 'nmcli', accept: isCommandPassword }),
  shape('cli-password', new RegExp(String.raw`\bnmcli\b[^\n|;&]{0,300}?[ \t](?:wifi-sec\.(?:psk|wep-key[0-3])|802-11-wireless-security\.(?:psk|wep-key[0-3])|802-1x\.(?:private-key-)?password|pppoe\.password)[ \t]+(?:${FLAG_QUOTED}|((?!\[REDACTED:)[^\s"'\x60<>|;&-][^\s"'\x60<>|;&]{0,200}))`, 'g'), { group: [2, 3], hint: 'nmcli', accept: isCommandPassword }),
  shape('cli-password', /(?:^|\n)[ \t]*(?:802-11-wireless-security\.(?:psk|wep-key[0-3])|802-1x\.(?:private-key-)?password|wifi-sec\.psk|pppoe\.password)[ \t]*:[ \t]+((?!\[REDACTED:|--[ \t]*(?:\r?\n|$)|<hidden>)[^\s][^\n]{0,200}?)[ \t]*(?=\r?\n|$)/g, { group: 1, hint: /psk|802-1x/, accept: isCommandPassword }),
  shape('cli-password', new RegExp(String.raw`${WPA_PASSPHRASE_AT}wpa_passphrase[ \t]+(?:"[^"\n]{1,64}"|'[^'\n]{1,64}'|(?![[<{-])(?:[^\s"'<>|;&\\]|\\.){1,64})[ \t]+(?:${FLAG_QUOTED}|((?!\[REDACTED:)[^\s"'\x60<>|;&[{-][^\s"'\x60<>|;&]{0,200}))(?=${COMMAND_ENDS})`, 'g'), { group: [2, 3], hint: 'wpa_passphrase', accept: (value) => isCommandPassword(value) && !PROSE_AFTER_FLAG.test(value) }),
  shape('cli-password', /\b(?:echo|printf)(?:[ \t]+-[neE]+)*[ \t]+(?:(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1|((?!\[REDACTED:|\$)[^\s"'|;&]{1,200}))[ \t]*\|[ \t]*(?:sudo[ \t]+)?wpa_passphrase\b/g, { group: [2, 3], hint: 'wpa_passphrase', accept: isCommandPassword }),
  shape('cli-password', /\bwpa_passphrase\b[^\n|;&]{0,200}?<<<[ \t]*(?:(["'])((?!\[REDACTED:)[^"'\n]{1,200})\1|((?!\[REDACTED:|\$)[^\s"'|;&]{1,200}))/g, { group: [2, 3], hint: 'wpa_passphrase', accept: isCommandPassword }),
  // A secret given to a secret store by a flag: Azure Key Vault's and GitHub's (`--body`), and AWS
  // SSM's as a SecureString or under a secret's name (`--value db.internal` of a host stays).
  shape('cli-password', new RegExp(String.raw`\b(?:az[ \t]+keyvault[ \t]+secret[ \t]+set|gh[ \t]+secret[ \t]+set)\b[^\n|;&]{0,400}?[ \t](?:--value|--body|-b)(?:[ \t]+|=)(?:${FLAG_QUOTED}|${FLAG_BARE})`, 'g'), { group: [2, 3], hint: /secret[ \t]+set/, accept: isLiteralPassword }),
  shape('cli-password', new RegExp(String.raw`\baws[ \t]+ssm[ \t]+put-parameter\b(?=[^\n|;&]{0,400}?(?:SecureString|--name[ \t=]+\S*(?:pass|secret|token|key)))[^\n|;&]{0,400}?[ \t]--value(?:[ \t]+|=)(?:${FLAG_QUOTED}|${FLAG_BARE})`, 'gi'), { group: [2, 3], hint: 'put-parameter', accept: isLiteralPassword }),
  // Oracle's clients take `user/password@db` (`sqlplus system/…@//db:1521/XE`, `expdp`, `rman`).
  shape('cli-password', /\b(?:sqlplus|expdp|impdp|sqlldr|rman|dgmgrl)(?:[ \t]+-\S+)*[ \t]+["']?[A-Za-z_][\w$#]{0,63}\/((?!\[REDACTED:)[^\s@/"']{1,200})(?=[@ \t"']|$)/gim, { group: 1, hint: /sqlplus|expdp|impdp|sqlldr|rman|dgmgrl/, accept: isLiteralPassword }),
  // FreeRDP's `/p:…`, lftp's `-u user,…`, HTTPie's `-a user:…`.
  shape('cli-password', new RegExp(String.raw`\bx?freerdp3?\b[^\n|;&]{0,300}?[ \t]/p:(?:${FLAG_QUOTED}|${FLAG_BARE})`, 'g'), { group: [2, 3], hint: 'freerdp', accept: isLiteralPassword }),
  shape('cli-password', /\blftp\b[^\n|;&]{0,200}?[ \t]-u[ \t]+["']?[^\s,"']{1,100},((?!\[REDACTED:)[^\s"']{1,200})/g, { group: 1, hint: 'lftp', accept: isLiteralPassword }),
  shape('cli-password', /(?:^|[\n;&|(]|\$[ \t])[ \t]*(?:https?|xh|xhs)[ \t]+(?:[^\n|;&]{0,200}?[ \t])?(?:-a|--auth)(?:[ \t]+|=)["']?[^\s:"']{1,100}:((?!\[REDACTED:)[^\s"']{1,200})/g, { group: 1, hint: /-a|--auth/, accept: isLiteralPassword }),
  // Windows' `net user ana … /add`, `openssl passwd -6 …`, htpasswd's and mosquitto_passwd's `-b`.
  shape('cli-password', /\bnet[ \t]+user[ \t]+\S+[ \t]+((?!\[REDACTED:)[^\s/*"'][^\s"']{0,200})(?=[ \t]+\/|[ \t]*$)/gim, { group: 1, hint: 'net user', accept: isLiteralPassword }),
  shape('cli-password', new RegExp(String.raw`\bopenssl[ \t]+passwd\b(?:[ \t]+-(?:1|5|6|apr1|crypt|aixmd5|noverify|quiet|table|reverse)|[ \t]+-salt[ \t]+\S+)*[ \t]+(?:${FLAG_QUOTED}|${FLAG_BARE})`, 'g'), { group: [2, 3], hint: 'passwd', accept: isLiteralPassword }),
  shape('cli-password', /\b(?:htpasswd|mosquitto_passwd)(?![^\n|;&]{0,40}?[ \t]-[A-Za-z]*n)(?:[ \t]+-[A-Za-z]+)*?[ \t]+-[A-Za-z]*b[A-Za-z]*(?:[ \t]+-[A-Za-z]+)*[ \t]+\S+[ \t]+\S+[ \t]+["']?((?!\[REDACTED:)[^\s"']{1,200})/g, { group: 1, hint: 'passwd', accept: isLiteralPassword }),
  shape('cli-password', /\bhtpasswd(?=[^\n|;&]{0,40}?[ \t]-[A-Za-z]*n)(?:[ \t]+-[A-Za-z]+)*?[ \t]+-[A-Za-z]*b[A-Za-z]*(?:[ \t]+-[A-Za-z]+)*[ \t]+\S+[ \t]+["']?((?!\[REDACTED:)[^\s"']{1,200})/g, { group: 1, hint: 'htpasswd', accept: isLiteralPassword }),
  // MinIO's client: `mc alias set NAME URL ACCESS_KEY SECRET_KEY`.
  shape('cli-password', /\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+["']?((?!\[REDACTED:)[^\s"']{1,200})/g, { group: 1, hint: 'mc ', accept: isLiteralPassword }),
  // Go's MySQL driver's DSN: `user:password@tcp(host:3306)/db`.
  shape('connection-string', /(?<![\w.:/%-])[A-Za-z_][\w.-]{0,63}:((?!\[REDACTED:)[^\s@:"'/]{1,200})@(?:tcp|unix|udp)\(/g, { group: 1, hint: '@', accept: (value) => isPasswordLiteral(value) && !/^(?:%[-+# 0-9.]*(?:\[\d+\])?[A-Za-z])+$/.test(value) && !/%\[\d+\]/.test(value) }),
  // A token given to a login as its argument: `cargo login …`, `snyk auth …`, `vault login …`
  // (its `-method=… password=…` is an assignment).
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}(?:cargo(?:\.exe)?(?:[ \t]+\+\S+)?[ \t]+login|snyk(?:\.exe)?[ \t]+auth|vault(?:\.exe)?[ \t]+login)(?:[ \t]+--?(?:address|namespace|ns|ca-cert|ca-path|client-cert|client-key|tls-server-name|path|format|method|registry|index|config|header)[ \t]+[^\s-]\S*|[ \t]+--?[\w-]+(?:=\S*)?)*[ \t]+(["']?)((?!\[REDACTED:)[^\s"'\x60=-][^\s"'\x60=]{7,200})\1(?![^\s;&|)])`, 'g'), { group: 2, hint: /cargo|snyk|vault/, accept: (token) => isCredential(token) && isLiteralPassword(token) && !token.includes('://') }),
  // What a tool's own config command is given: `aws configure set aws_secret_access_key …`, `npm
  // config set //registry/:_authToken …`, `yarn config set npmAuthToken …`, `poetry config
  // http-basic.corp ana …` (and `pypi-token.…`), `composer config http-basic.host ana …` (and
  // `github-oauth.…`, `gitlab-token.…`, `bearer.…`), `bundle config set host ana:…`.
  shape('assignment', /\baws(?:[ \t]+--profile[ \t]+\S+)?[ \t]+configure(?:[ \t]+--profile[ \t]+\S+)?[ \t]+set[ \t]+(?:--profile[ \t]+\S+[ \t]+)?(?:[\w-]+\.){0,3}(?:aws_secret_access_key|aws_session_token)[ \t]+(["']?)((?!\[REDACTED:)[^\s"'\x60]{8,2000})\1/g, { group: 2, hint: 'configure', accept: isLiteralPassword }),
  shape('npm-token', /\b(?:npm|pnpm|yarn)[ \t]+(?:config[ \t]+)?set[ \t]+(?:--[\w-]+(?:[ \t]+[^\s-]\S*)?[ \t]+)*["']?(?:[^\s="']*:)?(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent|npmPassword)["']?[ \t]+(["']?)((?!\[REDACTED:)[^\s"'\x60]{4,2000})\1/g, { group: 2, hint: /_auth|_password|npmAuth|npmPassword/, accept: isLiteralPassword }),
  shape('cli-password', /\b(?:poetry|composer(?:\.phar)?)[ \t]+config[ \t]+(?:--?[\w-]+[ \t]+)*(?:http-basic\.\S+[ \t]+(?:"[^"\n]*"|'[^'\n]*'|[^\s"'-]\S*)|(?:pypi-token|github-oauth|gitlab-token|gitlab-oauth|bearer)\.\S+)[ \t]+(["']?)((?!\[REDACTED:)[^\s"'\x60-][^\s"'\x60]{3,2000})\1/g, { group: 2, hint: 'config', accept: isLiteralPassword }),
  shape('cli-password', /\bbundle[ \t]+config[ \t]+(?:set[ \t]+)?(?:--(?:global|local)[ \t]+)?(?:(?:https?:\/\/)?[\w-]+(?:\.[\w-]+)+\/?|BUNDLE_[A-Z0-9_]+)[ \t]+(["']?)[^\s:"']{1,100}:((?!\[REDACTED:)[^\s"'\x60]{1,200})\1/g, { group: 2, hint: 'bundle', accept: (value) => isLiteralPassword(value) && !value.startsWith('//') }),
  // Cloud Foundry's non-interactive login, `cf auth USER PASSWORD`.
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}cf(?:\.exe)?[ \t]+auth[ \t]+(?:"[^"\n]{1,200}"|'[^'\n]{1,200}'|[^\s"'-]\S{0,200})[ \t]+(?:"((?!\[REDACTED:)[^"\n]{1,200})"|'((?!\[REDACTED:)[^'\n]{1,200})'|((?!\[REDACTED:)[^\s"'\x60-][^\s"'\x60]{0,200}))`, 'g'), { group: [1, 2, 3], hint: /\bcf(?:\.exe)?[ \t]+auth/, accept: (value) => isFlagPassword(value) && isCommandPassword(value) }),
  // RabbitMQ's `rabbitmqctl add_user ana …` and `change_password ana …`; Windows' `net use … /user:ana …` (either side of /user).
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}rabbitmqctl(?:\.bat)?(?=[ \t])[^\n|;&]{0,200}?[ \t](?:add_user|change_password)[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\S+)[ \t]+(?:"((?!\[REDACTED:)[^"\n]{1,200})"|'((?!\[REDACTED:)[^'\n]{1,200})'|((?!\[REDACTED:)[^\s"'\x60-][^\s"'\x60]{0,200}))`, 'g'), { group: [1, 2, 3], hint: 'rabbitmqctl', accept: isCommandPassword }),
  shape('cli-password', /\bnet(?:\.exe)?[ \t]+use\b[^\n|;&]{0,200}?[ \t]\/u(?:ser)?:(?:"[^"\n]{1,100}"|\S{1,100})[ \t]+(?:"((?!\[REDACTED:)[^"\n]{1,200})"|((?!\[REDACTED:)[^\s"'\/*+][^\s"']{0,200}))/gi, { group: [1, 2], hint: /net(?:\.exe)?[ \t]+use/i, accept: isNetUsePassword }),
  shape('cli-password', /\bnet(?:\.exe)?[ \t]+use[ \t]+(?:[A-Za-z]:[ \t]+)?\\\\\S+[ \t]+(?:"((?!\[REDACTED:)[^"\n]{1,200})"|((?!\[REDACTED:)[^\s"'\/*+][^\s"']{0,200}))(?=[ \t]+\/u(?:ser)?:)/gi, { group: [1, 2], hint: /net(?:\.exe)?[ \t]+use/i, accept: isNetUsePassword }),
  // `echo PASS | docker login -u me --password-stdin`, CI's way of logging in to a registry
  // (printf '%s' PASS, a quoted password, sudo with its flags).
  { kind: 'cli-password', find: stdinPasswords },
  shape('cli-password', /\bsshpass(?:[ \t]+-(?:[fdP][ \t]*(?:"[^"\n]*"|'[^'\n]*'|[^\s"'-]\S*)|[ehvV]))*[ \t]+-p[ \t]*["']?((?!\[REDACTED:)[^\s"'-][^\s"']{0,200})/g, { group: 1, hint: 'sshpass', accept: isLiteralPassword }),
  shape('cli-password', /\bredis-cli\b[^\n|;&]{0,300}?[ \t](?:-a|--pass)[ \t]+["']?((?!\[REDACTED:)[^\s"'-][^\s"']{0,200})/g, { group: 1, hint: 'redis-cli', accept: isLiteralPassword }),
  // mysql -uroot -pSECRET: MySQL's clients take the password glued to -p (a lone -p asks for it).
  shape('cli-password', /\bmysql(?:dump|admin|import|sh|check)?\b[^\n|;&]{0,300}?[ \t]-p((?!\[REDACTED:)[^\s"'-][^\s"']{0,200})/g, { group: 1, hint: 'mysql', accept: isLiteralPassword }),
  // More clients' own password flags, quoted or bare (a bare word of prose after a blank is none:
  // `run sqlcmd with -P followed by …`): SQL Server's sqlcmd and bcp (`-P`, as Microsoft's Docker
  // guide writes it), MongoDB's shell and tools (`-p`, `--password`; a lone `-p` asks for it),
  // OpenLDAP's tools (`-w`; `-W` asks), ssh-keygen's passphrases (`-N`, and the old one's `-P`
  // beside it; `-N ''` is none), the logins of Azure's, OpenShift's and Cloud Foundry's CLIs and
  // Azure's database servers' `-p`, `dotnet nuget add source -p`, twine's `-p`, `doctl auth init
  // -t` (a key's file given instead stays); Samba's `-U user%password`. Each as the command, not a
  // flag's argument (`docker run --name mongo -p 27017:27017`).
  ...(
    [
      [CLIENT_PASSWORD_FLAG, CLIENT_HINT],
      [KEYGEN_OLD_PASSPHRASE, 'ssh-keygen'],
      [CLOUD_LOGIN_FLAG, CLOUD_LOGIN_HINT],
    ] as const
  ).flatMap(([flag, hint]) => [
    shape('cli-password', new RegExp(String.raw`${COMMAND_AT}${flag}${FLAG_QUOTED}`, 'g'), { group: 2, hint, accept: (value) => isCommandPassword(value) && !isKeyFile(value), place: isArchiverCommand }),
    shape('cli-password', new RegExp(String.raw`${COMMAND_AT}${flag}${FLAG_BARE}`, 'g'), { group: 1, hint, accept: (value) => isFlagPassword(value) && isCommandPassword(value) && !isRedirection(value) && !isKeyFile(value), place: isArchiverCommand }),
  ]),
  shape('cli-password', new RegExp(String.raw`${COMMAND_AT}(?:smbclient|rpcclient|smbcacls|smbget)${CLIENT_END}[ \t](?:-U[ \t]*|--user(?:[ \t]+|=))(?:(["'])[^"'%\n]{1,100}%((?!\[REDACTED:)[^"'\n]{1,200})\1|[^\s"'%]{1,100}%((?!\[REDACTED:)[^\s"'\x60]{1,200}))`, 'g'), { group: [2, 3], hint: /smb|rpcclient/, accept: isLiteralPassword, place: isArchiverCommand }),
  // chpasswd reads `user:password` lines: `echo 'ana:…' | sudo chpasswd`, `chpasswd <<< 'ana:…'`.
  shape('cli-password', new RegExp(String.raw`\b(?:echo|printf)(?:[ \t]+-[neE]+)*[ \t]+(?:"[^"\s:]{1,100}:((?!\[REDACTED:)[^"\n]{1,200}?)(?:\\n)?"|'[^'\s:]{1,100}:((?!\[REDACTED:)[^'\n]{1,200}?)(?:\\n)?'|[^\s"':|;&]{1,100}:((?!\[REDACTED:)[^\s"'|;&\x60]{1,200}))[ \t]*\|[ \t]*(?:sudo(?:[ \t]+-\S+)*[ \t]+)?chpasswd\b`, 'g'), { group: [1, 2, 3], hint: 'chpasswd', accept: isLiteralPassword }),
  shape('cli-password', new RegExp(String.raw`\bchpasswd(?:[ \t]+-\S+)*[ \t]*<<<[ \t]*(?:"[^"\s:]{1,100}:((?!\[REDACTED:)[^"\n]{1,200})"|'[^'\s:]{1,100}:((?!\[REDACTED:)[^'\n]{1,200})'|[^\s"':|;&]{1,100}:((?!\[REDACTED:)[^\s"'|;&\x60]{1,200}))`, 'g'), { group: [1, 2, 3], hint: 'chpasswd', accept: isLiteralPassword }),
  // Cookie: a=…; b=… and curl -b/--cookie 'a=…': every value that looks issued; Set-Cookie: the
  // cookie's own value, not its attributes (Path=/, Expires=…).
  { kind: 'cookie', find: cookieValues },
  // .netrc: machine HOST login USER password PASS (over lines or on one).
  // A password in quotes is what is inside them, spaces and all.
  shape('netrc-password', /\b(?:machine[ \t]+\S{1,200}\s+login|default\s+login)[ \t]+\S{1,200}\s+password[ \t]+"?((?!\[REDACTED:)(?:(?<=")[^"\n]{1,200}(?=")|(?<!")(?!"\[REDACTED:)\S{1,200}))/g, { group: 1, hint: 'password', accept: isLiteralPassword }),
  shape('netrc-password', /\bmachine[ \t]+[^\s.]{1,100}\.\S{1,200}\s+password[ \t]+"?((?!\[REDACTED:)(?:(?<=")[^"\n]{1,200}(?=")|(?<!")(?!"\[REDACTED:)\S{1,200}))/g, { group: 1, hint: 'password', accept: isLiteralPassword }),
  // XML: <password>…</password>, <ns:ApiKey>…</ns:ApiKey>, and .NET's <add key="SmtpPassword" value="…"/>.
  { kind: 'assignment', find: xmlValues },
  // A secret given as a name and its value in text: JSON (`{"name": "DB_PASSWORD", "value": "…"}`,
  // CloudFormation's ParameterKey), a container's environment in YAML (`- name: API_TOKEN` then
  // `value: …`): what a command printed, or a prompt pasted.
  { kind: 'assignment', find: pairedValues },
  // A secret's version as Google's Secret Manager prints it (`gcloud secrets versions access
  // --format=json`): its payload's data, base64, is the secret whatever its name.
  shape('assignment', /"name"[ \t]*:[ \t]*"projects\/[^"/\n]{1,100}\/secrets\/[^"/\n]{1,300}\/versions\/[^"/\n]{1,100}"[ \t]*,\s{0,100}"payload"[ \t]*:[ \t]*\{\s{0,100}"data"[ \t]*:[ \t]*"((?!\[REDACTED:)[A-Za-z0-9+/_-]{2,}={0,2})"/g, { group: 1, hint: '/versions/' }),
  // NAME=…, export NAME="…", "apiKey": "…", X-API-Key: …, --password …: the value after a
  // secret name, unless it is code, a reference or a placeholder.
  { kind: 'assignment', find: namedValues },
  // ODBC's and ADO's `PWD=` in a connection string (`…;UID=sa;PWD=…;`), where bare `PWD` names the working directory.
  { kind: 'assignment', find: connectionStringPasswords },
  { kind: 'assignment', find: flagValues },
  { kind: 'assignment', find: tableValues },
  { kind: 'assignment', find: shellSetValues },
  { kind: 'assignment', find: callValues },
  // A user's name and password given to a call: `auth=('ana', '…')`, `HTTPBasicAuth('ana', '…')`, `smtp.login(user, '…')`.
  { kind: 'basic-auth', find: credentialArguments },
  // PHP's `new PDO($dsn, 'root', '…')`, JDBC's `getConnection(url, user, '…')`: a password by its place.
  { kind: 'password-argument', find: positionalPasswords },
  // INSERT INTO users (name, password) VALUES ('bob', '…'): the values in a secret's column.
  { kind: 'sql-password', find: sqlInsertValues },
  // A key's DER or OpenSSH body on one line (unwrapped, no BEGIN line): the starts of private keys
  // only (RSA, PKCS#8, EC, Ed25519, OpenSSH, and a PKCS#12 bundle's, `base64 cert.pfx`), not of
  // certificates or public keys (`MIIDdzCCA…`).
  shape('private-key', /(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{3}IBA(?:AK|DAN|zCC)|MHcCAQEE|MC4CAQAw|MIGHAgEA|MIGEAgEA|b3BlbnNzaC1rZXktdjE)[A-Za-z0-9+/]{40,}={0,2}/g),
  // A JSON Web Key's private members, in an object that says its key type (`"kty"`).
  { kind: 'private-key', find: jwkPrivateMembers },
  // A PEM file base64-encoded whole (a kubeconfig's client-key-data, a Kubernetes secret's
  // tls.key), with whatever came before it in the file (openssl's "Bag Attributes"): the run of
  // base64 holding "-----BEGIN" in any of its three alignments (LS0tLS1CRUdJTi, …0tLS0tQkVHSU4,
  // …tLS0tLUJFR0lO). Certificates are encoded alike and go too: nothing in the text tells them
  // apart, and a certificate is no loss to a shared report.
  shape('private-key', /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]*?(?:LS0tLS1CRUdJTi|0tLS0tQkVHSU4|tLS0tLUJFR0lO)[A-Za-z0-9+/]*={0,2}/g, { hint: /LS0tLS1CRUdJTi|0tLS0tQkVHSU4|tLS0tLUJFR0lO/ }),
  // Tokens of package registries and secret stores: PyPI, Docker Hub, HashiCorp Vault, Databricks.
  shape('pypi-token', /pypi-AgE[A-Za-z0-9_-]{50,}/g, { hint: 'pypi-' }),
  shape('docker-token', /dckr_pat_[A-Za-z0-9_-]{20,}/g, { hint: 'dckr_' }),
  shape('vault-token', /(?<![A-Za-z0-9.])hv[sbr]\.[A-Za-z0-9_-]{24,}/g, { hint: /hv[sbr]\./ }),
  shape('databricks-token', /(?<![A-Za-z0-9])dapi[0-9a-f]{32}(?:-\d)?(?![0-9a-f])/g, { hint: 'dapi' }),
  // Keys of model providers Pi and others take (Groq, xAI, Perplexity, Cerebras, Replicate, Fireworks).
  shape('groq-key', /(?<![A-Za-z0-9])gsk_[A-Za-z0-9]{40,}/g, { hint: 'gsk_' }),
  shape('xai-key', /(?<![A-Za-z0-9])xai-[A-Za-z0-9]{40,}/g, { hint: 'xai-' }),
  shape('perplexity-key', /(?<![A-Za-z0-9])pplx-[A-Za-z0-9]{40,}/g, { hint: 'pplx-' }),
  shape('cerebras-key', /(?<![A-Za-z0-9])csk-[A-Za-z0-9]{40,}/g, { hint: 'csk-' }),
  shape('replicate-token', /(?<![A-Za-z0-9])r8_[A-Za-z0-9]{30,}/g, { hint: 'r8_' }),
  shape('fireworks-key', /(?<![A-Za-z0-9])fw_[A-Za-z0-9]{20,}/g, { hint: 'fw_', accept: (key) => /\d/.test(key) && /[A-Za-z]{2}/.test(key.slice(3)) && looksRandom(key.slice(3)) }),
  // URLs that are credentials whole: a Discord webhook's token, a Telegram bot's (`bot<id>:AA…`),
  // a Microsoft Teams webhook's path; and a URL's `key` parameter holding a random value (an API
  // key, as Google's and many others' are given).
  shape('webhook-url', /discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/([A-Za-z0-9_-]{30,})/g, { group: 1, hint: '/webhooks/' }),
  shape('telegram-token', /(?<!\d)\d{5,15}:AA[A-Za-z0-9_-]{30,40}(?![A-Za-z0-9_-])/g, { hint: ':AA' }),
  // A Discord bot's token alone (`client.login('MTE2…')`): its bot's id in base64, a time and a MAC.
  shape('discord-token', /(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{22,26}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g, { hint: /\.[A-Za-z0-9_-]{6}\./, accept: isDiscordToken }),
  shape('webhook-url', /\.webhook\.office\.com\/webhookb2\/([^\s"'<>]{20,})/g, { group: 1, hint: 'webhookb2' }),
  { kind: 'api-key', find: urlKeyValues },
  // A key encoded in base64 (`echo c2stYW50… | base64 -d`): named as the key it holds.
  { kind: 'encoded-key', find: encodedKeys },
];

/**
 * A run of base64's characters (or base64url's), read whole: a megabyte of an image's is one match,
 * not one from each of its places. After an `=` too (`?auth=…`): base64 pads only at its end.
 */
const MIN_BASE64_RUN = 24;
/** Longer runs encode files, not a key given alone. */
const MAX_ENCODED_KEY = 2000;

/**
 * The rules of keys known by their shape alone, read in what a run of base64 decodes to: not a key
 * cut short (a decoded text's end is no preview's), nor this rule again (its pattern's place is
 * its own, and a key encoded twice is not given so).
 */
let encodedKeyRules: readonly SecretRule[] | null = null;

/**
 * The runs of base64's characters of a text, as long as they go, with the `=` that pads one; those
 * longer than MAX_ENCODED_KEY passed over. Scanned, not matched: a pattern's loop over a run of
 * megabytes overflowed the stack (a tool's output of 6 MB on one line).
 */
function* base64Runs(text: string): Generator<{ index: number; run: string }> {
  let at = 0;
  while (at < text.length) {
    while (at < text.length && !isBase64Character(text.charCodeAt(at))) at++;
    const start = at;
    while (at < text.length && isBase64Character(text.charCodeAt(at))) at++;
    const length = at - start;
    let end = at;
    while (end < text.length && end - at < 2 && text[end] === '=') end++;
    if (length >= MIN_BASE64_RUN && end - start <= MAX_ENCODED_KEY) yield { index: start, run: text.slice(start, end) };
  }
}

function isBase64Character(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 95 || c === 45;
}

function encodedKeys(text: string): Found[] {
  const found: Found[] = [];
  encodedKeyRules ??= SECRET_RULES.filter((rule) => ISSUED_KEY_KINDS.has(rule.kind) && rule.kind !== 'partial-key' && rule.kind !== 'encoded-key');
  for (const m of base64Runs(text)) {
    const run = m.run;
    const decoded = Buffer.from(run, /[-_]/.test(run) ? 'base64url' : 'base64').toString('latin1');
    // Text, not bytes: a key is given as text, and an identifier or a hash decodes to bytes.
    if (!/^[\t\n\r\x20-\x7e]{16,}$/.test(decoded)) continue;
    for (const rule of encodedKeyRules) {
      const [key] = rule.find(decoded);
      if (key === undefined) continue;
      found.push({ start: m.index, end: m.index + run.length, kind: key.kind ?? rule.kind });
      break;
    }
  }
  return found;
}

/**
 * The kinds of key issued with a prefix of their own (`sk-ant-`, `ghp_`, `AKIA`): found by their
 * shape alone, wherever they stand, not by a name written before them.
 */
export const ISSUED_KEY_KINDS: ReadonlySet<string> = new Set([
  'private-key', 'anthropic-key', 'openrouter-key', 'openai-key', 'stripe-key', 'github-token', 'slack-token', 'gitlab-token',
  'sendgrid-key', 'google-oauth', 'digitalocean-token', 'aws-access-key', 'google-api-key', 'npm-token', 'huggingface-token',
  'shopify-token', 'linear-key', 'notion-token', 'langsmith-key', 'pinecone-key', 'nvidia-key', 'sentry-token', 'mailgun-key',
  'atlassian-token', 'jwt', 'partial-key', 'service-key', 'pypi-token', 'docker-token', 'vault-token', 'databricks-token', 'groq-key', 'xai-key',
  'perplexity-key', 'cerebras-key', 'replicate-token', 'fireworks-key', 'telegram-token', 'webhook-url', 'discord-token',
  ...SERVICE_KEY_RULES.map((rule) => rule.kind),
  'encoded-key',
]);

/** A URL's `key` parameter (`?key=…`, `&amp;key=…`): its value. */
const URL_KEY = /[?&](?:amp;)?key=([A-Za-z0-9_.~-]{16,300})(?![A-Za-z0-9_.~-])/g;

/**
 * A URL's `key` parameter holding a random value: an API key. Found from the parameter, its URL
 * looked for before it (in the same word), so that a text of many URLs is read once.
 */
function urlKeyValues(text: string): Found[] {
  const found: Found[] = [];
  if (!text.includes('key=')) return found;
  URL_KEY.lastIndex = 0;
  for (let m = URL_KEY.exec(text); m; m = URL_KEY.exec(text)) {
    const value = m[1] ?? '';
    if (!/\d/.test(value) || !/[A-Za-z]/.test(value) || !looksRandom(value) || PLACEHOLDER.test(value)) continue;
    const before = text.slice(Math.max(0, m.index - 2000), m.index);
    const word = before.slice(Math.max(...[' ', '\n', '\t', '"', "'", '<', '>'].map((stop) => before.lastIndexOf(stop))) + 1);
    const scheme = word.indexOf('://');
    if (scheme === -1 || (m[0].startsWith('&') && !word.includes('?', scheme))) continue;
    const start = m.index + m[0].length - value.length;
    found.push({ start, end: start + value.length });
  }
  return found;
}

/** fish's `set -x NAME value`, Windows' `setx NAME value`, PowerShell's SetEnvironmentVariable("NAME", "value"). */
const SHELL_SET = /(?:\bset[ \t]+(?:-[A-Za-z]*[xgU][A-Za-z]*[ \t]+)+|\bsetx[ \t]+)([A-Za-z_][\w]{0,100})[ \t]+(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"';&|]+))|SetEnvironmentVariable\([ \t]*["']([A-Za-z_][\w]{0,100})["'][ \t]*,[ \t]*["']([^"'\n]*)["']/g;

function shellSetValues(text: string): Found[] {
  const found: Found[] = [];
  if (!/\bsetx?\b|SetEnvironmentVariable/.test(text)) return found;
  SHELL_SET.lastIndex = 0;
  for (let m = SHELL_SET.exec(text); m; m = SHELL_SET.exec(text)) {
    const name = m[1] ?? m[5] ?? '';
    const value = m[2] ?? m[3] ?? m[4] ?? m[6] ?? '';
    if (!SECRET_NAME_HINT.test(name) || !isSecretName(name)) continue;
    if (!isSecretValue(value, { quoted: m[4] === undefined, form: 'literal', name, after: '' })) continue;
    const start = m.index + m[0].lastIndexOf(value);
    found.push({ start, end: start + value.length });
  }
  return found;
}

/**
 * A secret's name as a call's first argument, its value as the second: WordPress's `define(
 * 'DB_PASSWORD', '…' )`, `os.setenv("API_TOKEN", "…")`, `System.setProperty("db.password", "…")`,
 * `headers.set('X-Api-Key', '…')`; or as its second, after a section or a key (configparser's
 * `config.set('database', 'password', '…')`, Redis's `hset('user:1', 'password', '…')`). The value
 * is a literal in quotes: a variable or a call (`config.get('password', fallback)`) names it.
 */
const CALL_NAME_THEN_VALUE = /(?<=[\w$][ \t]{0,20}\([ \t]{0,20}(?:(?:"[^"\n]{1,100}"|'[^'\n]{1,100}')[ \t]{0,20},[ \t]{0,20})?)(["'])([^"'\n]{1,100})\1[ \t]{0,20},[ \t]{0,20}(?=["'])/g;
/** WordPress's keys and salts (wp-config.php): `define( 'SECURE_AUTH_SALT', '…' )`. */
const WORDPRESS_SECRET = /^(?:AUTH|SECURE_AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)$/;
/**
 * A secret's shape under a word's name in a call (`config.set('password', 'p@ssw0rd!')`,
 * `app.set('jwtSecret', 'a8f5f167…')`): six characters or more, a digit among them, no blank; not
 * a path or a file, a word joined to digits (`aes-256-gcm`, `contact-form-7`, `secret_v2`), a
 * `kind:value` of small letters (`user:123`, `min:8`; `admin:Tr0ub4dor3X` is one), a number, a
 * date, a column's type (`varchar(255)`, `CHAR(60)`), an attribute (`Max-Age=3600`), or an
 * algorithm's or an encoding's name (`sha256`, `SHA-256`, `AES-256-GCM`, `utf8mb4`, `utf16le`).
 */
function isWordNamedSecret(value: string): boolean {
  if (value.length < 6 || /\s/.test(value) || !/\d/.test(value) || /^\d+$/.test(value)) return false;
  if (/^[/.~]|\.[a-z]{2,4}$/.test(value) || /^[a-z]+:[a-z0-9_|:-]*$/.test(value) || /^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$|^(?:Max-Age|max-age|Version)=\d+$/.test(value)) return false;
  if (/^(?:[a-z]+|[A-Z]+)\(\d+(?:,\d+)?\)$/.test(value)) return false;
  return !/^[a-z]+(?:[-_.][a-z0-9]+)+$/.test(value) && !/^(?:sha-?\d+|sha3-?\d+|md5|base(?:32|64)(?:url)?|utf-?(?:8|16|32)(?:mb[34]|le|be)?|ucs-?2|latin-?1|iso-?8859-\d+|[hre]s\d+|aes-?\d+(?:-[a-z]+)?)$/i.test(value);
}
/** The called name before a call's parenthesis at `at` (`w.Header().Set(`: its `()` taken out). */
function calleeBefore(text: string, at: number): string {
  return CALLEE.exec(text.slice(Math.max(0, at - 80), at))?.[1]?.replace(/\(\)/g, '') ?? '';
}
const CALLEE = /([\w$.:]+(?:\(\)[\w$.:]+)*)[ \t]*\([ \t]*$/;
/**
 * Calls that set a secret by its name: WordPress's `define`, an environment's (`os.setenv`,
 * `os.Setenv`, `putenv`, `Deno.env.set`, `os.environ.setdefault`, a test's `monkeypatch.setenv`
 * and `vi.stubEnv`), a property's (`System.setProperty`), a request's header (`headers.set`,
 * `Header.Set`, `setRequestHeader`, `setHeader`).
 */
const SETTER_CALL = /(?:^|[.:])(?:define|putenv|setenv|Setenv|SetEnv|set_env|setEnv|stubEnv|setdefault|setProperty|SetProperty|setRequestHeader|setHeader|SetHeader)$|(?:^|\.)(?:env|headers|Headers|Header|header)\.(?:set|Set|append|add|Add)$/;

/** Setters given a section or a key, then a field's name, then its value (configparser's, Redis's). */
const FIELD_SETTER = /(?:^|\.)(?:set|hset|hsetnx|hmset|put|setValue|set_value)$/;

function callValues(text: string): Found[] {
  const found: Found[] = [];
  if (!text.includes('(')) return found;
  CALL_NAME_THEN_VALUE.lastIndex = 0;
  for (let m = CALL_NAME_THEN_VALUE.exec(text); m; m = CALL_NAME_THEN_VALUE.exec(text)) {
    const name = m[2] ?? '';
    if (!SECRET_NAME_HINT.test(name) || !(isSecretPropertyName(name) || WORDPRESS_SECRET.test(name))) continue;
    // An Azure storage key's setting (`spark.conf.set("fs.azure.account.key.…", …)`) is the Azure rules' to read: they keep where it is kept.
    if (AZURE_STORAGE_PROPERTY.test(name)) continue;
    const read = readValue(text, m.index + m[0].length);
    if (!read?.quoted) continue;
    const value = text.slice(read.start, read.end);
    // A form's or a locale's label (`'Mot de passe'`) is no value; an Authorization's scheme stays.
    if (isWordsLabel(value) || !isSecretValue(value, { quoted: true, form: 'code', name, after: '' })) continue;
    // Past a setter's (an environment's, a property's, a header's), a call takes a name and another
    // word as often (`res.cookie('token', 'deleted')`, `schema.add('password', 'string')`,
    // `hashPassword('password', 'sha256')`, `__( 'API Key', 'contact-form-7' )`). There a name of
    // an environment's or a property's shape (`os.environ.get('DB_PASSWORD', 'correct-horse-…')`,
    // `props.put("javax.net.ssl.keyStorePassword", …)`) gives a secret whatever its shape; a word's
    // (`'password'`, `'token'`), only one of a secret's shape (isWordNamedSecret). The callee is
    // read last, only for a value that needs it.
    if (!/^[A-Z][A-Z0-9_]*$|\./.test(name) && !isWordNamedSecret(value.replace(AUTH_SCHEME, '')) && !SETTER_CALL.test(calleeBefore(text, m.index))) continue;
    // The name as the second argument only of a setter of a section's or a key's field (SQL's
    // `VALUES ('bob', 'password', '$2b$…')` holds a column's words).
    if (!/\([ \t]*$/.test(text.slice(Math.max(0, m.index - 20), m.index)) && !FIELD_SETTER.test(calleeBefore(text, text.lastIndexOf('(', m.index) + 1))) continue;
    const start = read.start + (AUTH_SCHEME.exec(value)?.[0].length ?? 0);
    // A scheme alone (`'Bearer ' + token`): nothing of a secret in the quotes.
    if (start >= read.end) continue;
    found.push({ start, end: read.end });
    CALL_NAME_THEN_VALUE.lastIndex = Math.max(CALL_NAME_THEN_VALUE.lastIndex, read.end);
  }
  return found;
}

/**
 * A call given a user and a password, to its opening bracket: Python's `auth=(user, …)` (requests,
 * httpx) and its auth classes, .NET's `NetworkCredential`, Java's `UsernamePasswordCredentials` and
 * `PasswordAuthentication`, and a `.login(…)` (PHP's `->login(…)`) or superagent's `.auth(…)`.
 * Group 1: the `.` or `->` of a method. (Not Spring's `UsernamePasswordAuthenticationToken`: what
 * it is given is as often a token or a stand-in.)
 */
const CREDENTIAL_CALL = /(?:(?<![\w$])auth[ \t]*=[ \t]*|(?<![\w$])(?:HTTPBasicAuth|HTTPDigestAuth|HTTPProxyAuth|BasicAuth|DigestAuth|NetworkCredential|UsernamePasswordCredentials?|PasswordAuthentication)[ \t]*|(\.|->)(?:login|auth)[ \t]*)\(/g;

/**
 * The password a call is given as its second argument after a user (CREDENTIAL_CALL), when a
 * literal in quotes: a variable there (`HTTPBasicAuth(user, password)`) names it, and a message
 * (`.login('ana', 'Please sign in first')`) is none. Gmail's app passwords are words of letters
 * (`"abcd efgh ijkl mnop"`).
 */
function credentialArguments(text: string): Found[] {
  const found: Found[] = [];
  if (!text.includes('(') || !/auth|login|credential/i.test(text)) return found;
  const argumentsAt = argumentReader(text);
  CREDENTIAL_CALL.lastIndex = 0;
  for (let m = CREDENTIAL_CALL.exec(text); m; m = CREDENTIAL_CALL.exec(text)) {
    const args = argumentsAt(m.index + m[0].length, 2);
    const literal = args && args.length >= 2 ? literalArgument(text, args[1] as Span) : null;
    if (!literal) continue;
    const { value } = literal;
    if (!isLiteralPassword(value) || !isSecretValue(value, { quoted: true, form: 'code', name: 'password', after: '' })) continue;
    // Any `.login(` or `.auth(` is not a credential's: a test's selectors (`.login('#username',
    // '#password')`), a provider and its mode (`auth.login('github', 'popup')`), a game's message.
    if (m[1] !== undefined && isLoginNonPassword(value)) continue;
    found.push(...literal.pieces);
  }
  return found;
}

/**
 * What a `.login(`'s or an `.auth(`'s second argument is when no password: a selector or words
 * without a digit (`'#password'`, `'input[name=pass]'`, `'Welcome back!'`), a word (`'popup'`; not
 * an app password's sixteen letters, with blanks or Apple's dashes), a path or a URL of small
 * letters, a version, `'oauth2'`. Words joined (`'popup-window'`, `'read:user'`), an id or an
 * address are taken, as pass phrases and passwords are written so (`'correct-horse-battery-staple'`,
 * `'Welcome-2024'`, `'admin@123.com'`: a review found each kept).
 */
function isLoginNonPassword(value: string): boolean {
  if (/^[a-z]{4}(?:[ -]?[a-z]{4}){3}$/.test(value)) return false;
  if (!/\d/.test(value) && (/^[#.[]|[[\]=\s]/.test(value) || /^(?:[a-z]+|[A-Z][a-z]+)$/.test(value))) return true;
  // A path or a URL of small letters (`'/dashboard'`, `'https://idp.example.com/sso'`), a version.
  return /^(?:\/|https?:\/\/)[a-z0-9/._-]*$/.test(value) || /^v\d+(?:\.\d+){1,2}$/.test(value) || /^oauth\d$/.test(value);
}

/**
 * Calls given a password as a plain argument, with the password's place among the arguments (from
 * 0; `last`: the last of at least `least`; `most`: of no more arguments than that): PHP's `new
 * PDO($dsn, 'root', '…')`, `mysqli_connect`/`new mysqli`/`mysql_connect`/`->real_connect(host,
 * user, '…')`, C's and PHP's `mysql(i)_real_connect(link, host, user, '…')`, `ftp_login`,
 * `ldap_bind`, `ssh2_auth_password`, `imap_open`, `oci_connect(user, '…', db)`, `odbc_connect(dsn,
 * user, '…')`; Perl's `DBI->connect($dsn, $user, '…')`; JDBC's `DriverManager.getConnection(url,
 * user, '…')`; JavaMail's `transport.connect(…, '…')` and `Transport.send(msg, user, '…')`;
 * MongoDB's Java `createCredential(user, db, '…')`, OkHttp's `Credentials.basic(user, '…')`,
 * Groovy's `Sql.newInstance(url, user, '…', driver)`; Python's
 * `pymysql.connect`/`MySQLdb.connect`/`pymssql.connect(host, user, '…')`, `ftplib.FTP(host, user,
 * '…')`, cx_Oracle's `connect(user, '…', dsn)`, python-ldap's `simple_bind_s(dn, '…')`, ldap3's
 * `Connection(server, user, '…')`, pysmb's `SMBConnection(user, '…', …)`, poplib's `pass_('…')`,
 * keyring's and keytar's `set_password(service, user, '…')`; an LDAP bind of a DN (ldapjs's
 * `client.bind('cn=…', '…')`, Go's `l.Bind`); Sequelize's `new Sequelize(db, user, '…')`; Go's
 * `smtp.PlainAuth("", user, '…', host)`, `ssh.Password('…')`, `SetBasicAuth(user, '…')`; Ruby's
 * `Net::FTP.new(host, user, '…')`, `Net::SMTP.start(host, port, helo, user, '…')`; MongoDB's
 * `changeUserPassword(user, '…')`; reqwest's `.basic_auth(user, Some("…"))`; a Redis client's
 * `auth('…')` given the password alone (`$redis->auth`, `jedis.auth`), and its setting through a
 * client (`config_set('requirepass', '…')`, `config('SET', 'requirepass', '…')`; `before`: what the
 * arguments before it must be).
 */
const POSITIONAL_PASSWORD_CALLS: readonly { call: string; place: number | 'last'; least?: number; most?: number; before?: RegExp; wordy?: true }[] = [
  { call: String.raw`\bnew[ \t]+\\?PDO`, place: 2 },
  { call: String.raw`\bnew[ \t]+(?:mysqli|MySQLi)|\bmysqli?_p?connect|->real_connect|\$(?:\w{1,80}->){0,4}\w{0,40}(?:[Dd][Bb]|[Mm]y[Ss][Qq][Ll]|[Cc]onn|[Dd]atabase|[Ll]ink|[Ss]ql)\w{0,40}->connect`, place: 2 },
  { call: String.raw`\bmysqli?_real_connect`, place: 3 },
  { call: String.raw`\b(?:ftp_login|ldap_bind|ssh2_auth_password|imap_open|odbc_connect)`, place: 2 },
  { call: String.raw`\boci_(?:p|new_)?connect`, place: 1 },
  { call: String.raw`\bDBI->connect(?:_cached)?`, place: 2 },
  { call: String.raw`\bDriverManager\.getConnection`, place: 2 },
  { call: String.raw`\b[Tt]ransport\.connect`, place: 'last', least: 2 },
  { call: String.raw`\bTransport\.send`, place: 'last', least: 3 },
  { call: String.raw`\bMongoCredential\.create\w{0,20}Credential|\bSql\.newInstance`, place: 2 },
  { call: String.raw`\b(?:pymysql|MySQLdb|pymssql)\.connect|(?<![\w$.])(?:ftplib\.)?FTP(?:_TLS)?|\bnew[ \t]+Sequelize|\bsmtp\.PlainAuth|\bNet::FTP\.(?:new|open)|\bldap3\.Connection|\b(?:keyring|keytar)\.set_?[Pp]assword`, place: 2 },
  { call: String.raw`\bNet::SMTP\.start`, place: 4 },
  { call: String.raw`\b(?:cx_Oracle|oracledb)\.connect|\.(?:simple_)?bind_s|\.changeUserPassword|\.basic_auth|\bsmtp\.CRAMMD5Auth|\bCredentials\.basic|\.SetBasicAuth|\bSMBConnection`, place: 1 },
  { call: String.raw`\.[Bb]ind`, place: 1, before: /^\s*["'](?:cn|uid|ou|dc|mail)=/i },
  { call: String.raw`\.pass_|\bssh\.Password`, place: 0 },
  // Read from a name's start, a few characters each side: `\w*` from every place in a long word is quadratic.
  { call: String.raw`(?<![\w$])\$?\w{0,80}(?:[Rr]edis|jedis)\w{0,80}(?:\.|->)auth`, place: 0, most: 1, wordy: true },
  { call: String.raw`\.config_?[Ss]et`, place: 1, before: /^\s*["'](?:requirepass|masterauth)["']\s*,\s*$/ },
  { call: String.raw`\.config`, place: 2, before: /^\s*["']SET["']\s*,\s*["'](?:requirepass|masterauth)["']\s*,\s*$/i },
];
const POSITIONAL_PASSWORD_CALL = new RegExp(`(?:${POSITIONAL_PASSWORD_CALLS.map(({ call }) => `(${call})`).join('|')})[ \\t]*\\(`, 'g');
const POSITIONAL_PASSWORD_HINT = /PDO|mysql|MySQL|pymssql|connect\(|_login|_bind|bind_s|[Bb]ind\(|_auth_password|imap_open|_connect|DBI|getConnection|ransport\.|Credential|newInstance|FTP|Sequelize|PlainAuth|CRAMMD5|SMTP|Oracle|oracledb|ldap3|keyring|keytar|changeUserPassword|basic_auth|BasicAuth|SMBConnection|Password\(|pass_|auth\(|config/;
/** A user given to a call whose password is then no secret: anonymous FTP's (`FTP(host, 'anonymous', 'anonymous@')`). */
const ANONYMOUS_USER = /^\s*["'](?:anonymous|ftp|guest)["']\s*$/i;

function positionalPasswords(text: string): Found[] {
  const found: Found[] = [];
  if (!text.includes('(') || !POSITIONAL_PASSWORD_HINT.test(text)) return found;
  const argumentsAt = argumentReader(text);
  POSITIONAL_PASSWORD_CALL.lastIndex = 0;
  for (let m = POSITIONAL_PASSWORD_CALL.exec(text); m; m = POSITIONAL_PASSWORD_CALL.exec(text)) {
    const entry = POSITIONAL_PASSWORD_CALLS[m.slice(1).findIndex((group) => group !== undefined)];
    // All of them where the password is the last or the only one; else those up to it.
    const args = entry ? argumentsAt(m.index + m[0].length, entry.place === 'last' || entry.most !== undefined ? Infinity : entry.place + 1) : null;
    if (!entry || !args || args.length < (entry.least ?? 1) || args.length > (entry.most ?? Infinity)) continue;
    const place = entry.place === 'last' ? args.length - 1 : entry.place;
    const arg = args[place];
    const literal = arg ? literalArgument(text, arg) : null;
    if (!literal || !arg || literal.value.includes('[REDACTED:') || !isPasswordLiteral(literal.value)) continue;
    if (entry.wordy && isLoginNonPassword(literal.value)) continue;
    const user = args[place - 1];
    if (user && ANONYMOUS_USER.test(text.slice(user.start, user.end))) continue;
    if (entry.before && !entry.before.test(text.slice(args[0]?.start ?? arg.start, arg.start))) continue;
    found.push(...literal.pieces);
  }
  return found;
}

/** A literal in quotes at a place (Python's `r"…"`/`b'…'`/`f'…'`, C#'s `@"…"`/`$"…"`): group 1 its prefix, 3 what it holds. */
const LITERAL_AT = /([rRbBuUfF]{1,2}|[@$])?(["'`])((?:(?!\2)[^\\\n]|\\.){0,200})\2/y;
/** What joins pieces of one string: `+`, PHP's and Perl's `.`, Lua's `..`. */
const CONCATENATION = /\s*(?:\+|\.\.?(?![\w$]))\s*/y;
/** A conversion of a literal (`"…".toCharArray()`, `'…'.encode()`), and a closing bracket of Rust's `Some(…)`. */
const CONVERSION = /\s*(?:\.\w+\(\)\s*)?(\))?\s*$/y;
/** An argument that opens with a literal and goes on (`'…' + suffix`, `'…' if prod else 'dev'`). */
const GOES_ON = /\s+(?:\+|\.|if|or|and|\|\||\?\??)\s/y;
/** An argument that ends in a fallback literal (`process.env.DB_PASS || '…'`, `os.getenv('PW') or '…'`, `?? '…'`, PHP's `?: '…'`). */
const FALLBACK_LITERAL = /(?:\|\||\?\?|\?:|\bor)\s*(?:[rRbBuU]{1,2}|@)?(["'])((?:(?!\1)[^\\\n]|\\.){1,200})\1\s*$/d;

/**
 * The literal an argument is: its value (its pieces joined, where `'…' . '…'` writes it in two)
 * and the spans of its pieces; one that opens an expression, or a fallback one after `||`/`??`/
 * `or`. Null where it is code: a template's or an f-string's placeholder, a variable, a call.
 */
function literalArgument(text: string, arg: Span): { value: string; pieces: Span[] } | null {
  const source = text.slice(arg.start, arg.end);
  let i = /^\s*/.exec(source)?.[0].length ?? 0;
  const some = /^Some[ \t]*\([ \t]*/.exec(source.slice(i));
  if (some) i += some[0].length;
  const pieces: Span[] = [];
  let value = '';
  for (;;) {
    LITERAL_AT.lastIndex = i;
    const literal = LITERAL_AT.exec(source);
    if (!literal) break;
    const [, prefix = '', , held = ''] = literal;
    // A placeholder makes it code: `${…}` in a template (or PHP's, Perl's, Kotlin's strings, with
    // `{$…}`, and Ruby's `#{…}`), `{…}` in an f-string or C#'s `$"…"`.
    if (/\$\{|\{\$|#\{/.test(held) || (/[fF$]/.test(prefix) && held.includes('{'))) return null;
    const start = literal.index + prefix.length + 1;
    pieces.push({ start: arg.start + start, end: arg.start + start + held.length });
    value += held;
    i = literal.index + literal[0].length;
    CONCATENATION.lastIndex = i;
    const joined = CONCATENATION.exec(source);
    if (!joined || !/^\s*["'`rRbBuUfF@$]/.test(source.slice(i + joined[0].length, i + joined[0].length + 3))) break;
    i += joined[0].length;
  }
  if (pieces.length === 0) {
    const fallback = FALLBACK_LITERAL.exec(source);
    const at = fallback?.indices?.[2];
    if (some || !fallback || !at) return null;
    return { value: fallback[2] as string, pieces: [{ start: arg.start + at[0], end: arg.start + at[1] }] };
  }
  CONVERSION.lastIndex = i;
  const end = CONVERSION.exec(source);
  // A bracket closes Rust's Some(…) only.
  if (end && (end[1] !== undefined) === (some !== null)) return value === '' ? null : { value, pieces: pieces.filter((piece) => piece.end > piece.start) };
  GOES_ON.lastIndex = i;
  // Opening an expression: the literal is a password's head, not a scheme or words before a value (`'Basic ' + b64`).
  if (some || !GOES_ON.test(source) || value === '' || /^\s|\s$/.test(value) || AUTH_SCHEME.test(`${value} `)) return null;
  return { value, pieces: pieces.filter((piece) => piece.end > piece.start) };
}

/**
 * Reads calls' arguments in one text (callArguments), as far as a thousand characters each while
 * it has read fewer than eight for each of the text's and 50,000 more, then 160: a text of many
 * calls never closed (`x.login(` in every line) costs time in step with its length.
 */
function argumentReader(text: string): (at: number, need?: number) => Span[] | null {
  let budget = 8 * text.length + 50_000;
  return (at, need) => {
    // Spent (a text of calls never closed): each call is read a short way, as far as most reach their password.
    const read = callArguments(text, at, need, budget > 0 ? 1000 : 160);
    budget -= read.scanned;
    return read.args;
  };
}

/** How deep in brackets an argument before a password may go. */
const MAX_ARGUMENT_DEPTH = 8;

/** Where `end` first stands in `text` from `from`, before `limit`; -1 where not. */
function indexBefore(text: string, end: string, from: number, limit: number): number {
  for (let i = from; i + end.length <= limit; i++) if (text.startsWith(end, i)) return i;
  return -1;
}

/**
 * The arguments of a call from `at` (after its opening bracket) to its closing one, each's span
 * without blanks or comments around it (`/* … *\/`, `// …`, `# …`); with `need`, only its first
 * `need` (what follows them, a long callback or the text's end, is not waited for). Null when the
 * call does not end within `reach` characters or before a blank line, or a quote within its line.
 * Brackets inside an argument (`getenv('DB_USER')`) and quoted commas stay in it. `scanned`: the
 * characters read.
 */
function callArguments(text: string, at: number, need = Infinity, reach = 1000): { args: Span[] | null; scanned: number } {
  const args: Span[] = [];
  let depth = 0;
  let first = -1;
  let last = at;
  let quote = 0;
  const limit = Math.min(text.length, at + reach);
  for (let i = at; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === BACKSLASH) i++;
      else if (c === quote) quote = 0;
      else if (c === NEWLINE) return { args: null, scanned: i - at + 1 };
      last = i + 1;
      continue;
    }
    if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      const end = indexBefore(text, '*/', i + 2, limit);
      if (end === -1) return { args: null, scanned: limit - at };
      i = end + 1;
      continue;
    }
    if ((c === SLASH && text.charCodeAt(i + 1) === SLASH && text.charCodeAt(i - 1) !== COLON) || (c === HASH && isBlank(text.charCodeAt(i + 1)) && isSpace(text.charCodeAt(i - 1)))) {
      const end = indexBefore(text, '\n', i, limit);
      if (end === -1) return { args: null, scanned: limit - at };
      i = end - 1;
      continue;
    }
    // A blank line before a call's first argument ends: a mention of one in prose (`x.login(
    // above`) ends at its paragraph. (Within the arguments, hand-written code leaves one.)
    if (c === NEWLINE && args.length === 0 && /^[ \t]*\r?\n/.test(text.slice(i + 1, i + 80))) return { args: null, scanned: i - at + 1 };
    if (depth === 0 && (c === COMMA || c === CLOSE_PAREN)) {
      args.push(first === -1 ? { start: i, end: i } : { start: first, end: last });
      first = -1;
      if (c === CLOSE_PAREN || args.length >= need) return { args, scanned: i - at + 1 };
      continue;
    }
    if (c === CLOSE_PAREN || c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      if (depth === 0) return { args: null, scanned: i - at + 1 };
      depth--;
    } else if (c === OPEN_PAREN || c === OPEN_BRACKET || c === OPEN_BRACE) {
      // No password is given under so many brackets: text of them (`FTP(FTP(FTP(…`) is no call.
      if (++depth > MAX_ARGUMENT_DEPTH) return { args: null, scanned: i - at + 1 };
    } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE || c === BACKTICK) quote = c;
    if (!isSpace(c)) {
      if (first === -1) first = i;
      last = i + 1;
    }
  }
  return { args: null, scanned: limit - at };
}

const [BACKSLASH, NEWLINE, SLASH, STAR, COLON, HASH, COMMA, OPEN_PAREN, CLOSE_PAREN, OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE, DOUBLE_QUOTE, SINGLE_QUOTE, BACKTICK] = [...'\\\n/*:#,()[]{}"\'`'].map((c) => c.charCodeAt(0));

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 160 || (code > 255 && /\s/.test(String.fromCharCode(code)));
}

/** A Markdown table's row naming a secret and giving its value: `| DB_PASSWORD | … |`, `| Admin password | … |`. */
const TABLE_ROW = /^(?:[ \t]*(?:>|[-*+]|\d{1,9}[.)])(?=[ \t]))*[ \t]*\|?[ \t]*[`*]{0,2}([A-Za-z_][\w.-]{0,100}(?:[ \t]+[A-Za-z_][\w.-]{0,40}){0,3})[`*]{0,2}[ \t]*\|[ \t]*[`*]{0,2}((?:\\.|[^|`*\s\\])+)[`*]{0,2}[ \t]*\|/gm;
/** What a table's lines may sit in: a quote (`> `) or a list item (`- `, `1. `). */
const TABLE_LINE_PREFIX = /^(?:[ \t]*(?:>|[-*+]|\d{1,9}[.)])(?=[ \t]))*[ \t]*/;
/**
 * A table's line under its header: Markdown's `|---|:--:|`, and the `+` of a database client's
 * (psql's `----+----`, MySQL's `+----+----+`). A list item's `+` is no prefix of it: read both
 * ways, a line of `- + - + …` split every way (quadratic).
 */
const TABLE_RULE = /^(?:[ \t]*(?:>|[-*]|\d{1,9}[.)])(?=[ \t]))*[ \t]*[|+]?(?:[ \t]*:?-+:?[ \t]*[|+])+(?:[ \t]*:?-+:?[ \t]*)?$/;

function tableValues(original: string): Found[] {
  const text = boxTableAsPipes(original);
  const found: Found[] = [...tableColumnValues(text), ...alignedTableValues(text), ...expandedRecordValues(text)];
  if (!text.includes('|')) return found;
  const tables = tablesOf(text);
  let table = 0;
  TABLE_ROW.lastIndex = 0;
  for (let m = TABLE_ROW.exec(text); m; m = TABLE_ROW.exec(text)) {
    const [whole, name = '', value = ''] = m;
    if (!SECRET_NAME_HINT.test(name) || !isSecretName(name)) continue;
    // An API reference's type (`Option<String>`; `String!` where no header says the column holds values) is no value.
    while (table < tables.length && (tables[table] as { end: number }).end < m.index) table++;
    const around = tables[table] !== undefined && (tables[table] as { start: number }).start <= m.index ? (tables[table] as { names: string[] }) : null;
    const markedType = MARKED_TYPE.test(value) && (around === null ? !CHOSEN_PASSWORD.test(value) : TYPE_HEADER.test(around.names[1] ?? ''));
    if (markedType || !isRowSecret(name, value)) continue;
    const start = m.index + whole.lastIndexOf(value);
    found.push({ start, end: start + value.length });
  }
  return found;
}

/** A quoted or bare SQL name, as a table's or a schema's. */
const SQL_NAME = String.raw`(?:"[^"\n]{1,100}"|\x60[^\x60\n]{1,100}\x60|\[[^\]\n]{1,100}\]|[\w$]{1,200})`;
const SQL_INSERT = new RegExp(
  String.raw`\b(?:INSERT|REPLACE)\s+(?:(?:IGNORE|OR\s+(?:REPLACE|IGNORE|ABORT|FAIL|ROLLBACK))\s+)?(?:INTO\s+)?${SQL_NAME}(?:\s*\.\s*${SQL_NAME}){0,3}(?:\s+AS\s+[\w$]{1,100})?\s*\(([^()]{1,2000})\)\s*VALUES\s*`,
  'gi',
);
/** A value longer than this (a call, an expression) is no row this reads: the statement is left as it is. */
const SQL_VALUE_CHARS = 4000;

/**
 * SQL's `INSERT INTO t (name, password, api_token) VALUES ('bob', '…', '…'), (…)` (and REPLACE,
 * INSERT IGNORE, INSERT OR REPLACE): each row's string in a column whose name is a secret's, a
 * string inside a call there too (`crypt('…', gen_salt('bf'))`). Strings as SQL dialects write
 * them: single or double quotes, doubled quotes or a backslash inside, a prefix (N'…', E'…');
 * comments between values. A statement not read to its end is left, and the next read; each
 * character is read once, whatever the text.
 */
function sqlInsertValues(text: string): Found[] {
  const found: Found[] = [];
  if (!/insert|replace/i.test(text) || !/values/i.test(text)) return found;
  SQL_INSERT.lastIndex = 0;
  for (let m = SQL_INSERT.exec(text); m; m = SQL_INSERT.exec(text)) {
    const columns = (m[1] ?? '').split(',').map((name) => name.trim().replace(/^["`[]|["`\]]$/g, ''));
    // A column is no working directory: `pwd` and `pw` name a password there.
    const secret = columns.map((name) => /^(?:pwd|pw)$/i.test(name) || (SECRET_NAME_HINT.test(name) && isSecretName(name)));
    if (!secret.includes(true)) continue;
    const end = sqlRows(text, m.index + m[0].length, (column, start, stop) => {
      const value = text.slice(start, stop);
      const name = columns[column] ?? '';
      if (secret[column] === true && isLiteralPassword(value) && isSecretValue(value, { quoted: true, form: 'code', name, after: '' })) found.push({ start, end: stop });
    });
    SQL_INSERT.lastIndex = Math.max(SQL_INSERT.lastIndex, end);
  }
  return found;
}

/**
 * Reads the rows of a VALUES list from `at`, calling `string` with each string's column and span
 * (inside its quotes); returns where reading stopped.
 */
function sqlRows(text: string, at: number, string: (column: number, start: number, end: number) => void): number {
  const blank = () => {
    for (;;) {
      while (at < text.length && /\s/.test(text[at] as string)) at++;
      if (text.startsWith('--', at)) {
        const line = text.indexOf('\n', at);
        at = line === -1 ? text.length : line + 1;
      } else if (text.startsWith('/*', at)) {
        const close = text.indexOf('*/', at + 2);
        at = close === -1 ? text.length : close + 2;
      } else return;
    }
  };
  /** A quoted string from its opening quote: its content's span, or null when it does not close. */
  const quoted = (): { start: number; end: number } | null => {
    const quote = text[at];
    const start = at + 1;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') i++;
      else if (c === quote) {
        if (text[i + 1] === quote) i++;
        else {
          at = i + 1;
          return { start, end: i };
        }
      }
    }
    return null;
  };
  for (;;) {
    blank();
    if (text[at] !== '(') return at;
    at++;
    for (let column = 0; ; column++) {
      // A value: strings (a prefix, N'…' or E'…', is the string's), numbers, NULL, placeholders,
      // calls, casts ('…'::text), concatenations and arrays, to the next comma or the row's end
      // outside brackets, each of its strings read.
      const from = at;
      let depth = 0;
      for (;;) {
        blank();
        if (at >= text.length) return at;
        if (at - from > SQL_VALUE_CHARS) return at;
        const c = text[at];
        if (depth === 0 && (c === ',' || c === ')')) break;
        if (c === "'" || c === '"') {
          const span = quoted();
          if (span === null) return text.length;
          string(column, span.start, span.end);
          continue;
        }
        if (c === '(' || c === '[') depth++;
        else if (c === ')' || c === ']') depth--;
        else if (c === ';') return at;
        at++;
      }
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] !== ')') return at;
      at++;
      break;
    }
    blank();
    if (text[at] !== ',') return at;
    at++;
  }
}

/**
 * A Markdown table whose header names a secret (`| Service | User | Password |`): each row's cell
 * in that column that is a value (one word, not a placeholder or a reference).
 */
function tableColumnValues(text: string): Found[] {
  const found: Found[] = [];
  if (!text.includes('|')) return found;
  for (const { names, rows } of tablesOf(text)) {
    const secret = names.flatMap((name, column) => (SECRET_NAME_HINT.test(name) && isSecretName(name) ? [column] : []));
    if (secret.length === 0) continue;
    for (const row of rows) {
      const prefix = TABLE_LINE_PREFIX.exec(row.text)?.[0].length ?? 0;
      const cells = tableCells(row.text.slice(prefix)).map((cell) => ({ ...cell, start: cell.start + prefix }));
      for (const column of secret) {
        const cell = cells[column];
        if (cell === undefined) continue;
        const value = cellValue(cell).text.replace(/^[`*]+|[`*]+$/g, '');
        // Under "Password", a word with more than small letters in it (tr0ub4dor3x,
        // correct-horse-battery-staple-42; not "never" or "bcrypt" in a table of methods); under
        // "API key", "Secret", "Token" or "Key" a cell is a secret by its look: a name, a kind, a
        // type or a reference (read_only, an ARN, a path, a time, config.apiKey) is none.
        const name = names[column] ?? '';
        if (!isColumnSecret(name, value)) continue;
        const start = row.start + cell.start + cell.text.indexOf(value);
        found.push({ start, end: start + value.length });
      }
    }
  }
  return found;
}

/** A cell's value (cellValue's) under a column naming a secret (`password`, `API key`, `Secret`) that is one (see tableColumnValues). */
function isColumnSecret(name: string, value: string): boolean {
  if (/\s/.test(value) || REFERENCE_CELL.test(value) || TYPE_CELL.test(value) || MEMBER_ACCESS.test(value)) return false;
  if (!(isPasswordName(name) ? value.length >= MIN_SECRET_LENGTH && /[^a-z]/.test(value) : looksIssued(value))) return false;
  // Under a bare "Token" a lexer's or a grammar's names stand too (`IDENT_42x`, `Token2022Format`): an issued one is longer.
  if (/^(?:tokens?|keys?|secrets?)$/i.test(name.trim()) && value.length < 16) return false;
  return isSecretValue(value, { quoted: false, form: 'literal', name, after: '' });
}

/**
 * A row's value beside a secret's name in its first cell (`| DB_PASSWORD | … |`): a cell of prose
 * or a header ("| Token | Purpose |") is no value, being a word or words; nor is a type or a
 * reference (`secrets.GITHUB_TOKEN`, a path).
 */
function isRowSecret(shownName: string, shownValue: string): boolean {
  const [name, value] = [untruncated(shownName), shownValue.replace(CUT_SHORT, '')];
  if (!(SECRET_NAME_HINT.test(name) && isSecretName(name)) && !ROW_SECRET_NAMES.test(name)) return false;
  // Vault's tokens before 1.10 (`s.…`) read as a member's name.
  if (VAULT_LEGACY_TOKEN.test(value)) return true;
  // An identifier of words (`auth_id`, a struct's field beside its type's name) is no value either.
  if (/\s/.test(value) || /^[A-Za-z]+$/.test(value) || /^[a-z]+(?:_[a-z]+)+$/.test(value) || TYPE_CELL.test(value) || MEMBER_ACCESS.test(value) || REFERENCE_CELL.test(value)) return false;
  return isSecretValue(value, { quoted: false, form: 'literal', name, after: '' });
}

/** Rows' names that say a secret where a name alone would not: vault's AppRole `secret_id`. */
const ROW_SECRET_NAMES = /^secret_id$/;
/** A Vault service token of before 1.10, and its batch and recovery kinds. */
const VAULT_LEGACY_TOKEN = /^[sbr]\.[A-Za-z0-9]{24}$/;
/** How a console shows a value cut to its column: `…` (PowerShell 7) or `...` (5.1). */
const CUT_SHORT = /(?:…|\.\.\.)$/;
/** The words a secret's name ends with, of which a name cut to its column shows the start (`MY_DB_PASSW…`). */
const SECRET_WORDS_CUT = ['password', 'passphrase', 'secret', 'token', 'apikey', 'credentials'];

/** A name as it was before a console cut it to its column: its last word, if the start of a secret's word, made whole. */
function untruncated(name: string): string {
  if (!CUT_SHORT.test(name)) return name;
  const shown = name.replace(CUT_SHORT, '');
  const part = /[A-Za-z]{3,}$/.exec(shown)?.[0] ?? '';
  const word = part === '' ? undefined : SECRET_WORDS_CUT.find((whole) => whole.startsWith(part.toLowerCase()));
  return word === undefined ? shown : shown.slice(0, shown.length - part.length) + (part === part.toUpperCase() ? word.toUpperCase() : word);
}

/**
 * A table cell's value as a secret's: to a double quote, which ends the JSON string a command's
 * table was printed into (`… | pw"}`), so that what closes it stays; without the `…` of a value
 * a console cut to its column.
 */
function cellValue(cell: { start: number; text: string }): { start: number; text: string } {
  const quote = cell.text.indexOf('"');
  const text = (quote === -1 ? cell.text : cell.text.slice(0, quote).trimEnd()).replace(CUT_SHORT, '');
  return text === cell.text ? cell : { start: cell.start, text };
}

/**
 * A table drawn with box-drawing characters (doppler's, infisical's, railway's `│ NAME │ VALUE │`),
 * read as one drawn with pipes and dashes: each character for one, so places in it stay.
 */
function boxTableAsPipes(text: string): string {
  if (!/[\u2500-\u257f]/.test(text)) return text;
  return text.replace(/[\u2500-\u257f]/g, (c) => BOX_AS_ASCII[c.charCodeAt(0) - 0x2500] as string);
}

/** A box-drawing character as a table drawn in ASCII has it: a line across `-`, one down or a joint on one `|`, a corner or a joint across `+`. */
function boxAsAscii(code: number): string {
  const across = [0x2500, 0x2501, 0x2504, 0x2505, 0x2508, 0x2509, 0x254c, 0x254d, 0x2550, 0x2574, 0x2576, 0x2578, 0x257a, 0x257c, 0x257e];
  const down = [0x2502, 0x2503, 0x2506, 0x2507, 0x250a, 0x250b, 0x254e, 0x254f, 0x2551, 0x2575, 0x2577, 0x2579, 0x257b, 0x257d, 0x257f];
  if (across.includes(code)) return '-';
  if (down.includes(code)) return '|';
  // ├ … ┫, ┼ … ╋, ╞ … ╣, ╪ ╫ ╬: joints on a line down, between a row's cells.
  if ((code >= 0x251c && code <= 0x252b) || (code >= 0x253c && code <= 0x254b) || (code >= 0x255e && code <= 0x2563) || (code >= 0x256a && code <= 0x256c)) return '|';
  // Corners, ┬ ┴ and their kind, the diagonals: the table's frame.
  return code >= 0x2571 && code <= 0x2573 ? String.fromCharCode(code) : '+';
}

/** boxAsAscii of each of the 128 box-drawing characters, worked out once. */
const BOX_AS_ASCII = Array.from({ length: 0x80 }, (_, i) => boxAsAscii(0x2500 + i)).join('');

/** A key issued at random has many characters; a run of one (`0000…`, `AAAA…`) or of a few is a stand-in. */
function isVariedKey(value: string): boolean {
  return new Set(value).size >= 10;
}

/** An Azure AI resource's key as its field holds it: `"key1": "…"`, `key2: …`. */
const AZURE_AI_KEY_FIELD = String.raw`["']?[ \t]*:[ \t]*["']?([0-9a-fA-F]{32}|[A-Za-z0-9]{84})["']?${FIELD_END}`;
const AZURE_AI_KEYS = new RegExp(String.raw`^["']?key1${AZURE_AI_KEY_FIELD}["']?key2${AZURE_AI_KEY_FIELD}`);
const AZURE_AI_KEY1_BEFORE = new RegExp(String.raw`["']?key1${AZURE_AI_KEY_FIELD}$`);
const AZURE_AI_KEY2 = new RegExp(String.raw`^["']?key2${AZURE_AI_KEY_FIELD}`);

/**
 * Whether an Azure AI resource's `key1` at `start` has its `key2` right after it, or its `key2` its
 * `key1` right before, and the two differ: one alone, or two alike (a hash of nothing twice), may be anything's.
 */
function isBesideOtherAzureKey(text: string, start: number): boolean {
  if (!/^["']?key2/.test(text.slice(start, start + 5))) {
    const both = AZURE_AI_KEYS.exec(text.slice(start, start + 500));
    return both !== null && both[1] !== both[2];
  }
  const first = AZURE_AI_KEY1_BEFORE.exec(text.slice(Math.max(0, start - 250), start));
  const own = AZURE_AI_KEY2.exec(text.slice(start, start + 250));
  return first !== null && own !== null && first[1] !== own[1];
}

/** The rule of dashes under the header of a table lined up by blanks: `---   -----` (vault, PowerShell, sqlcmd, `az -o table`). */
const ALIGNED_RULE = /^[ \t]*-{2,}(?:[ \t]+-{2,})+[ \t]*\r?$/gm;
/** Two runs of dashes with blanks between, as a rule has: looked for before the rule's lines are. */
const ALIGNED_RULE_HINT = /--[ \t]+--/;
/** The same rule as one line is tested, its `\r` already taken off. */
const ALIGNED_RULE_LINE = new RegExp(ALIGNED_RULE.source);
/** Columns of a lined-up table at most: a command's output; a rule of more is a line of dashes. */
const ALIGNED_COLUMNS = 40;
/** Rows of one lined-up table read at most: a command's output, not a whole log. */
const ALIGNED_ROWS = 2000;
/** Its header's column of names when its rows are names and their values: vault's `Key  Value`, PowerShell's `Name  Value` (`Get-ChildItem Env:`), `az … keys list -o table`'s `KeyName … Value`. */
const NAME_HEADER = /^(?:key|name|field|variable|setting|property|key ?name)$/i;
/** The name `az storage account keys list` gives each key: its row's value is the key. */
const AZURE_KEY_NAME = /^(?:key|kerb)\d$/;
/**
 * Azure's columns of keys, as `az … -o table` and its PowerShell cmdlets print them: `PrimaryKey`
 * and `SecondaryKey` (`az redis list-keys`, Service Bus's and Event Hubs' `keys list`), their
 * connection strings, an Azure AI resource's `Key1` and `Key2`.
 */
const AZURE_KEY_HEADER = /^(?:(?:primary|secondary)(?:key|connection ?string)|key[12])$/i;

/** An Azure key as a table shows it: base64 of 40 characters or more, or an Azure AI key's 32 hex digits; varied, no stand-in. */
function isAzureTableKey(value: string): boolean {
  return (/^[A-Za-z0-9+/]{40,200}={0,2}$/.test(value) || /^[0-9a-fA-F]{32}$/.test(value) || /^Endpoint=sb:\/\/\S+;SharedAccessKey=\S+$/.test(value)) && isVariedKey(value);
}

/**
 * A table lined up by blanks under a rule of dashes, as command-line tools print them: vault's
 * `Key  Value` rows (`vault kv get`, `vault read database/creds/…`), PowerShell's environment
 * (`Name  Value`), a query's columns in sqlcmd or `az … -o table`. Where its header says its rows
 * are names and values, a row's value beside a secret's name (or an Azure storage key's); and each
 * value in a column whose header names a secret or Azure's keys (`PrimaryKey`, `Key1`). Its cells
 * are where the rule's dashes are; a row whose cell runs into the next column is not read.
 */
function alignedTableValues(text: string): Found[] {
  const found: Found[] = [];
  if (!ALIGNED_RULE_HINT.test(text)) return found;
  ALIGNED_RULE.lastIndex = 0;
  for (let m = ALIGNED_RULE.exec(text); m; m = ALIGNED_RULE.exec(text)) {
    if (m.index < 2) continue;
    const headStart = text.lastIndexOf('\n', m.index - 2) + 1;
    const columns = [...m[0].matchAll(/-+/g)].map((run) => run.index);
    if (columns.length > ALIGNED_COLUMNS) continue;
    const names = cellsAt(text.slice(headStart, m.index - 1).replace(/\r$/, ''), columns)?.map((cell) => cell.text);
    // Each header's cell names its column (`-- ------` under a comment is a banner, no table).
    if (names === undefined || names.some((name) => !/[A-Za-z0-9]/.test(name))) continue;
    const nameColumn = names.findIndex((name) => NAME_HEADER.test(name));
    const valueColumn = names.findIndex((name) => /^values?$/i.test(name));
    const byName = nameColumn !== -1 && valueColumn > nameColumn;
    // A column's header naming a secret, numbered too (`az acr credential show`'s PASSWORD2).
    const secret = names.flatMap((name, column) => (SECRET_NAME_HINT.test(name) && isSecretName(name.replace(/\d$/, '')) ? [column] : []));
    const azure = names.flatMap((name, column) => (AZURE_KEY_HEADER.test(name) ? [column] : []));
    if (!byName && secret.length === 0 && azure.length === 0) continue;
    for (let at = m.index + m[0].length + 1, rows = 0; at < text.length && rows < ALIGNED_ROWS; rows++) {
      const end = text.indexOf('\n', at);
      const stop = end === -1 ? text.length : end;
      const line = text.slice(at, stop).replace(/\r$/, '');
      // A blank line ends it, and another rule (the line above it was the next table's header):
      // each line is read as one table's row at most.
      if (line.trim() === '' || ALIGNED_RULE_LINE.test(line)) break;
      const shown = cellsAt(line, columns);
      const cells = shown?.map(cellValue) ?? null;
      const rowStart = at;
      const pick = (cell: { start: number; text: string } | undefined, kind?: string) => cell !== undefined && found.push({ start: rowStart + cell.start, end: rowStart + cell.start + cell.text.length, ...(kind === undefined ? {} : { kind }) });
      at = stop + 1;
      if (cells === null) continue;
      // A name as shown: a console's `…` says it was cut (see untruncated).
      const [name, value] = [shown?.[nameColumn]?.text ?? '', cells[valueColumn]?.text ?? ''];
      if (byName && AZURE_KEY_NAME.test(name) && isAzureTableKey(value)) pick(cells[valueColumn], 'azure-key');
      else if (byName && isRowSecret(name, value)) pick(cells[valueColumn]);
      for (const column of secret) if (isColumnSecret((names[column] as string).replace(/\d$/, ''), cells[column]?.text ?? '')) pick(cells[column]);
      for (const column of azure) if (isAzureTableKey(cells[column]?.text ?? '')) pick(cells[column], 'azure-key');
    }
  }
  return found;
}

/** A record's header in psql's expanded display (`\x`, `psql -x`): `-[ RECORD 1 ]-----+-----`. */
const EXPANDED_RECORD = /^-\[ RECORD \d+ \]-*(?:\+-*)?\r?$/gm;
/** One of its lines: a column's name, a pipe, its value. */
const EXPANDED_FIELD = /^([A-Za-z_][\w$]{0,62})[ \t]*\|[ \t]?(.*?)\r?$/;

/** The values psql's expanded display shows beside a secret's name (`password | …`), record by record, each line read once. */
function expandedRecordValues(text: string): Found[] {
  const found: Found[] = [];
  if (!text.includes('[ RECORD ')) return found;
  EXPANDED_RECORD.lastIndex = 0;
  for (let m = EXPANDED_RECORD.exec(text); m; m = EXPANDED_RECORD.exec(text)) {
    for (let at = m.index + m[0].length + 1; at < text.length; ) {
      const end = text.indexOf('\n', at);
      const stop = end === -1 ? text.length : end;
      const field = EXPANDED_FIELD.exec(text.slice(at, stop));
      if (field === null) break;
      const [, name = '', shown = ''] = field;
      const value = cellValue({ start: field[0].length - shown.length - (field[0].endsWith('\r') ? 1 : 0), text: shown });
      if (isRowSecret(name, value.text)) found.push({ start: at + value.start, end: at + value.start + value.text.length });
      at = stop + 1;
    }
  }
  return found;
}

/** A lined-up row's cells, trimmed, from where each column starts (the last to the line's end; none past the line's end); null where one runs into the next. */
function cellsAt(line: string, columns: readonly number[]): { start: number; text: string }[] | null {
  const cells: { start: number; text: string }[] = [];
  for (let i = 0; i < columns.length; i++) {
    const from = columns[i] as number;
    // The rest of the columns are empty: a short row costs its own length, not the rule's.
    if (from >= line.length) break;
    const to = columns[i + 1] ?? line.length;
    if (from > 0 && !isBlank(line.charCodeAt(from - 1))) return null;
    const raw = line.slice(from, to);
    cells.push({ start: from + (raw.length - raw.trimStart().length), text: raw.trim() });
  }
  return cells;
}

/** A table's rule in a text: Markdown's `|-`, or a database client's joint between dashes (`-+-`). */
const TABLE_RULE_HINT = /\|[ \t]*:?-|-\+-/;

/** A table cell that names where a secret is kept, or when: an ARN, a path, a resource's name, a URL, a time. */
const REFERENCE_CELL = /^(?:arn:|projects\/|\/|~\/|\.{1,2}\/|[a-z][a-z0-9+.-]*:\/\/|\d{4}-\d{2}-\d{2})/i;

/**
 * A type or a size in an API reference's column: `Option<String>`, `Uint8Array`, `bytes32`,
 * `32-byte`, `HS256`, `uuid4`.
 */
const TYPE_CELL = /^(?:[A-Za-z_][\w.]*(?:<[^<>]*>|\[\])[!?]?|(?:u?int|bytes|float|Uint|Int|Float)\d+(?:Array)?|\d+[-_ ]?(?:bytes?|bits?|chars?|characters)|[HRE]S\d{3}|argon2\w*|bcrypt[\w-]*|base64\w*|uuid(?:v?\d)?|(?:min|max)[-_]\w+=?\w*|ttl[:=]\d+)$/i;

/**
 * A type with a mark, as GraphQL and nullable types are written (`String!`, `ERC20!`, `Int64?`):
 * a type only in a table whose column says it holds types. A password looks the same (`Password1!`).
 */
const MARKED_TYPE = /^[A-Za-z_]\w*[!?]$/;
/**
 * Without a header to say what a column holds, a marked word with digits (`Passw0rd1!`,
 * `Hunter22!`) is the password people choose; one without (`AuthPayload!`, `Required?`), or whose
 * digits are a type's (`ERC20!`, `Int64?`, `Ed25519Key!`), a type or a word.
 */
const CHOSEN_PASSWORD = /^(?!(?:U?Int|Uint|Float|Double|Decimal|Bytes?|Base|Vec(?:tor)?|Utf|UTF|Sha|SHA|Md|MD|Secp|Ed|X|Curve|Keccak|Hash|Blake|Hex|OAuth|ERC|UUID|JWT|RSA|AES|HS|RS|ES|CRC|Bech|Word|Date|Timestamp|Point|Web|S|P|K|U|I|F)(?:\d{1,3}|1024|2048|4096|25519|448)(?:[a-z]\d*)?(?:Array|Key|PrivateKey|PublicKey|Signature|URL|Url|String|Check|D|Bucket|Provider|Address|Hash)?[!?]$)\w*\d\w*[!?]$/;
/** A table's column of types: "Type", "Kind", "Format", "Returns", "Data type". */
const TYPE_HEADER = /^(?:(?:data|field|value|return|graphql|ts|js)[ _-]?)?(?:types?|kinds?|formats?|schema|returns?)$/i;

/**
 * Each table's header and where the table runs (from its header line to its last row), in text
 * order: what a row's cells are, told by its table's header.
 */
interface TextTable {
  start: number;
  end: number;
  /** Its header's cells. */
  names: string[];
  /** Its rows' lines, after the rule. */
  rows: { start: number; text: string }[];
}

function tablesOf(text: string): TextTable[] {
  const tables: TextTable[] = [];
  if (!TABLE_RULE_HINT.test(text)) return tables;
  const lines = linesOf(text);
  for (let i = 0; i + 1 < lines.length; i++) {
    const head = lines[i] as { start: number; text: string };
    if (!head.text.includes('|') || !TABLE_RULE.test((lines[i + 1] as { text: string }).text)) continue;
    const names = tableCells(head.text.slice(TABLE_LINE_PREFIX.exec(head.text)?.[0].length ?? 0)).map((cell) => cell.text.replace(/^[`*]+|[`*]+$/g, ''));
    let j = i + 2;
    while (j < lines.length && (lines[j] as { text: string }).text.includes('|')) j++;
    const last = lines[j - 1] as { start: number; text: string };
    tables.push({ start: head.start, end: last.start + last.text.length, names, rows: lines.slice(i + 2, j) });
    i = j - 1;
  }
  return tables;
}

function linesOf(text: string): { start: number; text: string }[] {
  const lines: { start: number; text: string }[] = [];
  for (let start = 0; start <= text.length; ) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    lines.push({ start, text: text.slice(start, stop) });
    start = stop + 1;
  }
  return lines;
}

/** A name of a password, as opposed to a key's or a token's: a chosen word is its value, not only one that looks issued. */
function isPasswordName(name: string): boolean {
  return nameWords(name).some((word) => /^(?:password|passwd|passphrase|passcode|pwd|pass)$/.test(word) || /(?:password|passwd|passphrase)$/.test(word));
}

/**
 * A value that looks made to be secret rather than named: letters and digits, at least eight, and
 * both cases or a sign a name does not hold; or a key's hex, a UUID among them (16 and more hex
 * digits and dashes).
 */
function looksIssued(value: string): boolean {
  if (/^(?=(?:[0-9a-f]-?){16,}$)(?=.*\d)(?=.*[a-f])[0-9a-f-]+$/i.test(value)) return true;
  if (value.length < 8 || !/\d/.test(value) || !/[A-Za-z]/.test(value)) return false;
  return (/[a-z]/.test(value) && /[A-Z]/.test(value)) || /[^A-Za-z0-9_.-]/.test(value) || (value.length >= 20 && !/[_.-]/.test(value));
}

/** A table row's cells, trimmed, each with where it starts in the row (a row's outer pipes are no cells). */
function tableCells(row: string): { start: number; text: string }[] {
  const cells: { start: number; text: string }[] = [];
  let from = 0;
  for (let at = 0; at <= row.length; at++) {
    if (at < row.length && (row[at] !== '|' || row[at - 1] === '\\')) continue;
    const raw = row.slice(from, at);
    const lead = raw.length - raw.trimStart().length;
    cells.push({ start: from + lead, text: raw.trim() });
    from = at + 1;
  }
  // A leading or trailing pipe leaves an empty cell outside the table.
  if (cells[0]?.text === '' && /^[ \t]*\|/.test(row)) cells.shift();
  if (cells.at(-1)?.text === '' && /\|[ \t]*$/.test(row)) cells.pop();
  return cells;
}

/** `Cookie:` headers and curl's `-b`/`--cookie` with pairs (a file name has no `=`). */
// A header's value may be a JSON list of one (`"set-cookie": ["sid=…; Path=/"]`, as Node writes it).
const COOKIE_LIST = /(?:\b(Set-)?Cookie["']?[ \t]*:[ \t]*\[?|(?<![\w-])(?:-b|--cookie)(?:[ \t]+|=))[ \t]*["']?([^\n"']{1,4000})/gi;
/** A cookie's name and value in a list: `name=value`, up to `;`. */
const COOKIE_PAIR = /([^\s=;,]{1,200})=([^;\s]{1,4000})/g;

function cookieValues(text: string): Found[] {
  const found: Found[] = [];
  if (!/cookie|-b[ \t]/i.test(text)) return found;
  COOKIE_LIST.lastIndex = 0;
  for (let m = COOKIE_LIST.exec(text); m; m = COOKIE_LIST.exec(text)) {
    const list = m[2] ?? '';
    const listStart = m.index + m[0].length - list.length;
    COOKIE_PAIR.lastIndex = 0;
    for (let pair = COOKIE_PAIR.exec(list); pair; pair = COOKIE_PAIR.exec(list)) {
      const value = pair[2] ?? '';
      if (isIssuedValue(value)) {
        const start = listStart + pair.index + pair[0].length - value.length;
        found.push({ start, end: start + value.length });
      }
      // Set-Cookie's first pair is the cookie; the rest are its attributes.
      if (m[1] !== undefined) break;
    }
  }
  return found;
}

/** A value that looks issued by a server (a session id, a token), not a setting (`theme=dark`, `lang=en-US`) or a reference. */
function isIssuedValue(value: string): boolean {
  const bare = value.replace(/^"|"$/g, '');
  return bare.length >= 8 && (/\d/.test(bare) || bare.length >= 16) && !/^\d+$/.test(bare) && !PLACEHOLDER.test(bare) && !REFERENCE.test(bare) && !bare.startsWith('[REDACTED:');
}

/**
 * A bare word given to an archiver's or openssl's flag after a blank: one word of prose (`zip -P
 * is insecure`, `unzip -P to pass it`) is none; a password has more than lower-case letters.
 */
function isFlagPassword(value: string): boolean {
  return isLiteralPassword(value) && (/[^a-z]/.test(value) || value.length >= 12);
}

/** A name field naming a secret: its key bare (`{ name: … }`, code's) or in JSON's double quotes. */
interface PairName {
  at: number;
  name: string;
  bare: boolean;
  json: boolean;
}

/** `{"name": "DB_PASSWORD", "value": "…"}` and its other spellings, either way round, in text. */
/**
 * A field of such an object as JSON, a Python dict printed (`'Name': '…'`) or a JavaScript one
 * (`{ name: 'DB_PASSWORD', value: '…' }`): its key quoted either way or bare, its value quoted.
 */
const pairField = (keys: readonly string[], value: string) =>
  String.raw`(?:"(?:${keys.join('|')})"|'(?:${keys.join('|')})'|(?<![\w$.-])(?:${keys.join('|')}))\s*:\s*(?:"(${value.replaceAll('Q', '"')})"|'(${value.replaceAll('Q', "'")})')`;
const PAIR_NAME_FIELD = pairField(PAIR_NAMES, String.raw`[^Q\n]{1,200}`);
const PAIR_VALUE_FIELD = pairField([...PAIR_VALUES], String.raw`(?:[^Q\\\n]|\\.){1,2000}`);
const JSON_PAIR_VALUE = new RegExp(PAIR_VALUE_FIELD, 'dg');
const JSON_PAIR_NAME = new RegExp(PAIR_NAME_FIELD, 'g');
/** How far an object's braces are looked for around its value. */
const OBJECT_REACH = 4000;
/**
 * A container's environment in YAML: `- name: API_TOKEN` (or `Name:`, `key:`, `ParameterKey:`),
 * then `value: …` on the next line or after up to three fields of one line (`aws ssm … --output
 * yaml`: `Name:`, `Type:`, `Value:`); its value quoted either way or bare.
 */
const YAML_NAME_VALUE = /^[ \t]*-?[ \t]*(?:name|Name|key|Key|ParameterKey|ParameterName):[ \t]*(["']?)([^\s"'#]{1,200})\1[ \t]*\r?\n(?:[ \t]*[A-Za-z][\w-]{0,40}:[ \t]*[^\s|>][^\n]{0,200}\r?\n){0,3}?[ \t]*(?:value|Value|ParameterValue):[ \t]*(?:"((?:[^"\\\n]|\\.){1,2000})"(?:[ \t]+#[^\n]*)?|'((?:[^'\n]|''){1,2000})'(?:[ \t]+#[^\n]*)?|([^\s"'#|>](?:[^\n]{0,2000}[^\s])?))[ \t]*$/dgm;

/**
 * The same in YAML's flow style: `- {name: DB_PASSWORD, value: …}`, each bare or quoted, the name
 * a variable's (it reads as JavaScript too); a bare value ends with no blank (read lazily to the
 * brace, blanks without one cost their square).
 */
const YAML_FLOW_NAME_VALUE = /\{[ \t]*(?:name|Name|key|Key):[ \t]*(["']?)([^\s,{}"']{1,200})\1[ \t]*,[ \t]*(?:value|Value):[ \t]*(?:"([^"\n]{1,2000})"|'([^'\n]{1,2000})'|([^\s,{}"'](?:[^,{}\n]{0,2000}[^\s,{}])?))[ \t]*(?:,[ \t]*)?\}/dg;

function pairedValues(text: string): Found[] {
  if (!/name|key|Parameter/i.test(text) || !SECRET_NAME_HINT.test(text)) return [];
  return [...jsonPairValues(text), ...valuesNamedBy(text, [[YAML_NAME_VALUE, 2, [3, 4, 5]], [YAML_FLOW_NAME_VALUE, 2, [3, 4, 5], (name, value, group) => isSecretName(name) && isVariablesSecret(name, value, group === 5)]])];
}

/**
 * In JSON text, each value field (`"value"`, `"Value"`, `"ParameterValue"` …) of an object any of
 * whose name fields names a secret, whatever fields are between them and in whichever order.
 */
function jsonPairValues(text: string): Found[] {
  // The name fields naming a secret, found once: a value with none within reach has no object to
  // look for (a run of `"name":"x","value":"…"` looked 4,000 characters each way for each value).
  const secretNames: PairName[] = [];
  JSON_PAIR_NAME.lastIndex = 0;
  for (let n = JSON_PAIR_NAME.exec(text); n; n = JSON_PAIR_NAME.exec(text)) {
    const name = n[1] ?? n[2] ?? '';
    const bare = isBareKey(n[0]);
    if (SECRET_NAME_HINT.test(name) && isSecretName(name) && (!bare || VARIABLE_NAME.test(name))) secretNames.push({ at: n.index, name, bare, json: n[0][0] === '"' });
  }
  if (secretNames.length === 0) return [];
  const found: Found[] = [];
  let near = 0;
  /** Lists under `"values"` looked at, each with the name field of the object holding it. */
  const valuesLists = /["']values["']/.test(text) ? new Map<number, PairName | null>() : null;
  JSON_PAIR_VALUE.lastIndex = 0;
  for (let m = JSON_PAIR_VALUE.exec(text); m; m = JSON_PAIR_VALUE.exec(text)) {
    const at = m.indices?.[1] ?? m.indices?.[2];
    if (at === undefined) continue;
    while ((secretNames[near]?.at ?? Infinity) < m.index - OBJECT_REACH) near++;
    if ((secretNames[near]?.at ?? Infinity) > m.index + OBJECT_REACH) continue;
    const [from, to] = enclosingObject(text, m.index);
    // The first name field of the object naming a secret (the object lies within reach of the value).
    const named = firstOwnField(text, from, to, secretNames, near) ?? (valuesLists === null ? null : listOwnersField(text, from, secretNames, near, valuesLists));
    const value = text.slice(at[0], at[1]);
    // JSON's (`"name": "dbPassword", "value": "dragonfly"`) is data, not code: only a label is kept.
    const json = named?.json === true && m[0][0] === '"';
    if (named === null || value.startsWith('[REDACTED:') || ((named.bare || VARIABLE_NAME.test(named.name)) && !isVariablesSecret(named.name, value, false, json))) continue;
    if (!isSecretValue(value, { quoted: true, form: 'literal', name: named.name, after: '' })) continue;
    found.push({ start: at[0], end: at[1] });
  }
  return found;
}

/**
 * The first of the fields (in text order, from `first` on) that is the object's own at `[from,
 * to)`, not one of an object or a list inside it (`"meta": {"name": "password"}`); the object read
 * once from its brace, its strings in either quote passed over. Where no brace opens it (`from` is
 * only as far as was looked), the first field within it.
 */
function firstOwnField<T extends { at: number }>(text: string, from: number, to: number, fields: readonly T[], first: number): T | null {
  let depth = 0;
  let quote: string | null = null;
  let read = from + 1;
  const regexEnd = regexLiterals(text, to);
  for (let i = first, field = fields[i]; field !== undefined && field.at < to; field = fields[++i]) {
    if (field.at < from) continue;
    if (text[from] !== '{') return field;
    for (; read < field.at; read++) {
      const c = text[read];
      if (quote !== null) {
        if (c === '\\') read++;
        else if (c === quote) quote = null;
      } else if (c === '/' || c === '#') {
        // A comment's apostrophe (`// don't commit`) opens no string, nor a regex's brace (`/[{]/`) an object.
        const end = commentEnd(text, read, to) ?? regexEnd(read);
        if (end !== null) read = end - 1;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
    }
    // A field in a comment (`// name: 'DB_PASSWORD'`) is none.
    if (read > field.at) continue;
    if (depth === 0 && quote === null) return field;
  }
  return null;
}

/**
 * Netlify's variables hold their values in a list beside the name (`{"key": "API_TOKEN",
 * "values": [{"value": "…", "context": "all"}]}`): for an object in a list under `"values"`, the
 * first secret's name field of the object holding that list, found once a list (`lists`).
 */
function listOwnersField<T extends { at: number }>(text: string, from: number, fields: readonly T[], near: number, lists: Map<number, T | null>): T | null {
  if (text[from] !== '{') return null;
  const list = listOpening(text, from);
  if (list === -1) return null;
  const known = lists.get(list);
  if (known !== undefined) return known;
  let owner: T | null = null;
  if (/["']values["'][ \t]*:[ \t]*$/.test(text.slice(Math.max(0, list - 20), list))) {
    const [ownerFrom, ownerTo] = enclosingObject(text, list);
    let first = near;
    while (first > 0 && (fields[first - 1] as T).at >= ownerFrom) first--;
    owner = firstOwnField(text, ownerFrom, ownerTo, fields, first);
  }
  lists.set(list, owner);
  return owner;
}

/** How far back an item's list is looked for: a variable has a value for each of a few contexts. */
const LIST_REACH = 600;

/** The `[` of the list an item at `at` is in (before it, within LIST_REACH), or -1 where it is in none (an object's field, or too far). */
function listOpening(text: string, at: number): number {
  const low = Math.max(0, at - LIST_REACH);
  for (let i = at - 1, depth = 0, inString = false; i >= low; i--) {
    const c = text[i];
    if (c === '"' && !escapedAt(text, i)) inString = !inString;
    else if (inString) continue;
    else if (c === '}' || c === ']') depth++;
    else if (c === '{' || c === '[') {
      if (depth === 0) return c === '[' ? i : -1;
      depth--;
    }
  }
  return -1;
}

/**
 * Under a bare key (`{ name: '…' }`, an object as JavaScript prints it) the secret's name is a
 * variable's or a parameter's (`DB_PASSWORD`, `/prod/db/password`, `dbPassword`, `db_password`):
 * code's own tables name their fields in words (`{ key: 'password', value: 'Passwort' }`, a
 * form's, a locale's).
 */
const VARIABLE_NAME = /^(?:[A-Z][A-Z0-9_]*|\/[\w./-]+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+)$/;
const ENVIRONMENT_NAME = /^(?:[A-Z][A-Z0-9_]*|\/[\w./-]+)$/;

/**
 * Whether a variable's name and its value are a variable's secret: a variable in lower case names
 * code's fields as often (`{ name: 'auth_token', value: 'session' }`), so under it a word of up
 * to twelve small letters, a label (`Neues Passwort`, `Forgot-your-password`, `Bearer Token`)
 * and, not quoted, code (`config.db.password`, `getSecret('db')`) are no secret; under an
 * environment's name (`DB_PASSWORD`) any value is but its environment's (`process.env.NPM_TOKEN`).
 * In JSON (`json`: data, not code) only a label is kept: `"value": "dragonfly"` is a password.
 */
function isVariablesSecret(name: string, value: string, bare = false, json = false): boolean {
  if (ENVIRONMENT_NAME.test(name)) return !(bare && ENV_ACCESS.test(value));
  if (!VARIABLE_NAME.test(name) || isWordsLabel(value)) return false;
  // A schema's type or an API key's place (`{"name": "api_key", "in": …, "value": "header"}`) is no secret in JSON either.
  if (json) return !TYPE_NAMES.has(value) && !PARAMETER_PLACES.has(value);
  return !/^[a-z]{1,12}$/.test(value) && !(bare && CODE_VALUE.test(value));
}

/**
 * A form's or a locale's label: a few words after a capital, between blanks or joined by hyphens
 * or underscores, one of them whole naming what it labels (`Neues Passwort`, `Bearer Token`,
 * `Forgot-your-password`, `API-Key`). Not a generated pass phrase (`Correct Horse Battery
 * Staple`, `Unmasked-Crazily-Retold-Gravity`), nor one holding such a word in another
 * (`Whiskey-Orbit`, `Compass_River`: a review found them kept).
 */
function isWordsLabel(value: string): boolean {
  if (!/^[A-Z][A-Za-z]*(?:(?: |[-_])[A-Za-z]+){1,5}$/.test(value)) return false;
  // What it labels ends it (`Enter your password`, `Mot de passe`), opens a short one (`Password
  // reset link`), or stands in a sentence (`API key for staging`); amid capitalised words it is a
  // pass phrase's (`Tiger Key Lamp Canyon`).
  const words = value.split(/[ _-]/);
  const labelled = (word: string | undefined) => word !== undefined && LABEL_WORDS.has(word.toLowerCase());
  if (labelled(words.at(-1)) || (words.length <= 3 && labelled(words[0]))) return true;
  return / /.test(value) && words.slice(2).every((word) => /^[a-z]/.test(word)) && words.some((word) => SENTENCE_WORDS.has(word)) && words.some(labelled);
}
/** Small words a description's sentence holds and a pass phrase seldom does (`API key for staging`). */
const SENTENCE_WORDS = new Set(['for', 'of', 'to', 'the', 'a', 'an', 'in', 'on', 'with', 'from', 'by', 'used', 'your', 'this', 'de', 'du', 'le', 'la', 'der', 'die', 'das', 'für', 'zum', 'del', 'para']);
/** The words a label of a secret's field uses, in the languages its forms are often in. */
const LABEL_WORDS = new Set(['password', 'passwort', 'passphrase', 'passcode', 'passe', 'pass', 'pwd', 'kennwort', 'wachtwoord', 'senha', 'secret', 'token', 'jeton', 'key', 'pin', 'code']);
/**
 * A call (`getSecret('db')`, `Vault.read(…)`) or a member read of words (`secret.value`,
 * `config.db.password`), not a password with a dot (`Xq7.vR2pLm9`): its first word in small
 * letters, any digits at a word's end.
 */
const CODE_VALUE = /^(?:[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\([^()\n]*\)|[a-z_$][A-Za-z_$]*\d*(?:\.[A-Za-z_$][A-Za-z_$]*\d*)+)$/;

function isBareKey(field: string): boolean {
  return field[0] !== '"' && field[0] !== "'";
}

/**
 * The braces around `at` (the object it is in, `at` outside its strings), counting nested ones,
 * within OBJECT_REACH; the text's ends where none is found. A brace in a string (`"note": "see
 * {docs"`) is no object's.
 */
/**
 * A JSON Web Key's private members: `d` (RSA's private exponent, EC's and OKP's private key), RSA's
 * primes and their CRT values, a symmetric key's `k`; in an object whose own member says its key
 * type (`"kty"`), as `generateKeyPair(…).export({ format: 'jwk' })` and a JWKS file hold them. An
 * object around one (`{"jwk": {…}, "p": …}`) is no key.
 */
const JWK_PRIVATE_MEMBERS: ReadonlySet<string> = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']);
/** Its key type's member, its name quoted (JSON, Python) or bare (a JavaScript object literal's). */
const JWK_KEY_TYPE = /(?:["']kty["']|(?<![\w$.])kty)[ \t]*:/g;

function jwkPrivateMembers(text: string): Found[] {
  const found: Found[] = [];
  if (!text.includes('kty')) return found;
  // Each object is read once, from the first key type in it: one inside it is its own object's, read apart.
  let readTo = -1;
  JWK_KEY_TYPE.lastIndex = 0;
  for (let m = JWK_KEY_TYPE.exec(text); m; m = JWK_KEY_TYPE.exec(text)) {
    if (m.index < readTo) continue;
    const [from, to] = enclosingObject(text, m.index);
    readTo = to;
    if (text[from] === '{') found.push(...ownPrivateMembers(text, from, to));
  }
  return found;
}

/** The private members of the JWK object at `[from, to)`, when one of its own members is `kty`: its text read once, strings and inner objects passed over. */
function ownPrivateMembers(text: string, from: number, to: number): Found[] {
  const members: Found[] = [];
  let keyType = false;
  let depth = 0;
  /** The last string read at depth 0 before a colon: a member's name, until its value is read. */
  let name: string | null = null;
  let afterColon = false;
  for (let i = from + 1; i < to - 1; i++) {
    const c = text[i] as string;
    if (c === '"' || c === "'") {
      let end = i + 1;
      while (end < to && text[end] !== c) end += text[end] === '\\' ? 2 : 1;
      if (depth === 0) {
        const value = text.slice(i + 1, end);
        if (afterColon && name !== null) {
          if (JWK_PRIVATE_MEMBERS.has(name) && /^[A-Za-z0-9_-]{16,}={0,2}$/.test(value)) members.push({ start: i + 1, end });
          name = null;
          afterColon = false;
        } else name = value;
        if (value === 'kty' && !afterColon) keyType = keyType || /^[ \t]*:/.test(text.slice(end + 1, end + 20));
      }
      i = end;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (depth === 0 && !afterColon && name === null && isNameStart(c) && !isNameChar(text[i - 1] ?? '')) {
      // A bare name, a JavaScript object literal's (`{ kty: 'RSA', d: '…' }`): a member's where a colon follows.
      let end = i + 1;
      while (end < to && isNameChar(text[end] as string)) end++;
      if (/^[ \t]*:/.test(text.slice(end, end + 20))) {
        name = text.slice(i, end);
        keyType = keyType || name === 'kty';
      }
      i = end - 1;
    } else if (depth === 0 && c === ':') afterColon = name !== null;
    else if (depth === 0 && c === ',') [name, afterColon] = [null, false];
  }
  return keyType ? members : [];
}

function isNameStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$';
}

function isNameChar(c: string): boolean {
  return isNameStart(c) || (c >= '0' && c <= '9');
}

function enclosingObject(text: string, at: number): [number, number] {
  const low = Math.max(0, at - OBJECT_REACH);
  const high = Math.min(text.length, at + OBJECT_REACH);
  let from = low;
  for (let i = at - 1, depth = 0, inString = false; i >= low; i--) {
    const c = text[i];
    if (c === '"' && !escapedAt(text, i)) inString = !inString;
    else if (inString || isPatternBrace(text, i)) continue;
    else if (c === '}') depth++;
    else if (c === '{' && depth-- === 0) {
      from = i;
      break;
    }
  }
  let to = high;
  for (let i = at, depth = 0, inString = false; i < high; i++) {
    const c = text[i];
    if (c === '\\' && inString) i++;
    else if (c === '"') inString = !inString;
    else if (inString) continue;
    else if (c === '{') depth++;
    else if (c === '}' && depth-- === 0) {
      to = i + 1;
      break;
    }
  }
  return [from, to];
}

/** A brace a regex matches (`\{`, `[{]`), not one that opens or closes an object: read backwards, a regex literal is not told apart. */
function isPatternBrace(text: string, at: number): boolean {
  return text[at - 1] === '\\' || (text[at - 1] === '[' && text[at + 1] === ']');
}

/** A quote at `at` is escaped: an odd number of backslashes before it. */
function escapedAt(text: string, at: number): boolean {
  let slashes = 0;
  while (at - slashes - 1 >= 0 && text[at - slashes - 1] === '\\') slashes++;
  return slashes % 2 === 1;
}

/**
 * The values a pattern's match names by a secret's name: each pattern, the group of the name, and
 * the groups its value may be in (the first that matched). A value is taken without the blanks
 * around it, and not where it is redaction's placeholder already.
 */
function valuesNamedBy(text: string, shapes: readonly (readonly [RegExp, number | readonly number[], readonly number[], ((name: string, value: string, group: number) => boolean)?])[]): Found[] {
  const found: Found[] = [];
  for (const [pattern, nameGroup, valueGroups, named = isSecretName] of shapes) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const name = [nameGroup].flat().map((g) => m?.[g]).find((n) => n !== undefined) ?? '';
      const group = valueGroups.find((g) => m?.[g] !== undefined);
      const at = group === undefined ? undefined : m.indices?.[group];
      if (at === undefined || !SECRET_NAME_HINT.test(name)) continue;
      const raw = text.slice(at[0], at[1]);
      const value = raw.trim();
      if (!named(name, value, group as number) || value.startsWith('[REDACTED:') || !isSecretValue(value, { quoted: true, form: 'literal', name, after: '' })) continue;
      const start = at[0] + raw.indexOf(value);
      found.push({ start, end: start + value.length });
    }
  }
  return found;
}

/** An element whose name says it holds a secret, on one line: `<password>…</password>`, its value plain or in CDATA. */
const XML_ELEMENT = /<([A-Za-z_][\w.:-]{0,100})(?:[ \t][^<>\n]{0,200})?>(?:<!\[CDATA\[([^\]\n]{1,2000})\]\]>|([^<\n]{1,2000}))<\/\1>/dg;
/**
 * A key named by an attribute, its value by the other, in either order: `<add key="ApiKey"
 * value="…"/>`; each quoted either way (`value="it's"`), with at most sixteen attributes between
 * (more made each `name=` of a long tag try all the rest: seconds on one tag).
 */
const XML_KEY_VALUE = /\b(?:key|name)=(?:"([^"\n]{1,100})"|'([^'\n]{1,100})')(?:[ \t]+[\w:.-]{1,40}=(?:"[^"\n]{0,200}"|'[^'\n]{0,200}')){0,16}[ \t]+value=(?:"([^"\n]{1,2000})"|'([^'\n]{1,2000})')/dg;
const XML_VALUE_KEY = /\bvalue=(?:"([^"\n]{1,2000})"|'([^'\n]{1,2000})')[ \t]+(?:key|name)=(?:"([^"\n]{1,100})"|'([^'\n]{1,100})')/dg;
/** An element named by its attribute, its value its text: `<property name="hibernate.connection.password">…</property>`, `<entry key="api_token">…</entry>`. */
const XML_NAMED_ELEMENT = /<([A-Za-z_][\w.:-]{0,100})[ \t](?:[^<>\n]{0,200}?[ \t])?(?:key|name)=(["'])([^"'\n]{1,100})\2[^<>\n]{0,200}>(?:<!\[CDATA\[([^\]\n]{1,2000})\]\]>|([^<\n]{1,2000}))<\/\1>/dg;

/**
 * Hadoop's and Hive's `<property><name>…password</name><value>…</value></property>`, a description
 * between or the value on a line of its own; the name and the value start and end with no blank,
 * so the blanks around them are read one way only (read either way, an unclosed <value> of blanks
 * cost the cube of their number, and a <name> of blanks too).
 */
const XML_NAME_THEN_VALUE = /<name>[ \t]*([^<\s](?:[^<\n]{0,198}[^<\s])?)[ \t]*<\/name>\s{0,200}(?:<(description|final|source)>[^<]{0,1000}<\/\2>\s{0,200})?<value>\s{0,200}(?:<!\[CDATA\[([^\]\n]{1,2000})\]\]>|([^<\s](?:[^<\n]{0,2000}[^<\s])?))\s{0,200}<\/value>/dg;

/** A few XML comments, each with the blanks after it (`<!-- prod -->`), read one way: a `-` ends one only before `->`. */
const XML_COMMENTS = String.raw`(?:<!--(?:[^-]|-(?!->)){0,500}-->\s{0,200}){0,3}`;

/** .NET's application settings: `<setting name="SmtpPassword" serializeAs="String">` then `<value>…</value>`, over lines, maybe after a comment; its value read as Hadoop's is. */
const XML_SETTING_VALUE = new RegExp(String.raw`<setting[ \t](?:[^<>\n]{0,200}?[ \t])?name=(["'])([^"'\n]{1,100})\1[^<>\n]{0,200}>\s{0,200}${XML_COMMENTS}<value>\s{0,200}(?:<!\[CDATA\[([^\]\n]{1,2000})\]\]>|([^<\s](?:[^<\n]{0,2000}[^<\s])?))\s{0,200}<\/value>`, 'dg');

function xmlValues(text: string): Found[] {
  if (!text.includes('<')) return [];
  return valuesNamedBy(text, [
    [XML_ELEMENT, 1, [2, 3]],
    [XML_KEY_VALUE, [1, 2], [3, 4], isSecretPropertyName],
    [XML_VALUE_KEY, [3, 4], [1, 2], isSecretPropertyName],
    [XML_NAMED_ELEMENT, 3, [4, 5]],
    [XML_NAME_THEN_VALUE, 1, [3, 4], isSecretPropertyName],
    [XML_SETTING_VALUE, 2, [3, 4]],
  ]);
}
