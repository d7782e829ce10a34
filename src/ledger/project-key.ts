// Which project a session is of, by the working directory its records name: one key for every
// spelling of one folder. Pure.

/** The project of sessions with neither a working directory nor a project folder. */
export const UNKNOWN_PROJECT = 'unknown';

/**
 * Sessions of one folder belong together whatever spelling the path had: trailing separators
 * are dropped, accents composed, and Windows paths (drive letter or backslashes) compare
 * case-insensitively.
 */
export function projectKeyOf(cwd: string | null): string {
  if (cwd === null) return UNKNOWN_PROJECT;
  // Composed: macOS may write one folder's é as an e and an accent, and another tool as one letter.
  const composed = cwd.normalize('NFC');
  const trimmed = composed.length > 1 ? composed.replace(/[\\/]+$/, '') : composed;
  // Marked as a folder's, so that no text a file gives as its folder is taken for another key.
  return `cwd:${/^[A-Za-z]:[\\/]|\\/.test(trimmed) ? trimmed.replace(/\\/g, '/').toLowerCase() : trimmed}`;
}

/**
 * A session's project key: its working directory's, or, in a redacted report where redaction
 * changed that directory, the key its directory had before (SessionFile.cwdKey): folders that
 * redact alike (`C:\\Users\\dave\\shop`, `/Users/erin/shop`: `~/shop`) stay apart.
 */
export function sessionProjectKey(session: { cwd: string | null; cwdKey?: string | undefined }): string {
  return session.cwdKey ?? projectKeyOf(session.cwd);
}
