// Tool calls as a reader sees them on a session page: each tool shown as what it does (a command
// and its output, a file read or written as highlighted code, a coloured diff, a search's pattern),
// code coloured by classes within the size caps, and every text from the session still escaped.

import { beforeAll, describe, expect, it } from 'vitest';
import { entryView, toolCallsOf, type ConversationContext } from '../src/report/conversation.js';
import { highlightBudget, MAX_HIGHLIGHT_BLOCK, MAX_HIGHLIGHTED_SESSIONS, sessionHighlightBudget, type HighlightBudget } from '../src/report/highlight.js';
import { createRenderer, type LayoutView, type PageRenderer } from '../src/report/render.js';
import { loadTemplates } from '../src/package-files.js';
import type { Block, Entry, ToolDiff, ToolEffect } from '../src/types.js';
import { diffChange } from '../src/diff-lines.js';
import { toolEffect as claudeToolEffect } from '../src/sources/claude/tools.js';
import { liveMarkup } from './support/html.js';
import { prompt, reply } from './support/session-builders.js';

let renderer: PageRenderer;

beforeAll(async () => {
  // The real entry partials, inside a page that is only the entries.
  const templates = await loadTemplates();
  renderer = createRenderer({
    ...templates,
    layout: '<%~ it.body %>',
    entries: "<% for (const entry of it.view.entries) { %><%~ include('@partials/entry', { entry }) %><% } %>",
  });
});

/** The stand-in layout above reads nothing of it. */
const LAYOUT = {} as LayoutView;

/** Claude Code's pages, whose read tool numbers the lines it returns; else Pi's. */
function context(entries: readonly Entry[], budget: HighlightBudget, claude = false): ConversationContext {
  return {
    time: { timeZone: 'UTC' },
    agent: claude ? 'Claude Code' : 'Pi',
    numberedReads: claude,
    copied: () => false,
    outsidePeriod: () => false,
    labels: new Map(),
    hidden: new Set(),
    forksAt: () => [],
    entryNamed: () => 'an entry',
    priceOf: () => ({ cost: null, state: 'unpriced', key: null, tier: null, missing: [], note: null, subscription: false }),
    callOf: toolCallsOf(entries),
    highlight: budget,
  };
}

/** The page's HTML for these entries, as the session page renders them. */
function page(entries: Entry[], budget = highlightBudget(), claude = false): string {
  const ctx = context(entries, budget, claude);
  return renderer.render('entries', LAYOUT, { entries: entries.map((e) => entryView(e, ctx)) });
}

function effect(action: ToolEffect['action'], summary: string, more: Partial<ToolEffect> = {}): ToolEffect {
  return { action, paths: [], command: null, summary, ...more };
}

/** A reply whose only content is one tool call. */
function call(id: string, name: string, args: unknown, toolEffect: ToolEffect): Entry {
  return withContent(reply(`r-${id}`, '2026-11-01T10:00:00Z', null), [{ type: 'toolCall', id, name, arguments: args, argumentsError: null, effect: toolEffect }]);
}

function withContent(entry: Entry, content: Block[]): Entry {
  if (entry.kind !== 'reply') throw new Error('a reply was expected');
  return { ...entry, content };
}

function result(id: string, toolName: string, text: string, extra: { diff?: ToolDiff; isError?: boolean } = {}): Entry {
  const base = prompt(`t-${id}`, '2026-11-01T10:00:01Z', '');
  return {
    key: base.key,
    id: base.id,
    parentId: null,
    timestamp: base.timestamp,
    line: base.line,
    usage: [],
    recovered: false,
    kind: 'toolResult',
    toolCallId: id,
    toolName,
    content: [{ type: 'text', text }],
    isError: extra.isError ?? false,
    subagents: [],
    diff: extra.diff ?? null,
    change: null,
    commits: [],
    nestedCalls: [],
  };
}

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n');

describe('a shell call', () => {
  it('shows its command and the first lines of its output, the rest folded as "N more lines"', () => {
    const html = page([
      call('c1', 'bash', { command: 'npm test' }, effect('shell', 'npm test', { command: 'npm test' })),
      result('c1', 'bash', numbered(40)),
    ]);
    expect(html).toContain('<code class="tool-summary">npm test</code>');
    expect(html).toContain('<pre class="output">line 1\nline 2\n');
    expect(html).toContain('<summary>28 more lines</summary>');
    expect(html).toMatch(/<details class="tool-output more-lines"><summary>28 more lines<\/summary><pre class="output">line 13\n/);
  });

  // Regression (an outside review in a browser): one line of 5,000 characters (minified JSON)
  // showed 2,000, then "1 more line", which was the rest of the same line.
  it('says the rest of a line cut short as its rest, not as another line', () => {
    const oneLine = page([call('c2', 'bash', { command: 'cat a.json' }, effect('shell', 'cat a.json', { command: 'cat a.json' })), result('c2', 'bash', 'x'.repeat(5000))]);
    expect(oneLine).toContain('<summary>the rest of the line (3,000 more characters)</summary>');
    const more = page([call('c3', 'bash', { command: 'cat b.json' }, effect('shell', 'cat b.json', { command: 'cat b.json' })), result('c3', 'bash', `${'y'.repeat(5000)}\nsecond\nthird`)]);
    expect(more).toContain('<summary>the rest of the line and 2 more lines</summary>');
  });

  it('keeps a long command to one line in the summary and shows it whole as highlighted shell', () => {
    const script = 'cat > notes.txt <<EOF\nfirst\nsecond\nEOF\necho "done"';
    const html = page([call('c2', 'bash', { command: script }, effect('shell', script, { command: script }))]);
    expect(html).toContain('<code class="tool-summary">cat &gt; notes.txt &lt;&lt;EOF …</code>');
    expect(html).toContain('<code class="hl language-bash">');
    expect(html).toContain('<span class="hljs-string">&quot;done&quot;</span>');
  });
});

describe('a plan or any long summary', () => {
  it('is cut to one readable line, the whole text kept in the folded arguments', () => {
    const plan = `## Plan\n\n${'Refactor the cart module so totals are computed once. '.repeat(20)}\n\n1. step one\n2. step two`;
    const html = page([call('c3', 'ExitPlanMode', { plan }, effect('other', plan))]);
    const summary = /<code class="tool-summary">([^<]*)<\/code>/.exec(html)?.[1] ?? '';
    expect(summary).toBe('## Plan …');
    expect(html).toContain('2. step two');
    const long = 'x'.repeat(500);
    expect(/<code class="tool-summary">([^<]*)<\/code>/.exec(page([call('c4', 'other', { long }, effect('other', long))]))?.[1]).toHaveLength(160);
  });
});

describe('a write call', () => {
  it('shows the path and the file as code highlighted in its language, not as escaped JSON', () => {
    const file = 'export function total(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0);\n}\n';
    const html = page([
      call('w1', 'write', { path: 'src/cart.ts', content: file }, effect('write', 'src/cart.ts', { paths: ['src/cart.ts'], fileContent: file })),
      result('w1', 'write', 'Successfully wrote 96 bytes to src/cart.ts'),
    ]);
    expect(html).toContain('<summary>writes <span class="path">src/cart.ts</span> · 3 lines</summary>');
    expect(html).toContain('<code class="hl language-ts"><span class="hljs-keyword">export</span> <span class="hljs-keyword">function</span>');
    // The file once, as code; the arguments name it instead of repeating it as JSON.
    expect(html).toContain('&quot;content&quot;: &quot;[the file, shown above]&quot;');
    expect(html).not.toContain('\\n  return items');
  });
});

describe('an edit call', () => {
  it('shows its diff with added and removed lines coloured', () => {
    const diff: ToolDiff = { format: 'unified', text: '--- a/src/cart.ts\n+++ b/src/cart.ts\n@@ -1,1 +1,1 @@\n-const rate = 1;\n+const rate = 2;' };
    const html = page([
      call('e1', 'edit', {}, effect('edit', 'src/cart.ts', { paths: ['src/cart.ts'] })),
      result('e1', 'edit', 'Edited src/cart.ts', { diff }),
    ]);
    expect(html).toContain('<span class="d-del">-const rate = 1;</span><span class="d-add">+const rate = 2;</span>');
  });

  it('colours a removed "---" rule and an added "++i" as lines, not as file headers (regression: shown as headers, not counted)', () => {
    const text = [
      '--- a/notes.md',
      '+++ b/notes.md',
      '@@ -1,4 +1,4 @@',
      ' # Notes',
      '----',
      '--- old sql comment',
      '+++counter;',
      '++++',
      ' end',
      '--- a/next.md',
      '+++ b/next.md',
      '@@ -1 +1 @@',
      '-a',
      '+b',
    ].join('\n');
    const diff: ToolDiff = { format: 'unified', text };
    expect(diffChange(diff)).toEqual({ added: 3, removed: 3 });
    const html = page([call('e1', 'edit', {}, effect('edit', 'notes.md', { paths: ['notes.md'] })), result('e1', 'edit', 'Edited notes.md', { diff })]);
    expect(html).toContain('<span class="d-del">----</span><span class="d-del">--- old sql comment</span><span class="d-add">+++counter;</span><span class="d-add">++++</span>');
    expect(html).toContain('<span class="d-meta">--- a/next.md</span><span class="d-meta">+++ b/next.md</span>');
  });

  it('reads a hand-made hunk without line counts to the next file header', () => {
    const diff: ToolDiff = { format: 'unified', text: '--- a/x\n+++ b/x\n@@\n-old\n---\n+new\n--- a/y\n+++ b/y\n@@\n+y' };
    expect(diffChange(diff)).toEqual({ added: 2, removed: 2 });
  });
});

describe('long edits', () => {
  // Regression (a review of Pi's content): a diff of 3,000 lines stopped at its 2,000th without a
  // word; (a hostile look) one line of 4 MB made a page of 8 MB.
  it('say how much of the diff is not shown, by lines and by characters', () => {
    const text = `--- a/big.txt\n+++ b/big.txt\n@@ -1,1500 +1,1500 @@\n${Array.from({ length: 1500 }, (_, i) => `-old ${i}\n+new ${i}`).join('\n')}\n`;
    const html = page([call('e1', 'edit', { path: 'big.txt' }, effect('edit', 'big.txt', { paths: ['big.txt'] })), result('e1', 'edit', 'Edited.', { diff: { format: 'unified', text } })]);
    expect(html).toContain('<p class="note">… 1,003 more lines of the diff not shown here.</p>');
    const minified = `--- a/app.min.js\n+++ b/app.min.js\n@@ -1 +1 @@\n-${'var a=1;'.repeat(50_000)}\n+${'var a=2;'.repeat(50_000)}\n`;
    const big = page([call('e2', 'edit', { path: 'app.min.js' }, effect('edit', 'app.min.js', { paths: ['app.min.js'] })), result('e2', 'edit', 'Edited.', { diff: { format: 'unified', text: minified } })]);
    expect(big.length).toBeLessThan(300_000);
    expect(big).toMatch(/<p class="note">… 2 more lines \([\d,]+ characters of them\) of the diff not shown here\.<\/p>/);
  });

  // Regression (a hostile look): twenty parallel calls of 100,000 characters of arguments each
  // filled their reply's budget with fifteen, and the other five were not shown.
  it('shows every one of twenty parallel calls, each cut to its first 20,000 characters', () => {
    const calls = Array.from({ length: 20 }, (_, i) => ({ type: 'toolCall' as const, id: `t${i}`, name: 'edit', arguments: { path: `f${i}.html`, newText: 'x'.repeat(100_000) }, argumentsError: null, effect: effect('edit', `f${i}.html`, { paths: [`f${i}.html`] }) }));
    const html = page([withContent(reply('r-many', '2026-11-01T10:00:00Z', null), calls)]);
    expect(html.match(/<code class="tool-summary">/g)).toHaveLength(20);
    expect(html).not.toContain('more blocks of this entry not shown');
  });
});

// Regression (an outside review of hostile sizes): four screenshots of 850 kB in one prompt showed
// two, "2 more blocks … the entry is too large for one page", each under the size one may have.
describe('an entry of several large images', () => {
  it('shows every image under the size one may have', () => {
    const images = Array.from({ length: 4 }, () => ({ type: 'image' as const, mimeType: 'image/png', data: 'A'.repeat(1_140_000) }));
    const html = page([withContent(reply('r-shots', '2026-11-01T10:00:00Z', null), images)]);
    expect(html.match(/<img /g)).toHaveLength(4);
    expect(html).not.toContain('more blocks of this entry not shown');
  });
});

describe('a read call', () => {
  it('shows the path and the content as code in the file language, line numbers taken off', () => {
    const content = '     1→def total(items):\n     2→    return sum(items)';
    const html = page([
      call('r1', 'Read', { file_path: 'shop/cart.py' }, effect('read', 'shop/cart.py', { paths: ['shop/cart.py'] })),
      result('r1', 'Read', content),
    ], highlightBudget(), true);
    expect(html).toContain('<code class="tool-summary">shop/cart.py</code>');
    expect(html).toContain('<span class="path">shop/cart.py · 2 lines</span>');
    expect(html).toContain('<code class="hl language-py"><span class="hljs-keyword">def</span> <span class="hljs-title function_">total</span>');
    expect(html).not.toContain('1→');
  });

  // Regression: two replies calling with the same id (some models number calls `call_0` in each
  // reply): the first result was shown as the later call's, named by that call's file.
  it('answers the last call of its id before it, when ids repeat', () => {
    const html = page([
      call('call_0', 'read', { path: 'first.txt' }, effect('read', 'first.txt', { paths: ['first.txt'] })),
      result('call_0', 'read', 'FIRST CONTENT'),
      call('call_0', 'edit', { path: 'second.txt' }, effect('edit', 'second.txt', { paths: ['second.txt'] })),
      result('call_0', 'edit', 'Edited.'),
    ]);
    expect(html).toContain('<span class="path">first.txt · 1 line</span>');
    expect(html.indexOf('second.txt')).toBeGreaterThan(html.indexOf('FIRST CONTENT'));
  });

  // Regression: a read of a PNG was shown as a one-line file holding Pi's note of it.
  it('of an image shows the image, its note as output, not as the file’s text', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const read = result('img', 'read', 'Read image file [image/png]');
    const html = page([
      call('img', 'read', { path: 'shot.png' }, effect('read', 'shot.png', { paths: ['shot.png'] })),
      read.kind === 'toolResult' ? { ...read, content: [...read.content, { type: 'image', mimeType: 'image/png', data: png }] } : read,
    ]);
    expect(html).not.toContain('shot.png · 1 line');
    expect(html).toContain('Read image file [image/png]');
    expect(html).toContain(`src="data:image/png;base64,${png}"`);
  });

  // Regression: a reminder Claude Code put among a read's lines was shown as lines of the file,
  // its numbers kept ('47 lines' for 43); so was what --omit system leaves of it.
  it('shows what the agent put among the lines for the model after the file, not in it', () => {
    const reminder = '<system-reminder>\nConsider whether it looks malicious.\n</system-reminder>';
    for (const among of [reminder, '[instructions and context for the model omitted from this report]']) {
      const html = page([
        call('m1', 'Read', { file_path: 'a.py' }, effect('read', 'a.py', { paths: ['a.py'] })),
        result('m1', 'Read', `     1→x = 1\n     2→y = 2\n${among}\n     3→z = 3\n\n${among}\n`),
      ], highlightBudget(), true);
      expect(html).toContain('<span class="path">a.py · 3 lines</span>');
      expect(html).not.toContain('1→');
    }
  });

  // Regression (a review of Pi's content): a Pi read of a TSV lost its first column (its years,
  // taken for line numbers), and its header said "from line 2023"; a numbered read over 100,000
  // characters was cut without a word, its lines counted short.
  it('keeps a Pi file’s digits and tabs, and says what a long numbered read leaves out', () => {
    const tsv = '2023\tNorth\t1200\n2024\tSouth\t3400\n';
    const pi = page([call('t1', 'read', { path: 'sales.tsv' }, effect('read', 'sales.tsv', { paths: ['sales.tsv'] })), result('t1', 'read', tsv)]);
    expect(pi).toContain('<span class="path">sales.tsv · 2 lines</span>');
    expect(pi).toContain('2023\tNorth');
    const long = Array.from({ length: 3001 }, (_, i) => `${String(i + 1).padStart(6)}→row value number ${i + 1} of the table, padded out to be long`).join('\n');
    const claude = page([call('t2', 'Read', { file_path: 'rows.txt' }, effect('read', 'rows.txt', { paths: ['rows.txt'] })), result('t2', 'Read', long)], highlightBudget(), true);
    expect(claude).toContain('<span class="path">rows.txt · 3,001 lines</span>');
    expect(claude).toMatch(/… [\d,]+ more characters not shown here\./);
    // The line cut at the limit is not shown as a fragment of its number (a hostile look: "99").
    const cutAt = long.slice(0, 100_000).split('\n').length - 1;
    expect(claude).toContain(`row value number ${cutAt} of the table`);
    expect(claude).not.toContain(`row value number ${cutAt + 1} of`);
    expect(claude).not.toMatch(/\n\n\s*\d*<\/code>/);
    // A line cut inside and left out counts whole in what is said not shown (a hostile look: 100,037 of 200,027).
    const wide = `     1\tshort line\n     2\t${'z'.repeat(200_000)}\n     3\tend\n`;
    const min = page([call('t3', 'Read', { file_path: 'min.js' }, effect('read', 'min.js', { paths: ['min.js'] })), result('t3', 'Read', wide)], highlightBudget(), true);
    expect(min).toContain(`… ${(wide.length - '     1\tshort line'.length).toLocaleString('en-US')} more characters not shown here.`);
  });

  it('shows a file of unknown type plain, not guessed', () => {
    const html = page([
      call('r2', 'read', { path: 'notes.unknownext' }, effect('read', 'notes.unknownext', { paths: ['notes.unknownext'] })),
      result('r2', 'read', 'function x() { return 1 }'),
    ]);
    expect(html).toContain('<code class="hl">function x() { return 1 }</code>');
  });
});

describe('a search call', () => {
  it('shows its pattern and its results by their first lines', () => {
    const html = page([
      call('g1', 'grep', { pattern: 'TODO|FIXME', path: 'src' }, effect('search', 'TODO|FIXME  in src', { pattern: 'TODO|FIXME' })),
      result('g1', 'grep', 'src/a.ts:1: TODO one\nsrc/b.ts:9: FIXME two'),
    ]);
    expect(html).toContain('<p class="tool-field">pattern <code>TODO|FIXME</code></p>');
    expect(html).toContain('<pre class="output">src/a.ts:1: TODO one\nsrc/b.ts:9: FIXME two</pre>');
  });

  // Regression (an outside review of session pages): a web search's query was labelled "pattern".
  it('shows a web search by its query, as Claude Code and Codex name it', () => {
    const html = page([call('w1', 'WebSearch', { query: 'node 20 release' }, effect('search', 'node 20 release', { query: 'node 20 release' }))]);
    expect(html).toContain('<p class="tool-field">query <code>node 20 release</code></p>');
    expect(claudeToolEffect('WebSearch', { query: 'node 20 release' }, null)).toMatchObject({ query: 'node 20 release' });
  });
});

describe('code from a session', () => {
  const hostile = '</code></pre><script>alert(1)</script><img src=x onerror=alert(2)>';

  it('stays escaped when highlighted, in a written file, a file read and a Markdown fence', () => {
    const html = page([
      call('h1', 'write', {}, effect('write', 'x.ts', { paths: ['x.ts'], fileContent: `const s = "${hostile}";` })),
      call('h2', 'read', {}, effect('read', 'x.html', { paths: ['x.html'] })),
      result('h2', 'read', hostile),
      withContent(reply('h3', '2026-11-01T10:00:00Z', null), [{ type: 'text', text: `\`\`\`html\n${hostile}\n\`\`\`` }]),
    ]);
    expect(liveMarkup(html)).toEqual([]);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });

  it('is shown plain past the block cap, and the page says so', () => {
    const big = 'const x = 1;\n'.repeat(Math.ceil(MAX_HIGHLIGHT_BLOCK / 13) + 1);
    const html = page([call('b1', 'write', {}, effect('write', 'big.ts', { paths: ['big.ts'], fileContent: big }))]);
    expect(html).not.toContain('hljs-keyword');
    expect(html).toContain('<p class="note code-note">shown without colours: longer than 50 KB</p>');
  });

  it('is shown plain once the page has spent its highlighting budget, and the page says so', () => {
    const block = 'const x = 1;\n'.repeat(10);
    const entries = Array.from({ length: 3 }, (_, i) => call(`p${i}`, 'write', {}, effect('write', `f${i}.ts`, { paths: [`f${i}.ts`], fileContent: block })));
    const html = page(entries, highlightBudget(block.length * 2));
    expect(html.match(/<code class="hl language-ts">/g)).toHaveLength(2);
    expect(html).toContain('shown without colours: this page already highlights 100 KB of code');
  });

  it('is shown plain on the pages of sessions older than the newest the report colours, and says so', () => {
    const block = 'const x = 1;\n'.repeat(10);
    const pageOf = (rank: number) => page([call(`r${rank}`, 'write', {}, effect('write', 'g.ts', { paths: ['g.ts'], fileContent: block }))], sessionHighlightBudget(rank));
    expect(pageOf(MAX_HIGHLIGHTED_SESSIONS - 1)).toContain('<code class="hl language-ts">');
    const older = pageOf(MAX_HIGHLIGHTED_SESSIONS);
    expect(older).not.toContain('hljs-keyword');
    expect(older).toContain(`shown without colours: a report colours the code of its newest ${MAX_HIGHLIGHTED_SESSIONS} sessions`);
  });
});

// Regression (a Pi format review): a system message patching one section said "1 sections", one
// removing it the same, and one adding instructions only "0 sections".
describe('a Pi system message', () => {
  it('says in its line what it changes', () => {
    const base = prompt('s', '2026-11-01T10:00:00Z', '');
    const system = (sections: Record<string, string | null>, text = '', toolsAdded: string[] = []): Entry => ({
      key: base.key, id: base.id, parentId: null, timestamp: base.timestamp, line: base.line, usage: [], recovered: false,
      kind: 'system', content: text === '' ? [] : [{ type: 'text', text }], sections, toolsAdded, toolsRemoved: [],
    }) as Entry;
    const line = (entry: Entry) => /<p class="event-text">([^<]*)</.exec(page([entry]))?.[1] ?? page([entry]);
    expect(line(system({ preamble: 'You are Pi', cwd: '/p', rules: 'be nice' }, '', ['read']))).toBe('3 sections · tools added: read');
    expect(line(system({ cwd: '/q' }))).toBe('cwd changed');
    expect(line(system({ rules: null }))).toBe('rules removed');
    expect(line(system({}, 'Extra instruction text'))).toBe('instructions');
  });
});

// Regression (a Claude Code format review): Claude Code's own API-error and abort replies
// ("<synthetic>", no model) were headed "unknown model".
describe('a reply no model wrote', () => {
  it('says who wrote it when it is an error or an abort, and "unknown model" otherwise', () => {
    const base = reply('r', '2026-11-01T10:00:00Z', null);
    const headed = (outcome: string) => /<span class="model">([^<]*)</.exec(page([{ ...base, model: null, outcome } as Entry]))?.[1];
    expect(headed('error')).toBe('no model: written by Pi');
    expect(headed('aborted')).toBe('no model: written by Pi');
    expect(headed('ok')).toBe('unknown model');
  });
});

// Regression (a hostile look at notices' lines read long, 2026-12-07): the page cut a notice's line
// as texts are cut before redaction, leaving out an error's message or a path whole, and a short
// notice got a "show" that only repeated its line, tags and spaces apart.
describe('a notice’s line', () => {
  const notice = (summary: string, text: string): Entry => {
    const base = prompt('n', '2026-11-01T10:00:00Z', '');
    return { key: base.key, id: base.id, parentId: null, timestamp: base.timestamp, line: base.line, usage: [], recovered: false, kind: 'notice', label: 'api error', tone: 'warn', summary, content: [{ type: 'text', text }] } as Entry;
  };
  const shown = (entry: Entry) => ({ line: /<p class="event-text">([^<]*)</.exec(page([entry]))?.[1], detail: page([entry]).includes('class="event-detail"') });

  it('is cut plainly where long, with the whole text to show', () => {
    const error = `API Error: 400 {"type":"error","error":{"message":"prompt is too long: 215000 tokens > 200000 maximum, and the rest of it"}}`;
    const { line, detail } = shown(notice(error, error));
    expect(line).toMatch(/^API Error: 400 \{&quot;type&quot;:&quot;error&quot;,&quot;error&quot;:\{&quot;message&quot;:&quot;prompt is too long/);
    expect(line?.endsWith('…')).toBe(true);
    expect(detail).toBe(true);
  });

  it('has nothing to show when its text says no more than its line', () => {
    expect(shown(notice('See ya!', '<local-command-stdout>See ya!</local-command-stdout>')).detail).toBe(false);
    expect(shown(notice('lint failed: 2 errors', 'lint failed:  2 errors\n')).detail).toBe(false);
    expect(shown(notice('lint failed: 2 errors', 'lint failed: 2 errors\n  at src/a.ts:3')).detail).toBe(true);
    // A second look: a text's own tags (JSX, generics), which its line leaves out, are more to show.
    expect(shown(notice('Use inside to close it', 'Use <Button> inside <Dialog> to close it')).detail).toBe(true);
    expect(shown(notice('Return type: Promise | Array', '<local-command-stdout>Return type: Promise<void> | Array<T></local-command-stdout>')).detail).toBe(true);
  });
});
