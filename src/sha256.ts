// SHA-256 in hex, in one call. Node's one-shot hash (from 20.12) makes no Hash object; a rebuild
// hashes every file's identity, every session's fingerprint and path, and each Hash object cost
// more than hashing its few hundred bytes (a one-turn rebuild over 30,000 sessions: ~0.1 s). Older
// Nodes take the long way.

import * as crypto from 'node:crypto';

const oneShot: typeof crypto.hash | undefined = typeof crypto.hash === 'function' ? crypto.hash : undefined;

export function sha256Hex(data: string | Uint8Array): string {
  return oneShot ? oneShot('sha256', data, 'hex') : crypto.createHash('sha256').update(data).digest('hex');
}
