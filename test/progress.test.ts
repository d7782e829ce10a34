import { describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { main, type CliIo } from '../src/cli.js';
import { progressCounter, progressLine } from '../src/progress.js';
import { displayWidth } from '../src/terminal-text.js';
import { FIXTURES, tempDir } from './support/fixtures.js';

describe('the progress line', () => {
  it('says how far, and how long is left once there is something to go on', () => {
    expect(progressLine('read', 0, 1000, 'files', 0, 5000)).toBe('read 0/1,000 files');
    expect(progressLine('read', 200, 1000, 'files', 0, 500)).toBe('read 200/1,000 files');
    expect(progressLine('read', 200, 1000, 'files', 0, 3000)).toBe('read 200/1,000 files · about 12 s left');
    expect(progressLine('wrote the pages of', 10, 1000, 'sessions', 0, 60_000)).toBe('wrote the pages of 10/1,000 sessions · about 99 min left');
    expect(progressLine('read', 1000, 1000, 'files', 0, 3000)).toBe('read 1,000/1,000 files');
  });

  it('tells the time left from the work done when the files differ in size, the largest first', () => {
    // 2 files of 1,000 in 10 s, but they were half the bytes: about 10 s more, not 83 min.
    expect(progressLine('read', 2, 1000, 'files', 0, 10_000, 0.5)).toBe('read 2/1,000 files · about 10 s left');
  });

  it('counts from when the work is known, files the cache had costing none', () => {
    const lines: string[] = [];
    vi.useFakeTimers({ now: 0 });
    try {
      const tick = progressCounter('read', 4, 'files', (line) => lines.push(line));
      vi.setSystemTime(5_000);
      tick(0);
      tick.expect(300);
      vi.setSystemTime(7_000);
      tick(100);
      vi.setSystemTime(9_000);
      tick(100);
      vi.setSystemTime(9_500);
      tick(100);
    } finally {
      vi.useRealTimers();
    }
    // Until the work is known, by the count; then 2 s for a third of the bytes (the cached file
    // took 5 s of lookups and no work): 4 s left, not 5.
    expect(lines).toEqual(['read 1/4 files · about 15 s left', 'read 2/4 files · about 4 s left', 'read 3/4 files · about 2 s left', 'read 4/4 files']);
  });
});

// A hostile look: on a pane narrower than the line, each line wrapped and its first rows stayed on
// the screen (only the cursor's row is cleared), one under another.
describe('the progress line on a narrow terminal', () => {
  it('is cut to the terminal’s width, short of its last column', async () => {
    let stderr = '';
    const io: CliIo = { stdout: () => undefined, stderr: (text) => (stderr += text), env: {}, home: await tempDir(), isTty: true, columns: () => 24, now: () => new Date('2026-12-01T00:00:00Z') };
    expect(await main(['stats', join(FIXTURES, 'pi'), '--no-cache', '--tz', 'UTC'], io)).toBe(0);
    // The clear before the run's own sentences (which wrap as text does) is no progress line.
    const lines = stderr.split('\r\u001b[2K').slice(1).map((part) => part.split('\n')[0] ?? '').filter((line) => line !== '' && !line.startsWith('bough:'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(23);
    expect(lines.some((line) => line.endsWith('…'))).toBe(true);
  });
});
