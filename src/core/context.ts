// What the per-run context holds that the layers under the commands use: where the run
// works, how a path is shown, the clock and ids, and output. The store, git and security
// take this narrower shape so that they never import the CLI that builds it; the commands'
// Context (cli/context.ts) adds the settings and the git client.

export interface Streams {
  stdout: (text: string) => void;
  stderr: (line: string) => void;
  stdinIsTTY: () => boolean;
  readStdin: () => Promise<Uint8Array>;
}

export interface RunContext extends Streams {
  cwd: string;
  env: NodeJS.ProcessEnv;
  root: string;
  dir: string;
  configFile: string;
  /** The one cache (store/cache.ts), in the git directory found once by the context; null without one. */
  cacheFile: string | null;
  now: () => Date;
  newId: () => string;
  /**
   * How a path is shown and recorded: repository-relative with `/` for anything inside
   * the repository (the same from every subdirectory, in output, JSON and files written);
   * relative to the current directory for a path outside it.
   */
  rel: (file: string) => string;
}
