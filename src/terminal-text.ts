// Text a terminal program printed, as a page or a one-line summary shows it: without the colour,
// cursor and character-set codes it carries (command output keeps them), which read as "[1m".
// And text of a session's (or a file name) that bough prints to a terminal: with no control
// character that the terminal would act on.

export const TERMINAL_CODES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()*+][0-9A-Za-z]|\u001b[@-Z\\-_]/g;

export function withoutTerminalCodes(text: string): string {
  return text.includes('\u001b') ? text.replace(TERMINAL_CODES, '') : text;
}

/**
 * Control characters, direction overrides and line and paragraph separators: a session title or
 * file name printed as it is could clear the screen, retitle the window, reorder or break the line.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A text for a terminal: each control character shown as "?". */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, '?');
}

/** One line of bough's own for a terminal, whatever text of a session or a path it carries. */
export function terminalLine(text: string): string {
  return `${printable(text)}\n`;
}

/** Characters a terminal draws two columns wide: East Asian wide and fullwidth forms, and emoji. */
const WIDE = /[\u1100-\u115f\u231a\u231b\u2329\u232a\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615\u2648-\u2653\u267f\u2693\u26a1\u26aa\u26ab\u26bd\u26be\u26c4\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd\u2705\u270a\u270b\u2728\u274c\u274e\u2753-\u2755\u2757\u2795-\u2797\u27b0\u27bf\u2b1b\u2b1c\u2b50\u2b55\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6\u{16fe0}-\u{16fe4}\u{17000}-\u{18aff}\u{1b000}-\u{1b2ff}\u{1f004}\u{1f0cf}\u{1f18e}\u{1f191}-\u{1f19a}\u{1f200}-\u{1f251}\u{1f300}-\u{1f64f}\u{1f680}-\u{1f6ff}\u{1f7e0}-\u{1f7eb}\u{1f90c}-\u{1f9ff}\u{1fa70}-\u{1faff}\u{20000}-\u{3fffd}]/u;
/** Characters drawn on the one before them, or not at all: combining marks, joiners, variation selectors. */
const ZERO_WIDTH = /[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u0610-\u061a\u064b-\u065f\u0e31\u0e34-\u0e3a\u0e47-\u0e4e\u1ab0-\u1aff\u1dc0-\u1dff\u200b-\u200d\u2060\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f\ufeff\u{e0100}-\u{e01ef}]/u;

function charWidth(char: string): number {
  if (char < '\u0300') return 1;
  return ZERO_WIDTH.test(char) ? 0 : WIDE.test(char) ? 2 : 1;
}

/** Joined into one emoji and drawn two columns wide: a joiner, emoji presentation, a flag's letters. */
const JOINED_EMOJI = /\u200d|\ufe0f|[\u{1f1e6}-\u{1f1ff}]/u;
const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The columns of one character as a reader sees it: a family emoji of seven code points (people
 * joined) is one emoji, two columns, where counted a code point at a time it took eight and
 * pushed its row's columns out of line.
 */
function graphemeWidth(grapheme: string): number {
  if (grapheme.length === 1) return charWidth(grapheme);
  let width = 0;
  for (const char of grapheme) width = Math.max(width, charWidth(char));
  return JOINED_EMOJI.test(grapheme) ? 2 : width;
}

/** The columns a (printable) text takes in a terminal: a CJK character or an emoji two, a combining mark none. */
export function displayWidth(text: string): number {
  // Most labels are ASCII: one column a character.
  if (!/[^\u0000-\u02ff]/.test(text)) return text.length;
  let width = 0;
  for (const { segment } of GRAPHEMES.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** The longest start of a text that fits in `columns` terminal columns, never cut inside a character as drawn. */
export function fitColumns(text: string, columns: number): string {
  if (!/[^\u0000-\u02ff]/.test(text)) return text.slice(0, Math.max(0, columns));
  let width = 0;
  let end = 0;
  for (const { segment } of GRAPHEMES.segment(text)) {
    width += graphemeWidth(segment);
    if (width > columns) break;
    end += segment.length;
  }
  return text.slice(0, end);
}
