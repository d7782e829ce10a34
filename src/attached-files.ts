// Files attached to a prompt in its text (Pi's `@path`): `<file name="…">its text</file>`
// elements before the words typed. Read by a scan, not a pattern: a pattern with a lazy body in a
// repeated group takes exponential time on a text of many such elements followed by anything else.

const OPEN = /^\s*<file name="[^"\n]*">/;
const CLOSE = '</file>';

/** How long the run of attached-file elements (and the space after them) a text begins with is: 0 when it begins with none. */
export function attachedFilesLength(text: string): number {
  let at = 0;
  for (;;) {
    const open = OPEN.exec(text.slice(at, at + 4096));
    if (open === null) break;
    const close = text.indexOf(CLOSE, at + open[0].length);
    if (close === -1) break;
    at = close + CLOSE.length;
  }
  if (at === 0) return 0;
  while (at < text.length && /\s/.test(text[at] as string)) at++;
  return at;
}
