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
 * A text of at most `length` units, cut short with " …" where it is longer, less the run of marks
 * at its end, cut or whole (`json`: a JSON line's, up to the quote that opens its string), and a
 * quoted value after a secret's name from its quote. For texts cut as a file is read, before
 * redaction: a secret cut short (`DB_PASSWORD=Zq8s`, `-pKp4v(b7`) is too short for --redact to
 * know yet is the start of one, and one whole before "…" reads as a placeholder, which one before
 * " …" does not (`--password=Kp4v --user` cut in `--user`). Letters of scripts written without
 * spaces (a CJK sentence) end no run. One of a single long run is "…" alone.
 */
export function shortened(text: string, length: number, json = false): string {
  if (text.length <= length) return text;
  let kept = cutText(text, length - 2).trimEnd().replace(json ? JSON_RUN_AT_END : RUN_AT_END, '').trimEnd();
  const quote = lastQuote(kept);
  if (quote !== -1 && SECRET_NAMED.test(kept.slice(0, quote))) kept = kept.slice(0, quote).trimEnd();
  return kept === '' ? '…' : `${kept} …`;
}

/** The marks at a text's end that may be a secret: up to a space, or a letter of a script written without spaces. */
const RUN_AT_END = /[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;
/** The same in a JSON line, up to the quote that opens the string it is in (its keys stay). */
const JSON_RUN_AT_END = /[^\s"]+$/;

/** A secret's name and its `:` or `=` at a text's end: what a quote opened after it holds is one. */
const SECRET_NAMED = /(?:pass(?:word|phrase)?|pwd|secret|token|key|auth\w*|credentials?)["'`]?\s*[:=]\s*$/i;

/** Where the last quote of any kind is, or -1. */
function lastQuote(text: string): number {
  for (let at = text.length - 1; at >= 0; at--) if (QUOTES.has(text.charAt(at))) return at;
  return -1;
}
const QUOTES = new Set(['"', "'", '`', '«', '“', '‘', '„', '‹', '»', '”', '’']);

/** The text with each lone surrogate replaced by U+FFFD, as a browser shows it. */
export function wellFormed(text: string): string {
  return SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\uFFFD') : text;
}

/** For JSON.stringify: every text in the value written well formed. */
export function wellFormedStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? wellFormed(value) : value;
}
