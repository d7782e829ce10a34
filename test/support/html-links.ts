// A small HTML scanner for the static link check: the tags of a page with their attributes, and
// the element ids it defines. Not a full HTML parser, but enough for markup bough writes itself:
// text from sessions is always escaped (so a "<" in the data is "&lt;" and never starts a tag),
// and it skips comments and the raw text of <script>/<style>, where "<" means nothing.

export interface Tag {
  name: string;
  attributes: Map<string, string>;
  /** Offset of the "<" in the page, to order tags (e.g. "the CSP meta comes before any script"). */
  offset: number;
}

export interface ScannedPage {
  tags: Tag[];
  /** Every id="…" on the page, in order (duplicates kept, so they can be reported). */
  ids: string[];
}

const RAW_TEXT = new Set(['script', 'style']);

export function scanHtml(html: string): ScannedPage {
  const tags: Tag[] = [];
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open < 0) break;
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      at = end < 0 ? html.length : end + 3;
      continue;
    }
    const nameMatch = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(open, open + 64));
    if (!nameMatch) {
      at = open + 1; // "</…>", "<!doctype …>" or a stray "<": nothing to collect
      continue;
    }
    const name = (nameMatch[1] as string).toLowerCase();
    const { attributes, end } = readAttributes(html, open + nameMatch[0].length);
    tags.push({ name, attributes, offset: open });
    at = end;
    if (RAW_TEXT.has(name)) {
      const close = html.toLowerCase().indexOf(`</${name}`, at);
      at = close < 0 ? html.length : close;
    }
  }
  const ids = tags.flatMap((tag) => (tag.attributes.has('id') ? [tag.attributes.get('id') as string] : []));
  return { tags, ids };
}

/** Reads attributes from `start` up to the closing ">" of the tag, honouring quotes. */
function readAttributes(html: string, start: number): { attributes: Map<string, string>; end: number } {
  const attributes = new Map<string, string>();
  let at = start;
  for (;;) {
    while (at < html.length && /[\s/]/.test(html[at] as string)) at++;
    if (at >= html.length) return { attributes, end: at };
    if (html[at] === '>') return { attributes, end: at + 1 };
    let nameEnd = at;
    while (nameEnd < html.length && !/[\s=>/]/.test(html[nameEnd] as string)) nameEnd++;
    const name = html.slice(at, nameEnd).toLowerCase();
    at = nameEnd;
    while (at < html.length && /\s/.test(html[at] as string)) at++;
    let value = '';
    if (html[at] === '=') {
      at++;
      while (at < html.length && /\s/.test(html[at] as string)) at++;
      const quote = html[at];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, at + 1);
        const end = close < 0 ? html.length : close;
        value = html.slice(at + 1, end);
        at = end + 1;
      } else {
        let valueEnd = at;
        while (valueEnd < html.length && !/[\s>]/.test(html[valueEnd] as string)) valueEnd++;
        value = html.slice(at, valueEnd);
        at = valueEnd;
      }
    }
    // The first occurrence of an attribute wins, as in browsers.
    if (!attributes.has(name)) attributes.set(name, decodeEntities(value));
  }
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the character references bough's escaping produces (and numeric ones generally). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** Attributes that load or link to another resource, by tag. srcset is not used by bough. */
export const URL_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href'],
  area: ['href'],
  link: ['href'],
  script: ['src'],
  img: ['src'],
  iframe: ['src'],
  source: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  embed: ['src'],
  object: ['data'],
  form: ['action'],
  use: ['href', 'xlink:href'],
  image: ['href', 'xlink:href'],
};

export interface PageLink {
  tag: string;
  attribute: string;
  value: string;
}

export function linksOf(page: ScannedPage): PageLink[] {
  return page.tags.flatMap((tag) =>
    (URL_ATTRIBUTES[tag.name] ?? []).flatMap((attribute) => {
      const value = tag.attributes.get(attribute);
      return value === undefined ? [] : [{ tag: tag.name, attribute, value }];
    }),
  );
}
