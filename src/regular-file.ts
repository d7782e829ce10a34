// A file of the user's read whole beside the sessions (an agent's configuration, a sub-agent's
// sidecar, a price table): opened without waiting on a pipe, and read only when it is a regular
// file of a size such a file has. A named pipe there with no writer hung every run; a link to
// /dev/zero filled memory.

import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { notAFile } from './file-problems.js';

/** How long a pipe that is asked for may stay silent before it is given up on. */
const PIPE_SILENCE_MS = 30_000;
const PIPE_POLL_MS = 20;

/**
 * The file's text; throws when it cannot be read, is not a regular file (but for a pipe, when
 * `pipe` says one may be read: `--prices <(curl …)`) or is larger than `maxBytes` (the message
 * says which).
 */
export async function readRegularFile(path: string, maxBytes: number, { pipe = false } = {}): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (pipe && info.isFIFO()) return await readPipe(handle, maxBytes);
    if (!info.isFile()) throw new Error(notAFile(info));
    if (info.size > maxBytes) throw new Error(tooLarge(maxBytes));
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** A pipe read to its end without blocking: its writer gone once it wrote ends it; silence for PIPE_SILENCE_MS fails it. */
async function readPipe(handle: FileHandle, maxBytes: number): Promise<string> {
  const pieces: Buffer[] = [];
  let total = 0;
  let silentSince = Date.now();
  for (;;) {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    // Nothing yet: EAGAIN while the writer is there, the end of the pipe while none has come (a
    // writer that opens it after bough does) - waited for, as long as the pipe stays silent.
    const bytesRead = await handle.read(buffer, 0, buffer.length, null).then(
      (read) => read.bytesRead,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EAGAIN') return null;
        throw error;
      },
    );
    if (bytesRead === 0 && total > 0) return Buffer.concat(pieces, total).toString('utf8');
    if (bytesRead === null || bytesRead === 0) {
      if (Date.now() - silentSince > PIPE_SILENCE_MS) throw new Error(`a named pipe nothing was written to for ${PIPE_SILENCE_MS / 1000} s`);
      await sleep(PIPE_POLL_MS);
      continue;
    }
    total += bytesRead;
    if (total > maxBytes) throw new Error(tooLarge(maxBytes));
    pieces.push(buffer.subarray(0, bytesRead));
    silentSince = Date.now();
  }
}

function tooLarge(maxBytes: number): string {
  return `larger than ${Math.round(maxBytes / 1024 / 1024)} MB, far more than such a file holds`;
}
