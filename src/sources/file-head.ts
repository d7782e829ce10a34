// What a file's first lines say of one field, read without parsing them: enough to tell which
// session a file beside another belongs to, when that one is given alone.

import { open } from 'node:fs/promises';

/**
 * The first string value of `"field": "…"` in a file's first `bytes` bytes (a header may carry
 * kilobytes of instructions before it), or null when none is there or the file cannot be read.
 */
export async function firstFieldValue(path: string, field: string, bytes: number): Promise<string | null> {
  const file = await open(path, 'r').catch(() => null);
  if (file === null) return null;
  try {
    const { bytesRead, buffer } = await file.read(Buffer.alloc(bytes), 0, bytes, 0);
    const pattern = new RegExp(`"${field}"\\s*:\\s*"([^"\\\\]*)"`);
    return pattern.exec(buffer.toString('utf8', 0, bytesRead))?.[1] ?? null;
  } catch {
    return null;
  } finally {
    await file.close();
  }
}
