// A file of the user's read whole beside the sessions (an agent's configuration, a sub-agent's
// sidecar, a price table): opened without waiting on a pipe, and read only when it is a regular
// file of a size such a file has. A named pipe there with no writer hung every run; a link to
// /dev/zero filled memory.

import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { notAFile } from './file-problems.js';

/** The file's text; throws when it cannot be read, is not a regular file or is larger than `maxBytes` (the message says which). */
export async function readRegularFile(path: string, maxBytes: number): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(notAFile(info));
    if (info.size > maxBytes) throw new Error(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB, far more than such a file holds`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
