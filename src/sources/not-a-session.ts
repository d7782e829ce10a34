// A reader's word that a file it claimed by its first record is no session after all (a Pi event
// stream: `pi --mode json` output begins with a session header too): skipped, saying why.

export class NotASession extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}
