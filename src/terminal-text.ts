// Text a terminal program printed, as a page or a one-line summary shows it: without the colour,
// cursor and character-set codes it carries (command output keeps them), which read as "[1m".

const TERMINAL_CODES = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()*+][0-9A-Za-z]|\u001b[@-Z\\-_]/g;

export function withoutTerminalCodes(text: string): string {
  return text.includes('\u001b') ? text.replace(TERMINAL_CODES, '') : text;
}
