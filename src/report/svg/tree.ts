// The session's tree as inline SVG: one row per turn (a prompt and what followed it, split at
// branch points), one lane per branch, every node a link to its place in the conversation.

import type { Branch } from '../../model/branches.js';
import type { EntryTree } from '../../model/tree.js';
import type { Entry } from '../../types.js';
import { escapeHtml } from '../escape.js';

export interface TreeSvgOptions {
  anchorOf: (entry: Entry) => string;
  /** Entries copied from an origin file (drawn hollow). */
  copied: (entry: Entry) => boolean;
  describe: (entry: Entry) => string;
}

interface Node {
  start: Entry;
  entries: Entry[];
  row: number;
  lane: number;
  parent: Node | null;
  branch: Branch;
}

const ROW = 22;
const LANE = 16;
const PAD = 12;
const LABEL_CHARS = 72;

export function treeSvg(tree: EntryTree, branches: readonly Branch[], options: TreeSvgOptions): string {
  const nodes = turnNodes(tree, branches);
  if (nodes.length === 0) return '';
  const lanes = assignLanes(nodes, branches);
  const width = PAD * 2 + lanes * LANE + 560;
  const height = PAD * 2 + nodes.length * ROW;
  const x = (node: Node) => PAD + node.lane * LANE + LANE / 2;
  const y = (node: Node) => PAD + node.row * ROW + ROW / 2;

  const edges = nodes
    .filter((node) => node.parent !== null)
    .map((node) => {
      const parent = node.parent as Node;
      const [x1, y1, x2, y2] = [x(parent), y(parent), x(node), y(node)];
      const d = x1 === x2 ? `M${x1} ${y1}V${y2}` : `M${x1} ${y1}C${x1} ${y1 + ROW / 2} ${x2} ${y1 + ROW / 2} ${x2} ${y1 + ROW}V${y2}`;
      const tone = node.branch.isActive ? 'edge active' : 'edge';
      return `<path class="${tone}" d="${d}"/>`;
    });

  const labelX = PAD + lanes * LANE + 8;
  const marks = nodes.map((node) => {
    const hasError = node.entries.some((e) => e.kind === 'reply' && e.outcome === 'error');
    const classes = ['node', node.branch.isActive ? 'active' : '', hasError ? 'error' : '', options.copied(node.start) ? 'copied' : '']
      .filter(Boolean)
      .join(' ');
    const prompts = node.entries.filter((e) => e.kind === 'prompt').length;
    const replies = node.entries.filter((e) => e.kind === 'reply').length;
    const text = options.describe(node.start);
    const label = text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
    const counts = `${replies} repl${replies === 1 ? 'y' : 'ies'}${prompts > 1 ? `, ${prompts} prompts` : ''}`;
    return (
      `<a href="#${escapeHtml(options.anchorOf(node.start))}" class="${classes}">` +
      `<title>${escapeHtml(`${text}\n${counts}${node.branch.isActive ? '' : ` · branch ${node.branch.number}`}`)}</title>` +
      `<circle cx="${x(node)}" cy="${y(node)}" r="5"/>` +
      `<text x="${labelX}" y="${y(node) + 4}">${escapeHtml(label)}<tspan class="counts"> · ${escapeHtml(counts)}</tspan></text>` +
      `</a>`
    );
  });

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="tree" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="Tree of the session's entries">` +
    edges.join('') +
    marks.join('') +
    `</svg>`
  );
}

/**
 * A node starts at a root, at a prompt, and at each child of a branch point; other entries join
 * their parent's node. Rows follow the file order of node starts.
 */
function turnNodes(tree: EntryTree, branches: readonly Branch[]): Node[] {
  const branchOf = new Map<Entry, Branch>();
  for (const branch of branches) for (const entry of branch.entries) branchOf.set(entry, branch);
  const nodeOf = new Map<Entry, Node>();
  const nodes: Node[] = [];
  for (const entry of tree.entries) {
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
      const node: Node = { start: entry, entries: [entry], row: nodes.length, lane: 0, parent: parentNode, branch };
      nodes.push(node);
      nodeOf.set(entry, node);
    } else {
      parentNode.entries.push(entry);
      nodeOf.set(entry, parentNode);
    }
  }
  return nodes;
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
  for (const node of nodes) node.lane = laneOf.get(node.branch) ?? 0;
  return Math.max(laneEnds.length, 1);
}
