// Codex as a SourceReader: where its rollouts live, how its files are told apart, how its usage is
// counted once and priced.

import { GROWING_TAIL } from '../../ledger/ledger.js';
import type { SourceReader } from '../registry.js';
import type { SourceInput } from '../source-input.js';
import type { SessionFile } from '../../types.js';
import { codexLocalProviders } from './config.js';
import { codexCompanions, codexSessionPlaces, isArchivedRollout, ROLLOUT_FOLDERS, rolloutThreadId } from './paths.js';
import { codexPriceHint } from './prices.js';
import { sessionIndexVersion, threadNameOf } from './session-index.js';
import { isCodexHeader, isCodexRecord, isIndexNameId, isHeaderlessCodexRecord, isLegacyCodexHeader, readCodexSession } from './read.js';

export const codexReader: SourceReader = {
  source: 'codex',
  defaultPlaces: codexSessionPlaces,
  isRecord: isCodexRecord,
  recognise(first) {
    if (isCodexHeader(first) || isLegacyCodexHeader(first)) return 'header';
    // session_index.jsonl and history.jsonl lines have no `type`: never taken for a rollout.
    return isHeaderlessCodexRecord(first) ? 'record' : null;
  },
  read: readCodexFile,
  // Usage is claimed by the thread's running totals (see read.ts): a fork's or a spawned child's
  // replay of its parent, and an archived copy, hold the same claims; the origin, placed first, counts them.
  usageClaim: 'first-in-turn',
  // sessions/ and archived_sessions/ copies of one thread (codex.md §1): the fullest is the session.
  mirrorsSessions: true,
  isArchived: isArchivedRollout,
  priceHint: codexPriceHint,
  localProviders: codexLocalProviders,
  companions: codexCompanions,
  // A thread's title is the name session_index.jsonl gives it now, which a rename changes. A
  // rollout named otherwise (older names) has its thread's id inside, not in its name: any change
  // to the index may be one to it.
  besideFile: async (path) => {
    const id = rolloutThreadId(path);
    if (id === null) return sessionIndexVersion(path);
    // Its time too: against a rename in the rollout, the newer name wins.
    const named = await threadNameOf(path, id);
    return named === null ? '' : `${named.updatedAt}:${named.name}`;
  },
  isBesideEntry: isIndexNameId,
  growingTail: GROWING_TAIL,
  // A Codex home given as an input: its thread names and its prompt history sit beside sessions/.
  ownFiles: (names) => (ROLLOUT_FOLDERS.some((folder) => names.has(folder)) ? ['session_index.jsonl', 'history.jsonl'] : []),
};

function readCodexFile(input: SourceInput): Promise<SessionFile> {
  const { first } = input;
  return readCodexSession({ ...input, first: { line: first.line, records: first.records, clean: first.clean }, headerless: first.as === 'record' });
}
