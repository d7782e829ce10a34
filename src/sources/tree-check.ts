// Parent links that loop: an entry naming itself as its parent, or entries naming each other.
// The tree is still drawn (each loop cut at its first entry, a root), and the file's problems
// say where, as for any other damage. Shared by every source: it runs on what a reader emits.

import { diagnostic, FileDiagnostics, type Diagnostic } from '../diagnostics.js';
import { loopCuts } from '../model/tree.js';
import type { SessionFile } from '../types.js';

export function checkTreeLoops(file: SessionFile): Diagnostic[] {
  const problems = new FileDiagnostics();
  for (const entry of loopCuts(file.entries)) {
    const detail =
      entry.parentId === entry.id
        ? `entry ${JSON.stringify(entry.id)} names itself as its parent: shown as a root`
        : `entries name each other as parents in a loop; cut at ${JSON.stringify(entry.id)}, shown as a root`;
    problems.push(diagnostic('tree-loop', file.path, entry.line, detail));
  }
  return problems.list();
}
