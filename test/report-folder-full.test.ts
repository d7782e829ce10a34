// A disk that fills as a build makes its staging folder: the build stops with a sentence, and
// leaves nothing behind that no later build would clear.

import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openReportFolder } from '../src/output/report-folder.js';
import { tempDir } from './support/fixtures.js';

const disk = vi.hoisted(() => ({ full: false }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    writeFileSync: (...args: Parameters<typeof real.writeFileSync>) => {
      if (disk.full && String(args[0]).endsWith('.bough-folder')) {
        // As a full disk does it: the file made, nothing written into it.
        real.writeFileSync(args[0], '');
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      return real.writeFileSync(...args);
    },
  };
});

describe('a report folder on a full disk', () => {
  // Regression (a review of builds under stress): the staging folder was made, its marker could
  // not be written, and the folder (an empty marker in it) stayed beside --out for good.
  it('leaves no staging folder behind when its marker cannot be written', async () => {
    const parent = await tempDir();
    const out = join(parent, 'report');
    await mkdir(out);
    disk.full = true;
    try {
      await expect(openReportFolder(out, 'bough test')).rejects.toThrow('Cannot prepare the report folder');
      await expect(openReportFolder(out, 'bough test')).rejects.toThrow('no space is left on its device. Make room or fix that, or choose another --out.');
    } finally {
      disk.full = false;
    }
    expect((await readdir(parent)).filter((name) => name !== 'report' && !name.endsWith('.lock'))).toEqual([]);
    expect(await readdir(out)).toEqual([]);
    const folder = await openReportFolder(out, 'bough test');
    await folder.abort();
  });
});
