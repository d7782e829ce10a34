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

/** The text with each lone surrogate replaced by U+FFFD, as a browser shows it. */
export function wellFormed(text: string): string {
  return SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\uFFFD') : text;
}

/** For JSON.stringify: every text in the value written well formed. */
export function wellFormedStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? wellFormed(value) : value;
}
