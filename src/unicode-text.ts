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
 * A text of at most `length` units, cut short with "…" where it is longer, the word the cut falls
 * in left out whole: a secret cut short (`DB_PASSWORD=Zq8s…`, `-pMq7p…`, `admin:Kp4v…`) is too
 * short for --redact to know, or reads as a placeholder, yet is the start of one. A text of one
 * long word keeps its start up to the last mark that is no part of a key (a path's last `/`).
 */
export function shortened(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = cutText(text, length - 1);
  if (/\s/.test(text.charAt(cut.length))) return `${cut.trimEnd()}…`;
  const words = cut.replace(/\S+$/, '').trimEnd();
  return `${words === '' ? cut.replace(KEY_CHARS_AT_END, '') : words}…`;
}

/** What a key, a password or a token may be made of, at a text's end. */
const KEY_CHARS_AT_END = /[\p{L}\p{N}_+=.~-]+$/u;

/** The text with each lone surrogate replaced by U+FFFD, as a browser shows it. */
export function wellFormed(text: string): string {
  return SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\uFFFD') : text;
}

/** For JSON.stringify: every text in the value written well formed. */
export function wellFormedStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? wellFormed(value) : value;
}
