// Pi as a SourceReader: where its sessions live, how its files are told apart, how its usage is
// counted once and priced.

import { basename } from 'node:path';
import { diagnostic } from '../../diagnostics.js';
import type { SourceReader } from '../registry.js';
import type { SourceInput } from '../source-input.js';
import type { SessionFile } from '../../types.js';
import { piLocalProviders } from './models-json.js';
import { isPiProjectFolder, isPiSessionsProjectFolder, piAgentDir, piSessionPlaces } from './paths.js';
import { piPriceHint } from './prices.js';
import { headerKeptWithout, isPiHeader, isPiRecord, readPiSession, salvagePiHeader } from './read.js';

export const piReader: SourceReader = {
  source: 'pi',
  defaultPlaces: piSessionPlaces,
  // `sessions/--<cwd>--/<file>.jsonl`, or a custom session folder's own files (pi.md §1: flat; it
  // may be the default one all the same): what sub-agent extensions keep beside them
  // (pi-subagents' `subagent-artifacts/`) is theirs.
  sessionFolder: (name, depth) => depth === 1 && isPiProjectFolder(name),
  sessionsOnlyAtTop: isPiSessionsProjectFolder,
  // v0.30.0 saved sessions in the agent folder itself; later versions move them, once, at start
  // (pi.md §1), so a machine that never upgraded still has them there.
  straySessions: { places: (environment) => [piAgentDir(environment)], firstType: 'session' },
  isRecord: isPiRecord,
  recognise(first) {
    if (isPiHeader(first)) return 'header';
    return isPiRecord(first) ? 'record' : null;
  },
  read: readPiFile,
  // Entries copied into forks keep their id and timestamp: the origin, read first, counts them.
  usageClaim: 'first',
  priceHint: piPriceHint,
  // Pi's models.json on this machine only: a copied agent folder's is not looked for.
  localProviders: async (environment) => ({ machine: [...(await piLocalProviders(environment))], homes: [], folders: [] }),
};

async function readPiFile(input: SourceInput): Promise<SessionFile> {
  const { first } = input;
  const firstRecord = first.records[0] as Record<string, unknown>;
  if (first.as === 'header' || firstRecord['type'] === 'session') {
    const pending = first.records.length > 1 ? [{ line: first.line, records: first.records.slice(1), clean: false }] : [];
    // A header out of shape in some field keeps the others: its cwd and id above all (pi.md §1).
    const { header, left } = headerKeptWithout(firstRecord, basename(input.path));
    if (left.length > 0) {
      const them = left.length === 1 ? 'it' : 'them';
      input.diagnostics.push(diagnostic('invalid-record', input.path, first.line, `session header: ${left.join(', ')} not as the format has ${them} (kept without ${them})`));
    }
    return readPiSession({ ...input, header, headerLine: first.line, pending });
  }
  // Entries with no header before them: the header line was damaged. Keep the entries.
  const damaged = input.damaged;
  const header = salvagePiHeader(damaged.map((d) => d.text), basename(input.path), first.records[0] as Record<string, unknown>);
  input.diagnostics.push(diagnostic('header-damaged', input.path, damaged[0]?.number ?? null, `no readable session header; rebuilt from ${header.from}`));
  return readPiSession({ ...input, header: header.record, headerLine: damaged[0]?.number ?? 0, pending: [first] });
}
