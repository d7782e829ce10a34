// HTML escaping for text bough did not write. Every text from a session goes through this (or
// through Eta's auto-escaping, which uses it too) before it reaches a page.

// A NUL (written escaped in a record, "\u0000") is no character of HTML: browsers show U+FFFD in its place.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\0': '\uFFFD' };

const SPECIAL = /[&<>"'\0]/;

export function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value ?? '');
  return SPECIAL.test(text) ? text.replace(/[&<>"'\0]/g, (char) => ENTITIES[char] ?? char) : text;
}
