// The one kind of error bough reports as a sentence to the user (exit 1), with an optional cause;
// and any error said in one line, where one file or page failing is reported beside the rest.

/** An error's message in a line (a stack overflow says which library it came from on later lines). */
export function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 300);
}

export class BoughError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BoughError';
  }
}
