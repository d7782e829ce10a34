// HTML escaping for text bough did not write. Every text from a session goes through this (or
// through Eta's auto-escaping, which uses it too) before it reaches a page.

// A NUL (written escaped in a record, "\u0000") is no character of HTML: browsers show U+FFFD in its place.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\0': '\uFFFD' };

/**
 * Characters a page shows rather than obeys: control characters (an escape, a bell; not tabs or
 * line breaks), the overrides and isolates that reorder the text after them, so that
 * `invoice<U+202E>fdp.exe` cannot read as "invoiceexe.pdf", nor a command as another one, and the
 * invisible characters that make one name look like another (`config<U+200B>.ts`, a soft hyphen,
 * an invisible operator, a filler). Joiners (U+200C, U+200D) and the direction marks stay: emoji,
 * some scripts and right-to-left text are written with them.
 */
const CONTROLS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u17b4\\u17b5\\u200b\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\u3164\\uffa0\\ufeff\\ufff9-\\ufffb';
/** A region's flag: the black flag, its region's code in tag letters and digits, the cancel tag. Kept whole. */
const FLAG = '(\\u{1F3F4}[\\u{E0030}-\\u{E0039}\\u{E0061}-\\u{E007A}]{1,6}\\u{E007F})';
/** Tag characters, which spell text no one sees (instructions hidden in a prompt), but in a flag. */
const TAGS = '[\\u{E0000}-\\u{E007F}]';
/**
 * Variation selectors in a row: an emoji or an ideograph takes one, and text hidden in them takes
 * many (each byte one selector). Shown, every one of the run.
 */
const SELECTOR_RUN = '([\\ufe00-\\ufe0f\\u{E0100}-\\u{E01EF}]{2,})';
const SPECIAL = new RegExp(`${FLAG}|${SELECTOR_RUN}|[&<>"'${CONTROLS}]|${TAGS}`, 'u');
const SPECIALS = new RegExp(`${FLAG}|${SELECTOR_RUN}|[&<>"'${CONTROLS}]|${TAGS}`, 'gu');
const CONTROL = new RegExp(`${FLAG}|${SELECTOR_RUN}|[${CONTROLS}]|${TAGS}`, 'u');
const CONTROL_ALL = new RegExp(`${FLAG}|${SELECTOR_RUN}|[${CONTROLS}]|${TAGS}`, 'gu');

/** What a match of the patterns above is shown as: a flag as it is, each selector of a run and each other character escaped or in its visible form. */
function visible(char: string, flag: string | undefined, selectors: string | undefined): string {
  if (flag !== undefined) return flag;
  if (selectors !== undefined) return [...selectors].map(shown).join('');
  return ENTITIES[char] ?? shown(char);
}

/** Letters of the scripts written right to left: Hebrew, Arabic, Syriac, Thaana, N'Ko and the rest to U+08FF, their presentation forms. */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;

/**
 * A path, escaped, shown in the order it is written whatever scripts its folders are named in:
 * each name holding a right-to-left letter is set apart (`<bdi>`), so that the browser does not
 * run it into its neighbours (`/srv/مشروع/2026-11-12…` showed the date inside the folder,
 * reversed, and two such folders swapped). Copied, it is the path as written.
 */
export function pathHtml(value: unknown): string {
  const path = typeof value === 'string' ? value : String(value ?? '');
  if (!RIGHT_TO_LEFT.test(path)) return escapeHtml(path);
  return path
    .split(/([\\/]+)/)
    .map((part, i) => (i % 2 === 0 && RIGHT_TO_LEFT.test(part) ? `<bdi>${escapeHtml(part)}</bdi>` : escapeHtml(part)))
    .join('');
}

export function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value ?? '');
  return SPECIAL.test(text) ? text.replace(SPECIALS, visible) : text;
}

/** HTML's names for characters shown rather than obeyed (HTML's other names spell none). */
const CONTROL_REFERENCE_NAMES: ReadonlyMap<string, number> = new Map([
  ['shy', 0xad], ['ZeroWidthSpace', 0x200b], ['NegativeVeryThinSpace', 0x200b], ['NegativeThinSpace', 0x200b],
  ['NegativeMediumSpace', 0x200b], ['NegativeThickSpace', 0x200b], ['NoBreak', 0x2060], ['af', 0x2061],
  ['ApplyFunction', 0x2061], ['it', 0x2062], ['InvisibleTimes', 0x2062], ['ic', 0x2063], ['InvisibleComma', 0x2063],
]);
const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

/**
 * Markup's references to the characters above, made visible as the characters are: Markdown
 * hands `&ZeroWidthSpace;` (and `&#x202E;` in an address) to the page as written, for the
 * browser to obey. A reference to 0x80–0x9F is left: browsers read it as Windows-1252 (`&#x80;`
 * is €).
 */
export function visibleReferences(html: string): string {
  if (!html.includes('&')) return html;
  return html.replace(REFERENCE, (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    const code = name !== undefined ? CONTROL_REFERENCE_NAMES.get(name) : decimal !== undefined ? Number(decimal) : parseInt(hex as string, 16);
    if (code === undefined || code > 0x10ffff || (code >= 0x80 && code <= 0x9f)) return whole;
    const char = String.fromCodePoint(code);
    return CONTROL.test(char) ? visibleControls(char) : whole;
  });
}

/** A text with its control characters and direction overrides made visible (for markup bough does not escape itself: Markdown, highlighted code, the search index). */
export function visibleControls(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROL_ALL, visible) : text;
}

/** A control character as a page shows it: its Unicode picture (␛ for an escape), or its code point. */
function shown(char: string): string {
  const code = char.codePointAt(0) as number;
  if (code === 0) return '\uFFFD';
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  if (code <= 0x9f) return '\uFFFD';
  // In angle brackets no Markdown reads as its own (square ones made a link's text of what followed).
  return `⟨U+${code.toString(16).toUpperCase()}⟩`;
}
