// HTML escaping for text bough did not write. Every text from a session goes through this (or
// through Eta's auto-escaping, which uses it too) before it reaches a page.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const SPECIAL = /[&<>"']/;

export function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value ?? '');
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char) : text;
}
