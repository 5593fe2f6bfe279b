// The one place that maps failures to exit codes: 0 success, 1 failure, 2 usage error.
// Everything else throws; only `exitCodeFor` / `report` decide what the user sees.

export class HandoffError extends Error {
  readonly exitCode: number = 1;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HandoffError';
  }
}

/** The command line itself was wrong (unknown option, missing argument). */
export class UsageError extends HandoffError {
  override readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A file under .handoff/ (or one the user named) could not be read as expected. */
export class FileFormatError extends HandoffError {
  /** The file's line the problem is on, when known (1-based, counting the opening `---`). */
  readonly line: number | undefined;
  constructor(
    readonly file: string,
    problem: string,
    options?: { cause?: unknown; line?: number },
  ) {
    super(`${file}: ${problem}`, options);
    this.line = options?.line;
    this.name = 'FileFormatError';
  }
}

/** Prints the one-line error (a stack only with HANDOFF_DEBUG=1) and returns the exit code. */
export function report(error: unknown, stderr: (line: string) => void, debug: boolean): number {
  if (error instanceof HandoffError) {
    stderr(`handoff: ${firstLine(error.message)}`);
    if (debug && error.stack) stderr(error.stack);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr(`handoff: internal error: ${firstLine(message)}${debug ? '' : ' (HANDOFF_DEBUG=1 shows where)'}`);
  if (debug && error instanceof Error && error.stack) stderr(error.stack);
  return 1;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 500 ? `${line.slice(0, 500)}...` : line;
}
