// Files are read into ledgers across threads by the installed command (the compiled code: the
// tests themselves run the TypeScript sources, which read in one thread). Threads or not, the
// numbers, warnings and redactions are the same; a file that breaks a reader costs that file.

import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCompiledBough, requireCompiledBough } from './support/compiled-bough.js';
import { FIXTURES, tempDir } from './support/fixtures.js';
import { generatePiCorpus } from './support/pi-corpus.js';

function bough(args: string[], threads: string, cacheDir: string, env: Record<string, string> = {}) {
  return runCompiledBough(args, { BOUGH_THREADS: threads, BOUGH_CACHE_DIR: cacheDir, ...env });
}

describe('reading in threads', () => {
  let input: string;
  let cacheDir: string;
  beforeAll(async () => {
    await requireCompiledBough();
    input = join(await tempDir(), 'in');
    for (const agent of ['pi', 'claude', 'codex', 'broken', 'secrets']) await cp(join(FIXTURES, agent), join(input, agent), { recursive: true });
    await generatePiCorpus(join(input, 'generated'), { sessions: 24, seed: 7 });
    // Not a session at all, and not JSON: skipped with a note, threads or not.
    await mkdir(join(input, 'odd'), { recursive: true });
    await writeFile(join(input, 'odd', 'notes.jsonl'), 'plain words\n');
    cacheDir = join(await tempDir(), 'cache');
  }, 60_000);

  it('gives the same stats as reading in one thread', async () => {
    const args = ['stats', input, '--json', '--by', 'session', '--tz', 'UTC', '--no-cache'];
    const one = await bough(args, '0', cacheDir);
    const three = await bough(args, '3', cacheDir);
    expect(one.code, one.stderr).toBe(0);
    expect(three.code, three.stderr).toBe(0);
    expect(JSON.parse(three.stdout)).toEqual(JSON.parse(one.stdout));
    expect(JSON.parse(one.stdout).totals.sessions).toBeGreaterThan(24);
  }, 60_000);

  it('writes the same redacted report, its redactions counted once each, and warns of the same lines', async () => {
    const summaries = [];
    for (const threads of ['0', '2']) {
      const out = join(await tempDir(), `report-${threads}`);
      const run = await bough(['build', input, '--out', out, '--redact', '--tz', 'UTC', '--quiet'], threads, cacheDir);
      expect(run.code, run.stderr).toBe(0);
      summaries.push(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')));
    }
    const [one, two] = summaries;
    expect(two).toEqual(one);
    expect(Object.values(one.sharing.redactions as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(one.diagnostics.skippedFiles).toBeGreaterThan(0);
  }, 60_000);

  it('writes the same pages on threads as in one thread, the main thread writing some', async () => {
    const folders: Map<string, string>[] = [];
    for (const [threads, env] of [['0', {}], ['2', {}], ['1', {}]] as const) {
      const out = join(await tempDir(), `pages-${threads}`);
      const run = await bough(['build', input, '--out', out, '--tz', 'UTC', '--quiet', '--no-cache'], threads, cacheDir, env);
      expect(run.code, run.stderr).toBe(0);
      const files = new Map<string, string>();
      for (const name of await readdir(out, { recursive: true })) {
        // When it was built (the index's first line, when each file was last seen, when the archive
        // first held each, and so the size of the ledger file holding that time) aside. The
        // archive's records among them: the same lines in the same order, whichever thread wrote a session.
        if (/\.(html|json|jsonl|csv|js)$/.test(name) && name !== 'index.html' && !name.endsWith('seen.json') && !name.endsWith('build.json')) files.set(name, (await readFile(join(out, name), 'utf8')).replace(/"(since|ledgerBytes)":\d+/g, '"$1":0'));
      }
      folders.push(files);
    }
    const [one, ...others] = folders as [Map<string, string>, ...Map<string, string>[]];
    for (const other of others) {
      expect([...other.keys()].sort()).toEqual([...one.keys()].sort());
      expect([...other].filter(([name, text]) => one.get(name) !== text).map(([name]) => name)).toEqual([]);
    }
    expect([...one.keys()].filter((name) => name.startsWith('sessions')).length).toBeGreaterThan(24);
  }, 60_000);

  it('fills the cache from the threads: a second run reads nothing and says the same', async () => {
    const args = ['stats', input, '--json', '--by', 'session', '--tz', 'UTC'];
    const cold = await bough(args, '2', cacheDir);
    const warm = await bough(args, '2', cacheDir);
    expect(cold.code, cold.stderr).toBe(0);
    expect(JSON.parse(warm.stdout)).toEqual(JSON.parse(cold.stdout));
  }, 60_000);
});
