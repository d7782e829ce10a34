// A long session's page, cut into parts of about PART_BYTES of HTML each: entries are packed in
// order, a section (a branch, a sub-agent) that does not fit goes on in the next part, and
// links to an entry in another part are pointed at that part's file. Nothing is dropped.

import { CALL_ANCHOR_MARK } from './conversation.js';

/** About 2 MB per page: a phone opens it, a browser lays it out quickly. */
export const PART_BYTES = 1_900_000;

/** One section's entries, measured, with the anchors they define. */
export interface SectionSizes {
  /** The section's own anchor (its heading's id). */
  id: string;
  /** Its own markup (heading, note), on each part it is on: a session of thousands of short branches is mostly that. */
  bytes: number;
  /** `bytes`: the entry's HTML, and what it adds elsewhere on its page (its line in the outline). */
  entries: { anchor: string; bytes: number }[];
}

/** A run of one section's entries on a part. */
export interface PartRange {
  section: number;
  from: number;
  to: number;
}

export interface PartPlan {
  /** For each part, for each section it holds: the section's index and its entries' range. */
  parts: PartRange[][];
  /** Entry or section anchor → the part (0-based) that holds it (a section: where it starts). */
  partOf: Map<string, number>;
}

/**
 * Packs the sections' entries in order into parts. The first part also carries the session's
 * head (numbers, tree): `headBytes` counts against it; every other part its frame (`partBytes`:
 * header, navigation). Each part holds at least one entry.
 */
export function planParts(sections: readonly SectionSizes[], headBytes: number, budget = PART_BYTES, partBytes = 0): PartPlan {
  const parts: PartPlan['parts'] = [[]];
  const partOf = new Map<string, number>();
  let used = headBytes;
  let entriesInPart = 0;
  sections.forEach((section, s) => {
    let from = 0;
    let starts = parts.length - 1;
    used += section.bytes;
    section.entries.forEach((entry, i) => {
      const { bytes } = entry;
      if (entriesInPart > 0 && used + bytes > budget) {
        if (i > from) (parts.at(-1) as PartRange[]).push({ section: s, from, to: i });
        parts.push([]);
        if (i === 0) starts = parts.length - 1;
        from = i;
        // The section's heading again on the new part ("continued").
        used = partBytes + section.bytes;
        entriesInPart = 0;
      }
      used += bytes;
      entriesInPart++;
      partOf.set(entry.anchor, parts.length - 1);
    });
    (parts.at(-1) as PartRange[]).push({ section: s, from, to: section.entries.length });
    partOf.set(section.id, starts);
  });
  return { parts, partOf };
}

/** The file of part `index` (0-based) of a session whose first part is `page` ("sessions/x.html"). */
export function partPage(page: string, index: number): string {
  return index === 0 ? page : page.replace(/\.html$/, `-part-${index + 1}.html`);
}

/**
 * Points links to entries in other parts at those parts' files. Only bough's own markup has a
 * literal `href="#`: session text is escaped, its quotes included. Found with indexOf rather than
 * a replace: a part is about 2 MB with thousands of links, nearly all within the part, and a part
 * whose links all stay is returned as it is.
 */
export function linkAcrossParts(html: string, current: number, plan: PartPlan, fileOfPart: (index: number) => string): string {
  if (plan.parts.length === 1) return html;
  const pieces: string[] = [];
  let copied = 0;
  for (let at = html.indexOf(LINK); at !== -1; ) {
    const start = at + LINK.length;
    const end = html.indexOf('"', start);
    if (end === -1) break;
    // A link goes on after its closing quote; `href="#"` is none.
    at = html.indexOf(LINK, end === start ? start : end + 1);
    if (end === start) continue;
    // A tool call's anchor lives on its entry's part.
    const anchor = html.slice(start, end);
    const mark = anchor.indexOf(CALL_ANCHOR_MARK);
    const part = plan.partOf.get(mark === -1 ? anchor : anchor.slice(0, mark));
    if (part === undefined || part === current) continue;
    // `href="#a"` → `href="other.html#a"`
    pieces.push(html.slice(copied, start - 1), fileOfPart(part));
    copied = start - 1;
  }
  if (pieces.length === 0) return html;
  pieces.push(html.slice(copied));
  return pieces.join('');
}

const LINK = 'href="#';
