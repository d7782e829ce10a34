// A small file system of the test's own, to fill: where this machine lets the tests mount one
// (root, outside most containers; CI runs so), else null and the test is skipped.

import { execFileSync } from 'node:child_process';

export function mountedSmallDisk(dir: string, options: string): { unmount: () => void } | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
    return { unmount: () => execFileSync('umount', [dir], { stdio: 'ignore' }) };
  } catch {
    return null;
  }
}
