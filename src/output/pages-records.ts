// The archive's pages.jsonl, written into the staging folder as sessions are archived, a batch
// of lines at a time, in the order they are archived (a build on several threads may order them
// otherwise; they are read by name). A session's line holds its search items: every line held to
// the end was ~30 MB more at the peak of a cold build of 300 MB of sessions.

import { appendFileSync, writeFileSync } from 'node:fs';
import { PAGES_RECORDS_PATH, pagesRecordLine, type PagesRecord } from '../archive.js';
import { stagedPath } from './report-folder.js';

export interface PagesRecords {
  /** A session's record; one already added under its name is not added again. */
  add(record: PagesRecord): void;
  /** Writes the lines still pending: the staging folder's pages.jsonl is then whole. */
  finish(): void;
}

/** Lines held before they are written: a few dozen sessions' at most. */
const BATCH_CHARS = 256 * 1024;

export function openPagesRecords(staging: string): PagesRecords {
  const path = stagedPath(staging, PAGES_RECORDS_PATH);
  writeFileSync(path, '', { flag: 'wx' });
  const names = new Set<string>();
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    appendFileSync(path, pending);
    pending = '';
  };
  return {
    add(record) {
      if (names.has(record.name)) return;
      names.add(record.name);
      pending += pagesRecordLine(record);
      if (pending.length >= BATCH_CHARS) flush();
    },
    finish: flush,
  };
}
