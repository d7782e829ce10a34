// A session's page or pages: each entry rendered once and measured, packed into parts of about
// PART_BYTES, each part rendered whole with links across parts pointed at the right file.

import { basename } from 'node:path';
import { flatString } from '../flat-string.js';
import type { SessionKey } from '../ledger/ledger.js';
import type { ReportData, SessionLink } from './data.js';
import type { LayoutView, PageRenderer } from './render.js';
import { sessionPartView, type SessionPageView } from './session-page.js';
import { linkAcrossParts, partPage, planParts, PART_BYTES } from './session-parts.js';

export interface RenderedPage {
  page: string;
  /** Its HTML in UTF-8: encoded once, to be measured and written as it is. */
  bytes: Buffer;
}

/** Where each entry of the session ended up: its page, for links from outside (search). */
export type EntryPages = ReadonlyMap<string, string>;

export function* sessionPages(
  view: SessionPageView,
  page: string,
  renderer: PageRenderer,
  layoutOf: (title: string, page: string) => LayoutView,
  budget = PART_BYTES,
): Generator<RenderedPage, EntryPages> {
  const entriesHtml = renderedEntries(view, renderer, budget);
  const fileOfPart = (index: number) => basename(partPage(page, index));
  const dir = page.slice(0, page.length - basename(page).length);
  // Most sessions fit one page: written whole, no plan. One whose entries alone pass the budget
  // cannot, and is not rendered whole to find that out (a long session's whole page is hundreds of
  // MB); their length in UTF-16 units tells, as no text is shorter in UTF-8.
  if (entriesHtml.reduce((sum, section) => section.reduce((n, html) => n + html.length, sum), 0) <= budget) {
    const whole = { parts: [view.sections.map((section, s) => ({ section: s, from: 0, to: section.entries.length }))] };
    const single = Buffer.from(renderer.render('session', layoutOf(view.title, page), sessionPartView(view, whole, 0, entriesHtml, fileOfPart)));
    if (single.length <= budget) {
      yield { page, bytes: single };
      return new Map(view.sections.flatMap((section) => [section.id, ...section.entries.map((entry) => entry.anchor)].map((anchor) => [anchor, page] as const)));
    }
  }
  const sizes = entriesHtml.map((section) => section.map((html) => Buffer.byteLength(html)));
  // The head (numbers, tree, outline) counts against the first part.
  const head = renderer.render('session', layoutOf(view.title, page), sessionPartView({ ...view, sections: [] }, { parts: [[]] }, 0, [], fileOfPart));
  const outlined = new Map(view.outline.map((item) => [item.anchor, Buffer.byteLength(item.label) + 160]));
  // Every later part carries the page frame and the list of parts; a prompt its line in the outline.
  const frame = renderer.render('session', layoutOf(view.title, page), sessionPartView({ ...view, sections: [], outline: [] }, { parts: [[], []] }, 1, [], fileOfPart));
  const plan = planParts(
    view.sections.map((section, s) => ({ id: section.id, entries: section.entries.map((entry, i) => ({ anchor: entry.anchor, bytes: (sizes[s]?.[i] ?? 0) + (outlined.get(entry.anchor) ?? 0) })) })),
    Buffer.byteLength(head),
    budget,
    Buffer.byteLength(frame) + 40 * 64,
  );
  for (let index = 0; index < plan.parts.length; index++) {
    const part = sessionPartView(view, plan, index, entriesHtml, fileOfPart);
    const title = plan.parts.length === 1 ? view.title : `${view.title} (part ${index + 1} of ${plan.parts.length})`;
    const file = partPage(page, index);
    yield { page: file, bytes: Buffer.from(linkAcrossParts(renderer.render('session', layoutOf(title, file), part), index, plan, fileOfPart)) };
    // Its entries are on no other part: their HTML is let go, so a long session holds less as it goes.
    for (const range of plan.parts[index] ?? []) entriesHtml[range.section]?.fill('', range.from, range.to);
  }
  return new Map([...plan.partOf].map(([anchor, part]) => [anchor, `${dir}${fileOfPart(part)}`]));
}

/** Each section's entries rendered, in page order, each entry's view made and let go in turn (see SectionEntry). */
export function renderedEntries(view: SessionPageView, renderer: PageRenderer, budget = PART_BYTES): string[][] {
  let length = 0;
  return view.sections.map((section) =>
    section.entries.map((entry) => {
      const html = renderer.partial('partials/entry', { entry: entry.view() });
      length += html.length;
      // Past one part's worth, entries are held until their part is written: made one flat string
      // each now, while the many small strings a template joins them from are young and die
      // cheaply (held as they are, they outlived collections and doubled a long session's heap).
      return length > budget ? flatString(html) : html;
    }),
  );
}

/** For each session, the one started just before and just after it in its project. */
export function sessionNeighbours(data: ReportData): Map<SessionKey, { previous: SessionLink | null; next: SessionLink | null }> {
  const byKey = new Map(data.sessions.map((s) => [s.key, s]));
  const link = (key: SessionKey | undefined): SessionLink | null => {
    const session = key === undefined ? undefined : byKey.get(key);
    return session ? { key: session.key, path: session.ledger.path, title: session.ledger.title } : null;
  };
  const neighbours = new Map<SessionKey, { previous: SessionLink | null; next: SessionLink | null }>();
  for (const project of data.projects) {
    // A project lists its sessions newest first.
    project.sessions.forEach((key, i) => neighbours.set(key, { previous: link(project.sessions[i + 1]), next: link(project.sessions[i - 1]) }));
  }
  return neighbours;
}
