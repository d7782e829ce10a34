// HTML escaping for text bough did not write. Every text from a session goes through this (or
// through Eta's auto-escaping, which uses it too) before it reaches a page.

// A NUL (written escaped in a record, "\u0000") is no character of HTML: browsers show U+FFFD in its place.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\0': '\uFFFD' };

/**
 * Characters a page shows rather than obeys: control characters (an escape, a bell; not tabs or
 * line breaks), the overrides and isolates that reorder the text after them, so that
 * `invoice<U+202E>fdp.exe` cannot read as "invoiceexe.pdf", nor a command as another one, and the
 * invisible spaces that make one name look like another (`config<U+200B>.ts`). Joiners (U+200C,
 * U+200D) stay: emoji and some scripts are written with them.
 */
const CONTROLS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u200b\\u202a-\\u202e\\u2060\\u2066-\\u2069\\ufeff';
const SPECIAL = new RegExp(`[&<>"'${CONTROLS}]`);
const SPECIALS = new RegExp(`[&<>"'${CONTROLS}]`, 'g');
const CONTROL = new RegExp(`[${CONTROLS}]`);
const CONTROL_ALL = new RegExp(`[${CONTROLS}]`, 'g');

export function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value ?? '');
  return SPECIAL.test(text) ? text.replace(SPECIALS, (char) => ENTITIES[char] ?? shown(char)) : text;
}

/** A text with its control characters and direction overrides made visible (for markup bough does not escape itself: Markdown, highlighted code, the search index). */
export function visibleControls(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROL_ALL, shown) : text;
}

/** A control character as a page shows it: its Unicode picture (␛ for an escape), or its code point. */
function shown(char: string): string {
  const code = char.charCodeAt(0);
  if (code === 0) return '\uFFFD';
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  if (code <= 0x9f) return '\uFFFD';
  return `[U+${code.toString(16).toUpperCase()}]`;
}
