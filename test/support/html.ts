// A small scanner for the markup bough writes. Every "<" bough leaves unescaped opens a real tag,
// so scanning tags is enough to find live markup that came from a session.

export interface Tag {
  name: string;
  attributes: Map<string, string>;
}

const TAG = /<([a-zA-Z][a-zA-Z0-9:-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s=>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

export function tagsOf(html: string): Tag[] {
  const tags: Tag[] = [];
  for (const match of html.matchAll(TAG)) {
    const attributes = new Map<string, string>();
    for (const a of (match[2] ?? '').matchAll(ATTRIBUTE)) {
      attributes.set((a[1] ?? '').toLowerCase(), decode(a[2] ?? a[3] ?? a[4] ?? ''));
    }
    tags.push({ name: (match[1] ?? '').toLowerCase(), attributes });
  }
  return tags;
}

function decode(value: string): string {
  return value.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

const FORBIDDEN_TAGS = new Set(['iframe', 'frame', 'object', 'embed', 'base', 'form', 'input', 'style', 'applet', 'portal']);
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'srcset'];

/** Everything in a page that could run, load or navigate on its own; empty for a safe page. */
export function liveMarkup(html: string): string[] {
  const problems: string[] = [];
  // bough's own search box, once per page in its header: a form that never submits (the CSP has form-action 'none').
  let searchForm = false;
  let searchInput = false;
  for (const tag of tagsOf(html)) {
    if (!searchForm && tag.name === 'form' && tag.attributes.get('class') === 'search' && tag.attributes.has('data-search') && !tag.attributes.has('action')) {
      searchForm = true;
      continue;
    }
    if (!searchInput && tag.name === 'input' && tag.attributes.get('type') === 'search' && tag.attributes.get('name') === 'q' && tag.attributes.size === 5) {
      searchInput = true;
      continue;
    }
    if (FORBIDDEN_TAGS.has(tag.name)) problems.push(`<${tag.name}>`);
    if (tag.name === 'script' && !/^(\.\.\/)*assets\/bough\.js$/.test(tag.attributes.get('src') ?? '')) problems.push('foreign <script>');
    if (tag.name === 'meta' && tag.attributes.get('http-equiv')?.toLowerCase() === 'refresh') problems.push('<meta refresh>');
    if (tag.name === 'link' && !/^(\.\.\/)*assets\/bough\.css$/.test(tag.attributes.get('href') ?? '')) problems.push('foreign <link>');
    for (const [name, value] of tag.attributes) {
      if (name.startsWith('on')) problems.push(`<${tag.name} ${name}=…>`);
      if (!URL_ATTRIBUTES.includes(name)) continue;
      const url = value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
      if (url.startsWith('javascript:') || url.startsWith('vbscript:')) problems.push(`${name}=${value}`);
      if (url.startsWith('data:') && !/^data:image\/(png|jpeg|jpg|gif|webp|bmp|avif);base64,/.test(url)) problems.push(`${name}=${value.slice(0, 40)}`);
      // Only links may point outside the report; nothing may be loaded from elsewhere.
      if (name !== 'href' && /^(https?:)?\/\//.test(url)) problems.push(`remote ${name}=${value}`);
      if (name === 'href' && tag.name !== 'a' && /^(https?:)?\/\//.test(url)) problems.push(`remote <${tag.name} href>`);
    }
  }
  return problems;
}
