// Pi stores `/skill:name args` expanded (formats/pi.md §14). This splits such a prompt back into
// the words the user typed and the skill body nobody typed.

import type { SkillInvocation } from '../../types.js';

export interface SplitSkill {
  skill: SkillInvocation;
  /** What the user typed after the command; empty when nothing. */
  typed: string;
}

// Since ~0.50: an anchored <skill> block, then optionally a blank line and the user's words. The
// block ends at its last closing tag: a skill's text is its file, verbatim, and one about writing
// skills may show the tag (ended at its first, the rest of the skill's text was taken for what the
// user typed, and titled the session).
const SKILL_BLOCK = /^<skill name="([^"\n]*)" location="([^"\n]*)">\n([\s\S]*)\n?<\/skill>(?:\n\n([\s\S]*))?$/;
// Before ~0.50: "Skill location: <path>\nReferences are relative to <dir>.\n\n<body>[\n\n---\n\nUser: <args>]".
const OLD_SKILL_HEAD = /^Skill location: ([^\n]+)\nReferences are relative to ([^\n]*)\n\n/;
const OLD_SKILL_ARGS = '\n\n---\n\nUser: ';

export function splitSkillPrompt(text: string): SplitSkill | null {
  const block = SKILL_BLOCK.exec(text);
  if (block) {
    const [, name = '', location = '', body = '', typed = ''] = block;
    return { skill: { name, command: `/skill:${name}`, location: location || null, body: body.replace(/\n$/, '') }, typed: typed.trim() };
  }
  const head = OLD_SKILL_HEAD.exec(text);
  if (head) {
    const location = head[1] ?? '';
    const rest = text.slice(head[0].length);
    const argsAt = rest.lastIndexOf(OLD_SKILL_ARGS);
    const body = argsAt === -1 ? rest : rest.slice(0, argsAt);
    const typed = argsAt === -1 ? '' : rest.slice(argsAt + OLD_SKILL_ARGS.length);
    const name = skillNameFromLocation(location);
    return { skill: { name, command: `/skill:${name}`, location, body }, typed: typed.trim() };
  }
  return null;
}

/** `/x/skills/review/SKILL.md` → `review`; a bare folder path → its last part. */
function skillNameFromLocation(location: string): string {
  const parts = location.split(/[\\/]/).filter(Boolean);
  const last = parts.at(-1) ?? location;
  return /\.md$/i.test(last) ? (parts.at(-2) ?? last) : last;
}
