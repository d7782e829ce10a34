// Tests where file permissions must bite, which root's never do.

/**
 * Runs `task` where permissions bite: as this user when not root, else with the effective user
 * switched to "nobody" (root reads anything, chmod 000 or not). Null when neither is possible.
 */
export async function withoutRoot<T>(task: () => Promise<T>): Promise<T | null> {
  if (process.getuid?.() !== 0) return task();
  if (typeof process.seteuid !== 'function' || typeof process.setegid !== 'function') return null;
  process.setegid(65534);
  process.seteuid(65534);
  try {
    return await task();
  } finally {
    process.seteuid(0);
    process.setegid(0);
  }
}
