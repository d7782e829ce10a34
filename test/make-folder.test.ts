// bough's own mkdir -p: every missing folder made, parent first; the first that cannot be made is
// the error, at once (regression: Node's recursive mkdir spun for ever below /proc, so
// `--out /proc/x/y` or BOUGH_CACHE_DIR=/proc/x hung bough at full CPU).

import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFolderSync } from '../src/make-folder.js';
import { tempDir } from './support/fixtures.js';

describe('making folders', () => {
  it('makes every missing folder, and takes one already there', async () => {
    const root = await tempDir();
    makeFolderSync(join(root, 'a', 'b', 'c'));
    expect(statSync(join(root, 'a', 'b', 'c')).isDirectory()).toBe(true);
    makeFolderSync(join(root, 'a', 'b', 'c'));
  });

  it('fails at the first folder it cannot make: a file in the way', async () => {
    const root = await tempDir();
    await writeFile(join(root, 'file'), 'x');
    expect(() => makeFolderSync(join(root, 'file', 'b'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(() => makeFolderSync(join(root, 'file'))).toThrow(expect.objectContaining({ code: 'EEXIST' }));
  });

  it.skipIf(!existsSync('/proc/self'))('fails at once below /proc, where Node\'s own recursive mkdir never returns', () => {
    expect(() => makeFolderSync('/proc/no-such-bough-folder/x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
