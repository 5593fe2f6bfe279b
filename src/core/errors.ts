// The one place that maps failures to exit codes. Everything else throws; only `report`
// decides what the user sees.

/** Every exit code handoff uses (the README lists them). */
export const EXIT = {
  ok: 0,
  /** Something failed, or something is wrong: a stale roadmap, `check` errors, an unreadable file listed. */
  failure: 1,
  /** The command line itself was wrong. */
  usage: 2,
  /** Not an error, a signal: `meter` past its threshold; `git-hook pre-commit` refusing invalid staged files. */
  attention: 3,
} as const;

/** How a file git could not merge is reported (store/frontmatter.ts); the CLI adds what would have avoided it. */
export const CONFLICT_MARKERS = 'has merge conflict markers (<<<<<<<)';

export class HandoffError extends Error {
  readonly exitCode: number = EXIT.failure;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HandoffError';
  }
}

/** The command line itself was wrong (unknown option, missing argument). */
export class UsageError extends HandoffError {
  override readonly exitCode = EXIT.usage;
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
  // What the system refused about a file (its permissions, a read-only or full disk) is
  // nothing wrong with this program: the file and the reason, as any other error.
  const refused = refusal(error);
  if (refused) {
    stderr(`handoff: ${refused}`);
    if (debug && error instanceof Error && error.stack) stderr(error.stack);
    return EXIT.failure;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr(`handoff: internal error: ${firstLine(message)}${debug ? '' : ' (HANDOFF_DEBUG=1 shows where)'}`);
  if (debug && error instanceof Error && error.stack) stderr(error.stack);
  return EXIT.failure;
}

const REFUSALS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
};

/** `<file>: cannot <open|write|...> it: <reason>` for a system error about a file; undefined for any other error. */
function refusal(error: unknown): string | undefined {
  const e = error as NodeJS.ErrnoException | undefined;
  const reason = e?.code === undefined ? undefined : REFUSALS[e.code];
  if (!reason || typeof e?.path !== 'string') return undefined;
  const where = e.path.startsWith(`${process.cwd()}/`) ? e.path.slice(process.cwd().length + 1) : e.path;
  return `${where}: cannot ${e.syscall ?? 'use'} it: ${reason}`;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 500 ? `${line.slice(0, 500)}...` : line;
}
