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
 * A text of at most `length` units, cut short with "…" where it is longer, less its last run of
 * ASCII letters, digits and marks (up to a quote, a bracket or a comma), cut or whole: a secret
 * cut short (`DB_PASSWORD=Zq8s…`, `-pMq7p…`), or whole before "…" (`--password=Hn5b…`), is too
 * short for --redact to know, or reads as a placeholder, yet is one or the start of one; so are
 * the words of a quoted pass phrase the cut falls in (`password: "umber falcon…`), which go from
 * its quote. For texts cut as a file is read, before redaction: one of a single long token is "…"
 * alone. Letters of other scripts (a CJK sentence) are kept.
 */
export function shortened(text: string, length: number): string {
  if (text.length <= length) return text;
  let kept = cutText(text, length - 1).trimEnd().replace(KEY_LIKE_AT_END, '').trimEnd();
  const quote = kept.lastIndexOf('"');
  if ((kept.split('"').length - 1) % 2 === 1 && SECRET_NAMED.test(kept.slice(0, quote))) kept = kept.slice(0, quote).trimEnd();
  return `${kept}…`;
}

/** A secret's name and its `:` or `=` at a text's end: what a quote opened after it holds is one. */
const SECRET_NAMED = /(?:pass(?:word|phrase)?|pwd|secret|token|key|auth\w*|credentials?)["']?\s*[:=]\s*$/i;

/** A run of ASCII marks at a text's end, up to a quote, a bracket or a separator of a list (a JSON line keeps its keys). */
const KEY_LIKE_AT_END = /(?:(?!["'`,;()[\]{}<>])[!-~])+$/;

/** The text with each lone surrogate replaced by U+FFFD, as a browser shows it. */
export function wellFormed(text: string): string {
  return SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\uFFFD') : text;
}

/** For JSON.stringify: every text in the value written well formed. */
export function wellFormedStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? wellFormed(value) : value;
}
