// A session's page or pages: each entry rendered once and measured, packed into parts of about
// PART_BYTES, each part rendered whole with links across parts pointed at the right file.

import { basename } from 'node:path';
import { flatString } from '../flat-string.js';
import type { SessionKey } from '../ledger/ledger.js';
import type { ReportData, SessionLink } from './data.js';
import type { LayoutView, PageRenderer } from './render.js';
import { escapeHtml } from './escape.js';
import { COPIED_RUN_BYTES, sessionPartView, type SectionView, type SessionPageView } from './session-page.js';
import { linkAcrossParts, partPage, planParts, PART_BYTES, type PartRange } from './session-parts.js';
import type { EntrySpool } from '../output/entry-spool.js';

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
  options: { budget?: number; spool?: (() => EntrySpool) | null } = {},
): Generator<RenderedPage, EntryPages> {
  const budget = options.budget ?? PART_BYTES;
  const openSpool = options.spool ?? null;
  let spool: EntrySpool | null = null;
  try {
    // Opened the first time an entry goes to it, once.
    const entries = renderedEntries(view, renderer, budget, openSpool && (() => (spool ??= openSpool())));
    const htmlOf = (range: PartRange) => entries.html(range);
    const fileOfPart = (index: number) => basename(partPage(page, index));
    const dir = page.slice(0, page.length - basename(page).length);
    // Most sessions fit one page: written whole, no plan. One whose entries alone pass the budget
    // cannot, and is not rendered whole to find that out (a long session's whole page is hundreds of
    // MB); their length in UTF-16 units tells, as no text is shorter in UTF-8.
    if (entries.length <= budget) {
      const whole = { parts: [view.sections.map((section, s) => ({ section: s, from: 0, to: section.entries.length }))] };
      const single = Buffer.from(renderer.render('session', layoutOf(view.title, page), sessionPartView(view, whole, 0, htmlOf, fileOfPart)));
      if (single.length <= budget) {
        yield { page, bytes: single };
        return new Map(view.sections.flatMap((section) => [section.id, ...section.entries.map((entry) => entry.anchor)].map((anchor) => [anchor, page] as const)));
      }
    }
    const sizes = entries.sizes();
    // The head (numbers, tree) counts against the first part; the outline lists a part's own
    // prompts, each counted with its entry below (rendered here whole, it took a long session's
    // first part: 22 MB of outline for 113,000 prompts left it one entry).
    const head = renderer.render('session', layoutOf(view.title, page), sessionPartView({ ...view, sections: [], outline: [] }, { parts: [[]] }, 0, htmlOf, fileOfPart));
    const outlined = new Map(view.outline.map((item) => [item.anchor, Buffer.byteLength(item.label) + 160]));
    // Every later part carries the page frame and the list of parts; a prompt its line in the outline.
    const frame = renderer.render('session', layoutOf(view.title, page), sessionPartView({ ...view, sections: [], outline: [] }, { parts: [[], []] }, 1, htmlOf, fileOfPart));
    const plan = planParts(
      view.sections.map((section, s) => ({
        id: section.id,
        bytes: sectionBytes(section),
        entries: section.entries.map((entry, i) => ({
          anchor: entry.anchor,
          // A run of copied entries is folded in markup of its own, which may open on any of them (a new part).
          bytes: (sizes[s]?.[i] ?? 0) + (outlined.get(entry.anchor) ?? 0) + (entry.copied ? COPIED_RUN_BYTES : 0),
        })),
      })),
      Buffer.byteLength(head),
      budget,
      Buffer.byteLength(frame) + 40 * 64,
    );
    for (let index = 0; index < plan.parts.length; index++) {
      const part = sessionPartView(view, plan, index, htmlOf, fileOfPart);
      const title = plan.parts.length === 1 ? view.title : `${view.title} (part ${index + 1} of ${plan.parts.length})`;
      const file = partPage(page, index);
      yield { page: file, bytes: Buffer.from(linkAcrossParts(renderer.render('session', layoutOf(title, file), part), index, plan, fileOfPart)) };
      // Its entries are on no other part: their HTML is let go, so a long session holds less as it goes.
      for (const range of plan.parts[index] ?? []) entries.release(range);
    }
    return new Map([...plan.partOf].map(([anchor, part]) => [anchor, `${dir}${fileOfPart(part)}`]));
  } finally {
    // Done, failed, or abandoned by its caller: the spool goes either way.
    (spool as EntrySpool | null)?.remove();
  }
}

/** The session template's markup around a section's texts, at most (a sub-agent's is the longer). */
const SECTION_MARKUP_BYTES = 400;

/** A section's own markup on a part, its entries aside: its texts as escaped, and the template's around them. */
function sectionBytes(section: SectionView): number {
  const texts = [section.id, section.heading, section.note, section.from?.href, section.from?.label, section.summary, section.file];
  return texts.reduce((sum: number, text) => sum + (text ? Buffer.byteLength(escapeHtml(text)) : 0), SECTION_MARKUP_BYTES);
}

/** A session's entries rendered in page order, each held until its part is written. */
export interface RenderedEntries {
  /** Their HTML's length in UTF-16 units, in all. */
  length: number;
  /** Each entry's size in UTF-8, by section. */
  sizes(): number[][];
  /** The HTML of a run of one section's entries. */
  html(range: PartRange): string[];
  /** Lets go of a run's HTML (its part is written). */
  release(range: PartRange): void;
}

/** One section's entries: the first ones' HTML here, from `spooledFrom` on in the spool. */
interface HeldSection {
  html: string[];
  spooledFrom: number;
  offsets: number[];
  bytes: number[];
}

/**
 * Each section's entries rendered, in page order, each entry's view made and let go in turn (see
 * SectionEntry). Past one part's worth, the entries are held until their part is written: in the
 * spool when there may be one (opened then, so a session that fits a page never has one), else
 * here.
 */
export function renderedEntries(view: SessionPageView, renderer: PageRenderer, budget = PART_BYTES, spool: (() => EntrySpool) | null = null): RenderedEntries {
  let length = 0;
  const sections: HeldSection[] = view.sections.map((section) => {
    const held: HeldSection = { html: [], spooledFrom: section.entries.length, offsets: [], bytes: [] };
    section.entries.forEach((entry, i) => {
      const html = entry.kept ?? renderer.partial('partials/entry', { entry: entry.view() });
      length += html.length;
      if (length <= budget) held.html.push(html);
      else if (spool) {
        const place = spool().add(html);
        held.spooledFrom = Math.min(held.spooledFrom, i);
        held.offsets.push(place.offset);
        held.bytes.push(place.bytes);
      }
      // Held as they are, the many small strings a template joins an entry from outlived
      // collections and doubled a long session's heap: made one flat string now, while young.
      else held.html.push(flatString(html));
    });
    return held;
  });
  return {
    length,
    sizes: () => sections.map((held) => [...held.html.map((html) => Buffer.byteLength(html)), ...held.bytes]),
    html({ section, from, to }) {
      const held = sections[section];
      if (!held) return [];
      const here = held.html.slice(from, Math.min(to, held.spooledFrom));
      const first = Math.max(from, held.spooledFrom) - held.spooledFrom;
      const last = to - held.spooledFrom;
      if (last <= first || !spool) return here;
      // A run's entries lie one after another in the spool: read at once, cut apart.
      const start = held.offsets[first] as number;
      const block = spool().read(start, (held.offsets[last - 1] as number) + (held.bytes[last - 1] as number) - start);
      for (let i = first; i < last; i++) {
        const at = (held.offsets[i] as number) - start;
        here.push(block.toString('utf8', at, at + (held.bytes[i] as number)));
      }
      return here;
    },
    release({ section, from, to }) {
      sections[section]?.html.fill('', from, to);
    },
  };
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
