// The session's tree as inline SVG: one row per turn (a prompt and what followed it, split at
// branch points), one lane per branch, every node a link to its place in the conversation.
//
// The SVG carries its own drawing attributes (fill, stroke, font), so it draws the same in a page
// opened without its stylesheet; the stylesheet only re-themes it (CSS beats presentation attributes).

import type { Branch } from '../../model/branches.js';
import type { EntryTree } from '../../model/tree.js';
import type { Entry } from '../../types.js';
import { escapeHtml } from '../escape.js';
import { formatCount } from '../format.js';
import { cutText } from '../../unicode-text.js';

/** A kind of mark the tree draws, for the legend beside it: its mark drawn alone, and what it means. */
export interface TreeLegendKey {
  swatch: string;
  label: string;
}

/** The tree, and the legend of the marks it drew (set in the page, where it wraps on a phone; in the SVG it was cut by the scroll box's edge). */
export interface TreeDrawing {
  svg: string;
  legend: TreeLegendKey[];
}

export interface TreeSvgOptions {
  /** The full link to an entry: "#e-…" on a one-page session, "part-3.html#e-…" on a split one. */
  hrefOf: (entry: Entry) => string;
  /** Entries copied from an origin file (drawn dashed). */
  copied: (entry: Entry) => boolean;
  describe: (entry: Entry) => string;
}

/** One row: a turn, or (in a large tree) a run of plain turns in a line drawn as one row. */
interface Node {
  start: Entry;
  entries: Entry[];
  row: number;
  lane: number;
  parent: Node | null;
  branch: Branch;
  children: number;
  /** Turns folded into this row; 1 for an ordinary turn. */
  turns: number;
}

const ROW = 24;
const PAD = 12;
/** A bookmark's label drawn at most this long; the row's tooltip has it whole. */
const BOOKMARK_CHARS = 40;
const LABEL_CHARS = 72;
/** Room for a row's label at the least (px): as wide as a label of plain words of LABEL_CHARS needs. */
const LABEL_WIDTH = 560;
const TOOLTIP_CHARS = 300;
/** Lanes narrow when there are many, so the labels stay in view. */
const LANE_MAX = 16;
const LANE_MIN = 6;
const LANES_WIDTH = 320;
/**
 * Lanes drawn at most; branches beyond share the last one, their rows still apart. One entry with
 * 300 branches took 300 lanes, and pushed every label 1,900 px to the right, out of view.
 */
const MAX_LANES = Math.floor(LANES_WIDTH / LANE_MIN);
const BRANCH_TAG_WIDTH = 86;
/** Above this many turns, runs of plain turns in a line fold into one row each. */
const FOLD_ABOVE = 300;
/** Rows a folded tree aims for (turns worth marking are never folded, so it can be more). */
const FOLDED_ROWS = 240;
/**
 * Rows drawn at most, the active path's first, then the others in file order: a tree of tens of
 * thousands of branches keeps each of their leaves, and drew 26 MB of SVG into its page. The rest
 * are named by a last line; every branch is in the conversation below the tree.
 */
const MAX_DRAWN_ROWS = 1000;

/** The light theme's colours, drawn into the SVG; bough.css re-themes them. */
const INK = {
  text: '#1f2328',
  muted: '#5f6b76',
  edge: '#a8a398',
  active: '#2f6f4e',
  panel: '#ffffff',
  error: '#b42318',
  compaction: '#9a6700',
} as const;
const FONT = 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif';

interface Marks {
  active: boolean;
  copied: boolean;
  error: boolean;
  compaction: boolean;
}

export function treeSvg(tree: EntryTree, branches: readonly Branch[], options: TreeSvgOptions): TreeDrawing {
  const turns = turnNodes(tree, branches);
  if (turns.length === 0) return { svg: '', legend: [] };
  const labels = labelsByTarget(tree.entries);
  const folded = turns.length > FOLD_ABOVE ? foldRuns(turns, labels, Math.ceil(turns.length / FOLDED_ROWS)) : turns;
  // A node's parent is on an earlier row: the rows kept hang together.
  const nodes = rowsToDraw(folded, MAX_DRAWN_ROWS);
  const notDrawn = folded.reduce((n, node) => n + node.turns, 0) - nodes.reduce((n, node) => n + node.turns, 0);
  const lanes = assignLanes(nodes, branches);
  const lane = Math.max(LANE_MIN, Math.min(LANE_MAX, Math.floor(LANES_WIDTH / lanes)));
  const tagWidth = branches.length > 1 ? BRANCH_TAG_WIDTH : 0;
  const tagX = PAD + lanes * lane + 10;
  const labelX = tagX + tagWidth;
  const rowTexts = nodes.map((node) => {
    const text = node.turns > 1 ? `⋯ ${node.turns} turns in a line, from: ${options.describe(node.start)}` : options.describe(node.start);
    const short = text.length > LABEL_CHARS ? `${cutText(text, LABEL_CHARS - 1)}…` : text;
    const fullLabels = node.entries.flatMap((e) => labels.get(e.id) ?? []);
    // A bookmark's label is the user's, of any length: one of 230 letters drew the tree 2,500 px
    // wide, its row's title out of view.
    const nodeLabels = fullLabels.map((l) => (l.length > BOOKMARK_CHARS ? `${cutText(l, BOOKMARK_CHARS - 1)}…` : l));
    const cut = short !== text || nodeLabels.some((l, i) => l !== fullLabels[i]);
    return { text: `${fullLabels.map((l) => `[${l}] `).join('')}${text}`, short, cut, nodeLabels, counts: countsOf(node.entries) };
  });
  // As wide as the longest label may be drawn: capitals, CJK and emoji run far wider than the
  // average letter, and a label cut by the edge lost its end and its counts.
  const widest = Math.max(LABEL_WIDTH, ...rowTexts.map((r) => drawnWidth(`${r.nodeLabels.map((l) => `[${l}] `).join('')}${r.short} · ${r.counts} · error · compaction · a new root`)));
  const width = labelX + Math.ceil(widest) + PAD;
  const top = PAD;
  const height = top + (nodes.length + (notDrawn > 0 ? 1 : 0)) * ROW + PAD;
  const x = (node: Node) => PAD + node.lane * lane + lane / 2;
  const y = (node: Node) => top + node.row * ROW + ROW / 2;

  const edges = nodes.flatMap((node) => {
    if (node.parent === null) return [];
    const [x1, y1, x2, y2] = [x(node.parent), y(node.parent), x(node), y(node)];
    const d = x1 === x2 ? `M${x1} ${y1}V${y2}` : `M${x1} ${y1}C${x1} ${y1 + ROW / 2} ${x2} ${y1 + ROW / 2} ${x2} ${y1 + ROW}V${y2}`;
    const active = node.branch.isActive;
    return [`<path class="edge${active ? ' active' : ''}" d="${d}"${active ? ` stroke="${INK.active}"` : ''}/>`];
  });

  const marks: string[] = [];
  const drawnMarks: Marks[] = [];
  // A second root may be drawn in the lane of a branch that ended above it: said, as no edge
  // leads to it. Only a row holding a root, after one that did (a reply written before its
  // prompt in the file is drawn first, and its prompt is no new root).
  const holdsRoot = nodes.map((node) => node.entries.some((entry) => tree.parentOf.get(entry) === null));
  const firstRoot = holdsRoot.indexOf(true);
  const rows = nodes.map((node, index) => {
    const drawn: Marks = {
      active: node.branch.isActive,
      copied: options.copied(node.start),
      error: node.entries.some((e) => e.kind === 'reply' && e.outcome === 'error'),
      compaction: node.entries.some((e) => e.kind === 'compaction'),
    };
    marks.push(markSvg(x(node), y(node), drawn));
    drawnMarks.push(drawn);
    const { text, short, cut, nodeLabels, counts } = rowTexts[index] as (typeof rowTexts)[number];
    // The full text as a tooltip only where the row cut it: a large tree stays small.
    const tooltip = cut ? `<title>${escapeHtml(cutText(text, TOOLTIP_CHARS))}</title>` : '';
    const tag = tagWidth > 0 && startsBranch(node) ? branchTag(node.branch, tagX, y(node) + 4, options.hrefOf) : '';
    return (
      `<a href="${escapeHtml(options.hrefOf(node.start))}" class="${classesOf('node', drawn)}">${tooltip}` +
      `<text x="${labelX}" y="${y(node) + 4}">` +
      // A session's text is set apart from what bough adds (isolated): a title that runs into
      // right-to-left words drew " · 1" of its count among them, "reply" after them.
      nodeLabels.map((l) => `<tspan class="label" fill="${INK.active}" font-weight="bold" unicode-bidi="isolate">[${escapeHtml(l)}] </tspan>`).join('') +
      `<tspan class="title" unicode-bidi="isolate">${escapeHtml(short)}</tspan><tspan class="counts" fill="${INK.muted}"> · ${escapeHtml(counts)}</tspan>` +
      (drawn.error ? `<tspan class="error-word" fill="${INK.error}" font-weight="bold"> · error</tspan>` : '') +
      (drawn.compaction ? `<tspan class="counts" fill="${INK.muted}"> · compaction</tspan>` : '') +
      (holdsRoot[index] && index > firstRoot ? `<tspan class="counts" fill="${INK.muted}"> · a new root</tspan>` : '') +
      `</text></a>` +
      tag
    );
  });

  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" class="tree" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
    `font-family="${FONT}" font-size="12" fill="${INK.text}" role="group" aria-label="Tree of the session's entries">` +
    `<g class="edges" fill="none" stroke="${INK.edge}" stroke-width="2">${edges.join('')}</g>` +
    `<g class="marks" ${MARK_DEFAULTS}>${marks.join('')}</g>` +
    `<g class="rows">${rows.join('')}</g>` +
    (notDrawn > 0
      ? `<text class="counts" x="${PAD}" y="${top + nodes.length * ROW + ROW / 2 + 4}" fill="${INK.muted}">⋯ ${formatCount(notDrawn)} more turns, not drawn: a tree this large does not fit a page. Every branch is in the conversation below.</text>`
      : '') +
    `</svg>`;
  return { svg, legend: legendOf(drawnMarks) };
}

function classesOf(base: string, marks: Marks): string {
  const names = [base, marks.active ? 'active' : 'abandoned', marks.error ? 'error' : '', marks.copied ? 'copied' : '', marks.compaction ? 'compaction' : ''];
  return names.filter(Boolean).join(' ');
}

/** What most marks are (an abandoned turn), set once on their group; each mark says only how it differs. */
const MARK_DEFAULTS = `fill="${INK.panel}" stroke="${INK.muted}" stroke-width="2"`;

/** A node's mark: a circle for a turn, a diamond when it holds a compaction; filled on the active path. */
function markSvg(cx: number, cy: number, marks: Marks): string {
  const attributes = [`class="${classesOf('mark', marks)}"`];
  if (marks.active && !marks.copied) attributes.push(`fill="${INK.active}"`);
  if (marks.error) attributes.push(`stroke="${INK.error}" stroke-width="3"`);
  else if (marks.active) attributes.push(`stroke="${INK.active}"`);
  if (marks.copied) attributes.push('stroke-dasharray="2 2"');
  const shape = marks.compaction ? `<path d="M${cx} ${cy - 6}l6 6l-6 6l-6 -6z"` : `<circle cx="${cx}" cy="${cy}" r="5"`;
  return `${shape} ${attributes.join(' ')}/>`;
}

const LEGEND: readonly { text: string; marks: Marks; drawn: (m: Marks) => boolean }[] = [
  { text: 'active path', marks: { active: true, copied: false, error: false, compaction: false }, drawn: (m) => m.active },
  { text: 'abandoned branch', marks: { active: false, copied: false, error: false, compaction: false }, drawn: (m) => !m.active },
  { text: 'copied from another file', marks: { active: false, copied: true, error: false, compaction: false }, drawn: (m) => m.copied },
  { text: 'error reply', marks: { active: false, copied: false, error: true, compaction: false }, drawn: (m) => m.error },
  { text: 'compaction', marks: { active: false, copied: false, error: false, compaction: true }, drawn: (m) => m.compaction },
];

/** The keys of the marks drawn, each its mark in a small SVG of its own (drawn as in the tree, re-themed by the same rules). */
function legendOf(drawn: readonly Marks[]): TreeLegendKey[] {
  return LEGEND.filter((key) => drawn.some(key.drawn)).map(({ text, marks }) => ({
    swatch: `<svg xmlns="http://www.w3.org/2000/svg" class="tree-key" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><g ${MARK_DEFAULTS}>${markSvg(8, 8, marks)}</g></svg>`,
    label: text,
  }));
}

/**
 * "Branch N", linking to that branch's section. The section starts on the page holding the
 * branch's first entry, so its link is that entry's page with the section's id.
 */
function branchTag(branch: Branch, tagX: number, textY: number, hrefOf: (entry: Entry) => string): string {
  const first = branch.entries[0];
  if (first === undefined) return '';
  const href = `${hrefOf(first).replace(/#.*$/s, '')}#branch-${branch.number}`;
  const text = branch.isActive ? 'Active path' : `Branch ${branch.number}`;
  const fill = branch.isActive ? INK.active : INK.muted;
  return `<a href="${escapeHtml(href)}" class="branch-tag"><text x="${tagX}" y="${textY}" font-size="11" font-weight="bold" fill="${fill}">${text}</text></a>`;
}

function startsBranch(node: Node): boolean {
  return node.parent === null || node.parent.branch !== node.branch;
}

function countsOf(entries: readonly Entry[]): string {
  let prompts = 0;
  let replies = 0;
  for (const e of entries) {
    if (e.kind === 'prompt') prompts += 1;
    else if (e.kind === 'reply') replies += 1;
  }
  return `${replies} repl${replies === 1 ? 'y' : 'ies'}${prompts > 1 ? `, ${prompts} prompts` : ''}`;
}

/** The latest label set on each entry (Pi's bookmarks); an empty label clears it. */
function labelsByTarget(entries: readonly Entry[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const entry of entries) {
    if (entry.kind !== 'label' || entry.targetId === null) continue;
    if (entry.label === null || entry.label === '') labels.delete(entry.targetId);
    else labels.set(entry.targetId, entry.label);
  }
  return labels;
}

/**
 * A node starts at a root, at a prompt, and at each child of a branch point; other entries join
 * their parent's node. Rows follow the file order of node starts, a parent's always first.
 */
function turnNodes(tree: EntryTree, branches: readonly Branch[]): Node[] {
  const branchOf = new Map<Entry, Branch>();
  for (const branch of branches) for (const entry of branch.entries) branchOf.set(entry, branch);
  const nodeOf = new Map<Entry, Node>();
  const nodes: Node[] = [];
  for (const entry of parentsFirst(tree)) {
    if (entry.kind === 'label') continue;
    const parentEntry = nearestShownParent(entry, tree);
    const parentNode = parentEntry ? (nodeOf.get(parentEntry) ?? null) : null;
    const startsNode =
      parentNode === null ||
      entry.kind === 'prompt' ||
      (parentEntry !== null && (tree.childrenOf.get(parentEntry)?.length ?? 0) > 1) ||
      branchOf.get(entry) !== parentNode.branch;
    if (startsNode) {
      const branch = branchOf.get(entry) as Branch;
      const node: Node = { start: entry, entries: [entry], row: nodes.length, lane: 0, parent: parentNode, branch, children: 0, turns: 1 };
      if (parentNode) parentNode.children += 1;
      nodes.push(node);
      nodeOf.set(entry, node);
    } else {
      parentNode.entries.push(entry);
      nodeOf.set(entry, parentNode);
    }
  }
  return nodes;
}

/**
 * The entries in file order, but each after its parent: a file whose lines came out of order (a
 * reply written before its prompt) drew each entry whose parent came later as a root of its own,
 * unjoined (regression). Loops are cut by buildTree; `placed` would stop one anyway.
 */
function parentsFirst(tree: EntryTree): Entry[] {
  const placed = new Set<Entry>();
  const order: Entry[] = [];
  const unplaced: Entry[] = [];
  for (const entry of tree.entries) {
    for (let at: Entry | null = entry; at !== null && !placed.has(at); at = tree.parentOf.get(at) ?? null) {
      placed.add(at);
      unplaced.push(at);
    }
    while (unplaced.length > 0) order.push(unplaced.pop() as Entry);
  }
  return order;
}

/**
 * A large tree keeps every turn worth marking (roots, leaves, branch points and their children,
 * errors, compactions, labels) and folds the plain turns between them, in runs of at most
 * `longest`, into one row each. Linear in the number of turns.
 */
function foldRuns(turns: readonly Node[], labels: ReadonlyMap<string, string>, longest: number): Node[] {
  const shownAs = new Map<Node, Node>();
  const runs = new Set<Node>();
  const rows: Node[] = [];
  for (const turn of turns) {
    const parent = turn.parent === null ? null : (shownAs.get(turn.parent) ?? null);
    const plain =
      turn.parent !== null &&
      turn.parent.children === 1 &&
      turn.children === 1 &&
      turn.parent.branch === turn.branch &&
      !turn.entries.some((e) => e.kind === 'compaction' || (e.kind === 'reply' && e.outcome === 'error') || labels.has(e.id));
    // The parent, a plain turn, has this one as its only child: the run goes on unless it is full.
    if (plain && parent !== null && runs.has(parent) && parent.turns < longest) {
      parent.entries.push(...turn.entries);
      parent.turns += 1;
      shownAs.set(turn, parent);
      continue;
    }
    const row: Node = { ...turn, entries: [...turn.entries], row: rows.length, parent };
    if (plain) runs.add(row);
    rows.push(row);
    shownAs.set(turn, row);
  }
  return rows;
}

/**
 * At most `limit` rows: the active path's (where the session was left: regression, a tree of 1,500
 * branches off one reply drew the first thousand written and not the conversation's last turn),
 * then the others in order, each below a row kept; numbered again.
 */
function rowsToDraw(rows: readonly Node[], limit: number): Node[] {
  if (rows.length <= limit) return [...rows];
  // An active path too long to draw whole (no run of it folds) is drawn from its root, as far as
  // it goes (regression, a hostile look: the first rows of all branches were, half of them not its).
  const kept = new Set<Node>(rows.filter((row) => row.branch.isActive).slice(0, limit));
  for (const row of rows) {
    if (kept.size >= limit) break;
    if (row.parent === null || kept.has(row.parent)) kept.add(row);
  }
  const renumbered = new Map<Node, Node>();
  return rows.filter((row) => kept.has(row)).map((row, index) => {
    const drawn = { ...row, row: index, parent: row.parent === null ? null : (renumbered.get(row.parent) ?? null) };
    renumbered.set(row, drawn);
    return drawn;
  });
}

/** Labels are not drawn, so an entry below one hangs from the label's own parent. */
function nearestShownParent(entry: Entry, tree: EntryTree): Entry | null {
  let parent = tree.parentOf.get(entry) ?? null;
  while (parent !== null && parent.kind === 'label') parent = tree.parentOf.get(parent) ?? null;
  return parent;
}

/** One lane per branch, reused once a branch's rows are past; the active path keeps lane 0. */
function assignLanes(nodes: Node[], branches: readonly Branch[]): number {
  const rowsOf = new Map<Branch, { first: number; last: number }>();
  for (const node of nodes) {
    const from = node.parent ? node.parent.row : node.row;
    const span = rowsOf.get(node.branch);
    if (span) {
      span.first = Math.min(span.first, from);
      span.last = Math.max(span.last, node.row);
    } else rowsOf.set(node.branch, { first: from, last: node.row });
  }
  const laneEnds: number[] = [];
  const laneOf = new Map<Branch, number>();
  for (const branch of branches) {
    const span = rowsOf.get(branch);
    if (!span) continue;
    let lane = branch.isActive ? 0 : laneEnds.findIndex((end, i) => i > 0 && end < span.first);
    if (lane === -1) lane = Math.max(laneEnds.length, 1);
    laneEnds[lane] = span.last;
    laneOf.set(branch, lane);
  }
  for (const node of nodes) node.lane = Math.min(laneOf.get(node.branch) ?? 0, MAX_LANES - 1);
  return Math.min(Math.max(laneEnds.length, 1), MAX_LANES);
}

/**
 * About how wide a text is drawn at the tree's 12 px (px), erring wide: no font is measured in a
 * static page. Wide letters and capitals ~9 px, other Latin ~6.5 px, CJK, emoji and the like a
 * full 12.
 */
function drawnWidth(text: string): number {
  let width = 0;
  for (const c of text) {
    const code = c.codePointAt(0) as number;
    if (code === 0x20) width += 3.5;
    else if (code < 0x80) width += /[A-Z0-9mwMW@%&#]/.test(c) ? 9 : 6.5;
    else if (code < 0x1100) width += 8;
    else width += 12;
  }
  return width;
}

