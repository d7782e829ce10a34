// What bough reads of the machine it runs on: variables, the home folder and the time zone. Read
// once by the CLI and passed down, so nothing below it reads the process's environment.

export interface Environment {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

/** The machine's IANA time zone, or UTC when it names none. */
export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
