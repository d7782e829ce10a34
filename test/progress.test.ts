import { describe, expect, it } from 'vitest';
import { progressLine } from '../src/progress.js';

describe('the progress line', () => {
  it('says how far, and how long is left once there is something to go on', () => {
    expect(progressLine('read', 0, 1000, 'files', 0, 5000)).toBe('read 0/1,000 files');
    expect(progressLine('read', 200, 1000, 'files', 0, 500)).toBe('read 200/1,000 files');
    expect(progressLine('read', 200, 1000, 'files', 0, 3000)).toBe('read 200/1,000 files · about 12 s left');
    expect(progressLine('wrote the pages of', 10, 1000, 'sessions', 0, 60_000)).toBe('wrote the pages of 10/1,000 sessions · about 99 min left');
    expect(progressLine('read', 1000, 1000, 'files', 0, 3000)).toBe('read 1,000/1,000 files');
  });
});
