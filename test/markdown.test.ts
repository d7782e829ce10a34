import { describe, expect, it } from 'vitest';
import { markdownText, renderMarkdown, safeUrl } from '../src/report/markdown.js';
import { highlightBudget, highlightCode } from '../src/report/highlight.js';
import { liveMarkup } from './support/html.js';

describe('Markdown from sessions', () => {
  it.each([
    ['raw HTML', '<script>alert(1)</script><img src=x onerror=alert(2)>'],
    ['an autolink with a script scheme', '<javascript:alert(1)>'],
    ['a reference link', '[x][r]\n\n[r]: javascript:alert(1)'],
    ['an entity-encoded scheme', '[x](&#106;avascript:alert(1))'],
    ['a scheme split by a newline', '[x](java\nscript:alert(1))'],
    ['a data: image', '![x](data:text/html;base64,PHNjcmlwdD4=)'],
    ['a hostile code fence language', '```"><script>alert(1)</script>\ncode\n```'],
    ['a task list', '- [x] done\n- [ ] to do'],
    ['an HTML comment and CDATA', '<!-- x --><![CDATA[ <script>alert(1)</script> ]]>'],
  ])('renders %s without live markup', (_, text) => {
    expect(liveMarkup(renderMarkdown(text))).toEqual([]);
  });

  // Regression: a message's "# Plan" was an h1 beside the page's own, 60 extra headings on one
  // session page for a screen reader to wade through.
  it('sets a message\'s headings below the section holding it (h3 to h6), each sized as written', () => {
    expect(renderMarkdown('# Plan\n\n## Goal\n\n### Step\n\n#### Detail\n\n##### More')).toBe(
      '<h3 dir="auto" class="md-h1">Plan</h3>\n<h4 dir="auto" class="md-h2">Goal</h4>\n<h5 dir="auto" class="md-h3">Step</h5>\n<h6 dir="auto" class="md-h4">Detail</h6>\n<h6 dir="auto" class="md-h5">More</h6>\n',
    );
  });

  // Regression: "## Summary" then "#### Detail" were an h5 and an h6 under the section's h2,
  // skipping two levels in the outline a screen reader lists.
  it('numbers the heading depths a message uses one after another, nested ones too', () => {
    expect(renderMarkdown('## Summary\n\n#### Detail\n\n> ###### Quoted')).toBe(
      '<h3 dir="auto" class="md-h2">Summary</h3>\n<h4 dir="auto" class="md-h4">Detail</h4>\n<blockquote>\n<h5 dir="auto" class="md-h6">Quoted</h5>\n</blockquote>\n',
    );
  });

  // Regression: "## Plan", "#### Step", "### Results" were an h3, an h5 and an h4: ranked by
  // depth, the h5 came right after the h3 in reading order.
  it('sets each heading one level below the nearest shallower one before it', () => {
    expect(renderMarkdown('## Plan\n\n#### Step\n\n### Results\n\n# Next')).toBe(
      '<h3 dir="auto" class="md-h2">Plan</h3>\n<h4 dir="auto" class="md-h4">Step</h4>\n<h4 dir="auto" class="md-h3">Results</h4>\n<h3 dir="auto" class="md-h1">Next</h3>\n',
    );
    // Each message starts afresh.
    expect(renderMarkdown('### Alone')).toBe('<h3 dir="auto" class="md-h3">Alone</h3>\n');
  });

  it('keeps http, https and mailto links, and shows images as links, never loading them', () => {
    expect(renderMarkdown('[a](https://example.com/a?b=1&c=2)')).toContain('<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer">a</a>');
    expect(renderMarkdown('![chart](https://example.com/c.png)')).toContain('<a href="https://example.com/c.png" rel="noopener noreferrer">[image: chart]</a>');
    expect(renderMarkdown('[mail](mailto:a@example.com)')).toContain('href="mailto:a@example.com"');
  });

  // Regression (a hostile-input review): Markdown hands a character reference to the page as
  // written, so `&ZeroWidthSpace;` or `&#x202E;` hid or reordered text a raw character would show.
  it('shows references to invisible and reordering characters as the characters are shown', () => {
    expect(renderMarkdown('a&ZeroWidthSpace;b &shy;c &#x202E;d &#8203;e')).toBe(renderMarkdown('a\u200bb \u00adc \u202ed \u200be'));
    expect(renderMarkdown('a&#x202E;b')).toContain('a⟨U+202E⟩b');
    // What reads as itself stays as it reads: a letter, an ampersand, code.
    expect(renderMarkdown('&#65; &amp; `&#x202E;`')).toBe('<p dir="auto">A &amp; <code>&amp;#x202E;</code></p>\n');
  });

  it('keeps only safe schemes, whatever spaces and control characters hide in them', () => {
    expect(['https://a', 'HTTP://a', 'mailto:x', 'javascript:x', ' JaVa\tScRiPt:x', 'vbscript:x', 'data:text/html,x', 'file:///etc/passwd', '#top'].map(safeUrl)).toEqual([
      'https://a',
      'HTTP://a',
      'mailto:x',
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('renders task lists with characters, not form controls', () => {
    expect(renderMarkdown("- [x] done\n- [ ] to do")).toMatch(/<span class="task-box">☑<\/span> done[\s\S]*<span class="task-box">☐<\/span> to do/);
  });
});

describe('raw HTML in a message', () => {
  // Regression: a block of it was escaped but left bare, so the browser ran its lines together.
  it('is shown as written, line by line, as text', () => {
    expect(renderMarkdown('<config>\nport = 8080\nhost = localhost\n</config>\n\nWhy does this fail?')).toBe(
      '<p dir="auto">&lt;config&gt;<br>\nport = 8080<br>\nhost = localhost<br>\n&lt;/config&gt;</p>\n<p dir="auto">Why does this fail?</p>\n',
    );
    expect(renderMarkdown('a <b>x</b> c')).toBe('<p dir="auto">a &lt;b&gt;x&lt;/b&gt; c</p>\n');
  });
});

// Regression (a reader's review): Hebrew and Arabic were laid out left to right, the second
// clause of a sentence first and its question mark at the wrong end.
describe('text written right to left', () => {
  it('sets each paragraph, list and heading in the direction of its own text', () => {
    expect(renderMarkdown('- הבדיקה נכשלת.\n- צריך 2 שורות!\n\nهل تريد؟\n\n### כותרת')).toBe(
      '<ul dir="auto">\n<li>הבדיקה נכשלת.</li>\n<li>צריך 2 שורות!</li>\n</ul>\n<p dir="auto">هل تريد؟</p>\n<h3 dir="auto" class="md-h3">כותרת</h3>\n',
    );
    expect(renderMarkdown('| קובץ | שורות |\n|---|---|\n| a.py | 3 |')).toMatch(/^<table dir="auto">/);
    // A tag the writer typed is text, never given a direction.
    expect(renderMarkdown('see <p> and <ul>')).toBe('<p dir="auto">see &lt;p&gt; and &lt;ul&gt;</p>\n');
  });
});

describe('tildes', () => {
  it('keeps paths with single tildes as text (regression: PATH=~/bin:~/go/bin struck through)', () => {
    expect(renderMarkdown('PATH=~/bin:~/go/bin')).toBe('<p dir="auto">PATH=~/bin:~/go/bin</p>\n');
    expect(renderMarkdown('a ~~struck~~ word')).toBe('<p dir="auto">a <del>struck</del> word</p>\n');
  });
});

describe('a message as plain text, as the search index holds it', () => {
  it('is the text the page shows: marks off, references read, code as written', () => {
    expect(markdownText('Use the &lt;tag&gt; element, **bold phrase** and `codeword` ~here~.', 400)).toBe('Use the <tag> element, bold phrase and codeword ~here~.');
    expect(markdownText('# Plan\n\n- [ ] step one\n- [x] done: `**/*.ts`\n\n> quoted *em*, snake_case_name', 400)).toBe('Plan\n\n☐ step one\n☑ done: **/*.ts\n\nquoted em, snake_case_name');
    expect(markdownText('See [the docs](https://example.com/a/b) and ![a cat](cat.png), \\*not em\\*', 400)).toBe('See the docs and [image: a cat], *not em*');
    // Regression (an outside review): a destination's own parentheses ended the link there, and
    // the index held "Foo) for details", which no search for the shown words finds.
    expect(markdownText('See [Foo](https://en.wikipedia.org/wiki/Foo_(bar)) for details, ![x](a_(1).png).', 400)).toBe('See Foo for details, [image: x].');
    // A fenced block's lines are code, not headings or references.
    expect(markdownText('```bash\n# install deps\necho &amp;\n```\nafter **x**', 400)).toBe(' # install deps\necho &amp;\n \nafter x');
  });

  // Regression: marks were taken off where the page keeps them (a glob), and kept where it does
  // not (within a word, around code): the words as the page shows them were not found.
  // Regression (a hostile look at --share): the index took `\[x](y)` for a link, which the page
  // shows as written, running a key cut there into one.
  it('takes no escaped bracket for a link', () => {
    expect(markdownText('\\[sk-ant-api](https://a)03 and [x](https://b)', 1000)).toBe('[sk-ant-api](https://a)03 and x');
  });

  it('takes emphasis off as the page reads it', () => {
    for (const text of ['~/path/to/*.ts and **/*.js glob', 'un*frigging*believable', 'Math 2*3*4 and a*b*c', '**bold `code_x` bold**', 'snake_case_name, _em_ and __strong__', '**Note:** done', 'a * b * c']) {
      const shown = renderMarkdown(text).replace(/<[^>]+>/g, '').trim();
      expect(markdownText(text, 400)).toBe(shown);
    }
  });

  it('reads only the opening of a long text, and a text the page shows verbatim as written', () => {
    expect(markdownText(`**a** ${'b'.repeat(5_000)}`, 400).length).toBeLessThan(800);
    const deep = `${'> '.repeat(50)}**x**`;
    expect(markdownText(deep, 400)).toBe(deep);
  });
});

// Regression (a hostile-input review): under --redact, a secret written before ": https://…" left
// "[REDACTED:kind]: https://…", a link definition: the line vanished, and the same secret elsewhere
// became a link to that address; one before "(https://…)" a link.
describe('a redaction marker', () => {
  it('stays text where a link or a link definition would begin', () => {
    const html = renderMarkdown(
      '[REDACTED:github-token]: https://evil.example/phish\n\nThe deploy uses [REDACTED:github-token] as its token.\n\n[REDACTED:aws-access-key](https://evil.example/made-link)',
    );
    expect(html).toContain('<p dir="auto">[REDACTED:github-token]: <a href="https://evil.example/phish" rel="noopener noreferrer">https://evil.example/phish</a></p>');
    expect(html).toContain('<p dir="auto">The deploy uses [REDACTED:github-token] as its token.</p>');
    expect(html).not.toContain('>REDACTED:');
    // Nor as a reference link's text, an image's, or under a definition of its name (a hostile look).
    for (const text of ['token [REDACTED:github-token][1] here\n\n[1]: https://evil.example/h', 'my token is [REDACTED:github-token] ok\n\n[redacted:github-token]: https://evil.example/j', '![REDACTED:github-token](https://evil.example/g.png)']) {
      const rendered = renderMarkdown(text);
      expect(rendered).toContain('[REDACTED:github-token]');
      expect(rendered).not.toMatch(/<a [^>]*>[^<]*REDACTED/);
      // And as the search index holds it.
      expect(markdownText(text, 400)).toContain('[REDACTED:github-token]');
    }
    // Links and definitions of the writer's own are as they were.
    expect(renderMarkdown('[docs] and [site](https://a.example)\n\n[docs]: https://b.example')).toBe(
      '<p dir="auto"><a href="https://b.example" rel="noopener noreferrer">docs</a> and <a href="https://a.example" rel="noopener noreferrer">site</a></p>\n',
    );
  });
});

// Regression (an outside review of hostile sizes): a reply of a model stuck repeating itself, a run
// of 150,000 spaces or `_a` 90,000 times, took marked 25 s to a minute a message; a build of a
// 180 KB file ran a minute. Such text is shown as written; prose thick with marks that pair is not.
describe('text marked would take out of proportion to parse', () => {
  it('is shown as written', () => {
    for (const text of ['a' + ' '.repeat(150_000) + 'b', '_a'.repeat(45_000), `${'*a'.repeat(300)}\n`.repeat(10)]) {
      expect(renderMarkdown(text)).toMatch(/^<pre class="verbatim">/);
    }
  });

  it('leaves long lists of bold terms, snake_case and code as Markdown', () => {
    const bold = '- **term** and _more_ words here\n'.repeat(2000);
    expect(renderMarkdown(bold)).toContain('<li><strong>term</strong> and <em>more</em> words here</li>');
    const code = `\`\`\`python\n${'def __init__(self): self.__x = 1\n'.repeat(2000)}\`\`\`\n`;
    expect(renderMarkdown(code)).toMatch(/^<pre><code/);
    expect(renderMarkdown('call my_func_name with some_arg_value\n'.repeat(2000))).toMatch(/^<p dir="auto">call my_func_name/);
  });
});

// Regression (the same review): C#'s grammar took 11 s on 48 KB of lines it does not expect (a
// 50 KB block is coloured); code is coloured a few kilobytes at a time, whole and in order.
describe('code coloured a piece at a time', () => {
  it('keeps every character of a long block, in order, and colours each piece', () => {
    const code = Array.from({ length: 400 }, (_, n) => `public int Field${n} = ${n}; // note ${n}\n${n % 7 === 0 ? '\n' : ''}`).join('');
    const { html, language } = highlightCode(code, 'csharp', highlightBudget());
    expect(language).toBe('csharp');
    const text = html.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, '&');
    expect(text).toBe(code);
    expect(html.match(/<span class="hljs-keyword">public<\/span>/g)).toHaveLength(400);
    expect(html.match(/<span class="hljs-comment">\/\/ note \d+<\/span>/g)).toHaveLength(400);
  });
});
