// Text a terminal program printed, as a page or a one-line summary shows it: without the colour,
// cursor and character-set codes it carries (command output keeps them), which read as "[1m".
// And text of a session's (or a file name) that bough prints to a terminal: with no control
// character that the terminal would act on.

const TERMINAL_CODES = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()*+][0-9A-Za-z]|\u001b[@-Z\\-_]/g;

export function withoutTerminalCodes(text: string): string {
  return text.includes('\u001b') ? text.replace(TERMINAL_CODES, '') : text;
}

/** Control characters and direction overrides: a session title or file name printed as it is could clear the screen, retitle the window or reorder the line. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A text for a terminal: each control character shown as "?". */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, '?');
}

/** One line of bough's own for a terminal, whatever text of a session or a path it carries. */
export function terminalLine(text: string): string {
  return `${printable(text)}\n`;
}
