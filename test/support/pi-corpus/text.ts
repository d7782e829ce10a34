// Words, paths and payloads for generated sessions: plausible enough to render like real work,
// sized by an option so the same generator can build benchmark corpora.

import type { Random } from './random.js';

export interface Project {
  cwd: string;
  files: readonly string[];
  /** How often sessions start here. */
  weight: number;
}

export const PROJECTS: readonly Project[] = [
  { cwd: '/home/dev/code/shop-api', files: ['src/cart.ts', 'src/routes/checkout.ts', 'test/cart.test.ts', 'package.json'], weight: 6 },
  { cwd: '/Users/ana/work/bough-site', files: ['src/pages/index.astro', 'src/styles/site.css', 'astro.config.mjs'], weight: 4 },
  // A dash in the path: Pi's folder name cannot tell it from a separator.
  { cwd: '/home/dev/code/my-app', files: ['app/main.py', 'app/models/user.py', 'tests/test_user.py', 'pyproject.toml'], weight: 4 },
  { cwd: '/home/dev/src/ml-pipeline', files: ['pipeline/train.py', 'pipeline/data.py', 'configs/base.yaml'], weight: 2 },
  { cwd: 'C:\\Users\\ana\\src\\invoice-tool', files: ['src\\Program.cs', 'src\\Invoice.cs', 'tests\\InvoiceTests.cs'], weight: 2 },
  { cwd: '/home/dev/notes/日本語-wiki', files: ['docs/索引.md', 'docs/setup.md', 'mkdocs.yml'], weight: 1 },
];

/** Pi's project folder name (formats/pi.md §1): drop one leading separator, then / \ : → -. */
export function encodeCwd(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/** `2026-01-02T03:04:05.678Z` → `2026-01-02T03-04-05-678Z`. */
export function fileTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

const TASKS = [
  'Fix the failing test in {file}',
  'Why does {file} throw on an empty list?',
  'Add input validation to {file} and cover it with a test',
  'Refactor {file}: split the long function into smaller ones',
  'Rename the helper in {file} to something clearer',
  'Look at {file} and tell me what could go wrong under load',
  'Write a README section about {file}',
  'Bump the dependency and fix what breaks',
  'The CI job is red again — can you check {file}? 🙏',
  'Explique-moi ce que fait {file}, s’il te plaît',
  '{file} のエラー処理を直して',
];

const FOLLOW_UPS = [
  'Good, now run the tests.',
  'Can you make it shorter?',
  'That broke the build, revert the last change.',
  'Also handle the null case.',
  'Looks right. Commit it with a good message.',
  'Hmm, no. Try a different approach.',
  'Use the existing helper instead of a new one.',
  'Perfect, thanks! ✅',
];

export function taskPrompt(rng: Random, project: Project): string {
  return rng.pick(TASKS).replace('{file}', rng.pick(project.files));
}

export function followUp(rng: Random): string {
  return rng.pick(FOLLOW_UPS);
}

const SKILLS = [
  { name: 'code-review', body: '# Code review\n\nRead the diff, list risks first, then style nits.\nNever approve without running the tests.' },
  { name: 'release', body: '# Release\n\n1. Update CHANGELOG.md\n2. Bump the version\n3. Tag and push' },
  { name: 'pdf-tools', body: '# PDF tools\n\nUse `scripts/extract.py <file>` to get text out of a PDF.' },
];

/** A `/skill:name args` prompt as Pi stores it, in the format of its era (formats/pi.md §14). */
export function skillPrompt(rng: Random, newFormat: boolean): string {
  const skill = rng.pick(SKILLS);
  const dir = `/home/dev/.pi/agent/skills/${skill.name}`;
  const args = rng.chance(0.7) ? rng.pick(['the last commit', 'version 2.3.0', 'docs/spec.pdf', 'src/cart.ts please']) : '';
  if (newFormat) {
    const block = `<skill name="${skill.name}" location="${dir}/SKILL.md">\nReferences are relative to ${dir}.\n\n${skill.body}\n</skill>`;
    return args ? `${block}\n\n${args}` : block;
  }
  const text = `Skill location: ${dir}/SKILL.md\nReferences are relative to ${dir}.\n\n${skill.body}`;
  return args ? `${text}\n\n---\n\nUser: ${args}` : text;
}

const CODE_LINES = [
  'export function total(items: Item[]): number {',
  '  return items.reduce((sum, item) => sum + item.price * item.quantity, 0);',
  '}',
  'const cart = new Map<string, Item>();',
  "if (!user) throw new Error('no user');",
  'def load(path):',
  '    with open(path, encoding="utf-8") as f:',
  '        return json.load(f)',
  '// TODO: handle the empty case (see #412)',
  'console.log(`checkout took ${ms} ms`);',
  '  "scripts": { "test": "vitest run" },',
  'SELECT id, email FROM users WHERE deleted_at IS NULL;',
];

/** About `bytes` characters of code-like lines (at least one line). */
export function codeText(rng: Random, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  do {
    const line = rng.pick(CODE_LINES);
    lines.push(line);
    size += line.length + 1;
  } while (size < bytes);
  return lines.join('\n');
}

export function numbered(text: string): string {
  return text
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(4)}\t${line}`)
    .join('\n');
}

const REPLIES = [
  'Done. The function now returns early on an empty list, and the new test covers it.',
  'I found the problem: the loop compares with `<=`, so it reads one element past the end.',
  'Here is a summary of the changes:\n\n- moved parsing into `parse()`\n- added tests\n- updated the docs',
  'All 42 tests pass now. 🎉',
  'The build fails because `zod` was bumped to a new major version; I pinned it for now.',
  'Je l’ai corrigé : la valeur nulle est maintenant gérée.',
  '修正しました。テストもすべて通ります。',
];

export function replyText(rng: Random): string {
  return rng.pick(REPLIES);
}

export function thinkingText(rng: Random): string {
  return rng.pick([
    'The user wants the failing test fixed. Let me read the file first.',
    'I should check how the helper is used elsewhere before renaming it.',
    'The error says undefined is not iterable; probably the list can be missing.',
  ]);
}

export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Rough token count of a text, for realistic context growth. */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}
