// The one kind of error bough reports as a sentence to the user (exit 1), with an optional cause.

export class BoughError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BoughError';
  }
}
