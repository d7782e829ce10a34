// Texts cut and written whole: a character outside the Basic Multilingual Plane (an emoji) is two
// UTF-16 units, and a cut between them, or a half written alone in a session file, leaves a lone
// surrogate that JSON.stringify writes as `\ud83d`, which jq and other strict readers refuse.

const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The first `length` units of a text, or one fewer where the last would be half a character. */
export function cutText(text: string, length: number): string {
  if (text.length <= length) return text;
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/**
 * How long a one-line summary made as a file is read is kept (a notice's first line): its page
 * shows less, cut after --redact has seen this much whole. Cut at read to what the page shows, a
 * secret the cut fell in reached redaction as a start too short to know, and hostile looks kept
 * finding new shapes of one (see `shortened`); cut here, one that reaches past this point is past
 * what any page shows. Bounded, as a first line may be a megabyte of minified output.
 */
export const SUMMARY_KEPT = 1000;

/**
 * A text of at most `length` units, cut short with " …" where it is longer, less the run of marks
 * at its end, cut or whole (`json`: a JSON line's, up to the quote that opens its string), and a
 * quotation the cut falls in, from its opening quote. For texts cut as a file is read, before
 * redaction: a secret cut short (`DB_PASSWORD=Zq8s`, `-pKp4v(b7`) is too short for --redact to
 * know yet is the start of one; one whole before "…" reads as a placeholder, which one before " …"
 * does not (`--password=Kp4v --user` cut in `--user`); a pass phrase's words (`--passphrase
 * "correct horse`, `PASSWORD=\"it's raining`) are known by their closing quote. Letters of scripts
 * written without spaces (a CJK sentence) end no run. One of a single long run is "…" alone.
 */
export function shortened(text: string, length: number, json = false): string {
  if (text.length <= length) return text;
  let kept = cutText(text, length - 2).trimEnd().replace(json ? JSON_RUN_AT_END : RUN_AT_END, '').trimEnd();
  const open = openQuote(kept, json);
  if (open !== -1) kept = kept.slice(0, open).trimEnd();
  return kept === '' ? '…' : `${kept} …`;
}

/** The marks at a text's end that may be a secret: up to a space, or a letter of a script written without spaces. */
const RUN_AT_END = /[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;
/** The same in a JSON line, up to the quote that opens the string it is in (its keys stay). */
const JSON_RUN_AT_END = /[^\s"]+$/;

/** A secret's name (`passwd`, `passcode`, `secrets`, `secret_key_base`, `api_key`). */
const SECRET_NAME = String.raw`(?:pass(?:word|phrase|wd|code)?s?|pwd|secrets?|secret_\w+|\w*token|\w*key|auth\w*|credentials?)`;
/** A secret's name and its `:` or `=` at a text's end (a JSON key's too). */
const SECRET_NAMED = new RegExp(String.raw`${SECRET_NAME}["'\`]?\s*[:=]\s*$`, 'i');
/**
 * A secret's name, then the quote its value opens with (`--password "`, `PASSWORD=\"`, `passwd:
 * “`): where a quotation is a secret's, whatever quote before it a stray one pairs with.
 */
const SECRET_QUOTED = new RegExp(String.raw`(?:${SECRET_NAME}(?:\\?["'\`])?\s*[:=]?|(?<!\S)-[pa])\s*(\\?["'\`«“‘„‚‹＂「『])`, 'gi');


/**
 * Quotes and those that may close each, its own first: a typewriter's, and those a Mac, a word
 * processor or a chat app puts in a pasted text, mixing straight and curly ones (`“umber falcon
 * sky"`, `‘zebra tango'`, `«mot de passe"`). A straight quote is closed by its own (and `"` by
 * `”`): a `’` or a `“` inside one is an apostrophe or a quotation (`'the twins’ birthday'`).
 */
export const CLOSING_QUOTES: ReadonlyMap<string, string> = new Map([
  ['"', '"”'], ["'", "'"], ['`', '`'], ['“', '”"'], ['‘', `’'`], ['«', '»"'], ['„', '“”"'], ['‚', `‘’'`], ['‹', '›'], ['＂', '＂'], ['「', '」'], ['『', '』'],
]);
/** A closing quote that is an apostrophe when a letter follows it (`‘don’t tread on me’`, `it's`). */
export const APOSTROPHES = "'’";

/**
 * Where a quotation left open at the text's end begins (its quote), or -1. A quote opens after a
 * space, a mark or the start (not `it's`), and closes at its closing quote. In a JSON line the
 * quotes are those inside its strings (`\"`), and the string the text ends in is the text.
 */
function openQuote(text: string, json: boolean): number {
  const paired = pairedOpenQuote(text, json);
  // A secret's quotation not closed after its quote: open, whatever the pairing says.
  let secret = -1;
  for (const m of text.matchAll(SECRET_QUOTED)) {
    const quote = m[1] as string;
    const at = (m.index as number) + m[0].length - quote.length;
    const escaped = quote.startsWith('\\');
    const closers = CLOSING_QUOTES.get(quote.at(-1) as string) as string;
    if (![...closers].some((closer) => text.includes(escaped ? `\\${closer}` : closer, at + quote.length))) {
      secret = at;
      break;
    }
  }
  return paired === -1 ? secret : secret === -1 ? paired : Math.min(paired, secret);
}

function pairedOpenQuote(text: string, json: boolean): number {
  let from = 0;
  if (json) {
    // Inside the JSON string the text ends in: from the quote that opens it, its escaped quotes.
    let inString = false;
    for (let at = 0; at < text.length; at++) {
      if (text[at] === '\\') at++;
      else if (text[at] === '"') {
        inString = !inString;
        if (inString) from = at + 1;
      }
    }
    if (!inString) return -1;
    // A secret's value (`"password":"umber falcon`): the whole string.
    if (SECRET_NAMED.test(text.slice(0, from - 1))) return from - 1;
  }
  let open = -1;
  let closing = '';
  for (let at = from; at < text.length; at++) {
    const c = json && text[at] === '\\' && text[at + 1] === '"' ? '"' : (text[at] as string);
    const start = at;
    if (json && c === '"') at++;
    if (open === -1) {
      const before = start === from ? ' ' : (text[start - 1] as string);
      if (CLOSING_QUOTES.has(c) && !/[\p{L}\p{N}]/u.test(before)) {
        open = start;
        closing = CLOSING_QUOTES.get(c) as string;
      }
    } else if (closing.includes(c)) {
      const after = text[at + 1] ?? ' ';
      // An apostrophe inside a word (`don't`, `don’t`) closes nothing.
      if (!/[\p{L}\p{N}]/u.test(after) || !APOSTROPHES.includes(c)) open = -1;
    }
  }
  return open;
}

/** The text with each lone surrogate replaced by U+FFFD, as a browser shows it. */
export function wellFormed(text: string): string {
  return SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\uFFFD') : text;
}

/** For JSON.stringify: every text in the value written well formed. */
export function wellFormedStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? wellFormed(value) : value;
}
