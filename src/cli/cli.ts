// Wiring only: find the command in the table, parse its arguments, build the context,
// run the lazily loaded handler, and map what it threw to an exit code. yargs (help and
// usage errors) is loaded only when it is needed.
import type { ParseArgsConfig } from 'node:util';
import { COMMANDS, type Args, type CommandName, type CommandSpec } from '../command/spec.js';
import { LOADERS } from './commands.js';
import type { Streams } from '../core/context.js';
import { createContext } from '../command/context.js';
import { terminalSafeStreams } from '../command/output.js';
import { EXIT, HandoffError, UsageError, report } from '../core/errors.js';
import { version } from '../core/version.js';
import { CONFLICT_MARKERS } from '../core/errors.js';

// Taken, not imported: see store/fs.ts.
const { fstatSync, readSync, writeSync } = process.getBuiltinModule('node:fs');
const { parseArgs } = process.getBuiltinModule('node:util');

function parse(spec: CommandSpec, argv: string[]): Args {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, o] of Object.entries(spec.options)) {
    options[name] = { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) };
  }
  const { values, positionals } = parseArgs({
    args: argv,
    options,
    allowPositionals: true,
    allowNegative: true,
    strict: true,
  });
  const required = spec.positionals.filter((p) => p.required).length;
  if (positionals.length < required) {
    throw new UsageError(
      `'handoff ${spec.name}' needs <${spec.positionals[positionals.length]!.name}>: ${spec.positionals[positionals.length]!.describe}`,
    );
  }
  if (positionals.length > spec.positionals.length) {
    throw new UsageError(
      `'handoff ${spec.name}' takes ${spec.positionals.length || 'no'} argument${spec.positionals.length === 1 ? '' : 's'}; got '${positionals[spec.positionals.length]}' too (quote text that has spaces)`,
    );
  }
  return { values: values as Args['values'], positionals };
}

/**
 * Output written to the file descriptor itself, as node's own stream for a file or pipe
 * does on Linux, without creating that stream (bench/hot-paths.js measures a run). What the descriptor
 * refuses for now (EAGAIN: a non-blocking pipe that is full) goes through node's stream,
 * and so does everything after it, in order. A reader that left (`handoff list | head`)
 * is not an error.
 */
function writer(fd: 1 | 2, get: () => NodeJS.WriteStream): (text: string) => void {
  let stream: NodeJS.WriteStream | undefined;
  const viaStream = () => {
    if (!stream) {
      stream = get();
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error;
      });
    }
    return stream;
  };
  return (text) => {
    if (stream) return void stream.write(text);
    const bytes = Buffer.from(text);
    let at = 0;
    try {
      while (at < bytes.length) at += writeSync(fd, bytes, at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') viaStream().write(bytes.subarray(at));
      else if (code !== 'EPIPE') throw error;
    }
  };
}

function streams(): Streams {
  const stdout = writer(1, () => process.stdout);
  const stderr = writer(2, () => process.stderr);
  return {
    stdout,
    stderr: (line) => stderr(`${line}\n`),
    // Asked only by the commands that read stdin: isatty() loads node:tty and with it node's
    // stream modules, and so does creating process.stdin, which the others should not pay.
    // A terminal is a character device: stdin that is not one (the pipe an agent hook reads)
    // is told apart by its stat data alone, and node:tty loads only for a character device.
    stdinIsTTY: () => {
      try {
        if (!fstatSync(0).isCharacterDevice()) return false;
      } catch {
        // no stdin at all: isatty says so
      }
      return process.getBuiltinModule('node:tty').isatty(0);
    },
    readStdin,
  };
}

/**
 * All of stdin. Read synchronously where stdin allows it: creating node's stream for it
 * loads node's stream modules, which an agent hook otherwise never needs. A non-blocking stdin (EAGAIN), or any other refusal, hands the
 * rest to node's stream, after what was read so far.
 */
async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(65_536);
      const n = readSync(0, chunk, 0, chunk.length, null);
      if (n === 0) return Buffer.concat(chunks);
      chunks.push(chunk.subarray(0, n));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EOF') return Buffer.concat(chunks); // a closed pipe on Windows
  }
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function run(argv: string[], raw: Streams, cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  // Everything printed may quote committed files or their names: no control character reaches a terminal.
  const given = terminalSafeStreams(raw);
  let conflicted = false;
  const io: Streams = {
    ...given,
    stdout: (text) => {
      if (text.includes(CONFLICT_MARKERS)) conflicted = true;
      given.stdout(text);
    },
    stderr: (line) => {
      if (line.includes(CONFLICT_MARKERS)) conflicted = true;
      given.stderr(line);
    },
  };
  const code = await runCommand(argv, io, cwd, env);
  if (conflicted) await sayHowToAvoidConflicts(given, cwd, env);
  return code;
}

/** A file with conflict markers was reported: once per run, say what would have avoided it (if anything would). */
async function sayHowToAvoidConflicts(io: Streams, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    const { conflictHint } = await import('../init/init-hint.js');
    await conflictHint(await createContext(cwd, env, io));
  } catch {
    // Only a hint: a repository we cannot read has already been reported.
  }
}

async function runCommand(argv: string[], io: Streams, cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  let failOpen = false;
  try {
    const [name, ...rest] = argv;
    if (name === '--version' || name === '-V' || name === 'version') {
      io.stdout(`handoff ${version()}\n`);
      return EXIT.ok;
    }
    const spec = (COMMANDS as readonly CommandSpec[]).find((c) => c.name === name);
    failOpen = spec?.failOpen === true;
    // After `--` everything is text (`handoff pin -- --help` pins the words "--help").
    const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
    if (!spec || name === undefined || options.includes('--help') || options.includes('-h') || name === 'help') {
      const { showHelp } = await import('./help.js');
      return await showHelp(options, io);
    }
    let args: Args;
    try {
      args = parse(spec, rest);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const dashed = rest.find((a) => /^-.*\s/s.test(a));
      const hint = dashed
        ? `text that starts with '-' goes after '--': handoff ${spec.name} -- '${dashed}'`
        : `handoff ${spec.name} --help lists the options`;
      throw new UsageError(
        `${((error as Error).message.split('\n')[0] ?? '').replace(/\. To specify a positional.*$/, '')} (${hint})`,
      );
    }
    const module = await LOADERS[spec.name as CommandName]();
    // The agent hooks decide themselves what a config.yml that cannot be read stops (agent-hook.ts).
    const ctx = await createContext(cwd, env, io, spec.name === 'hook');
    const outcome = await module.run(ctx, args);
    return outcome ? EXIT[outcome] : EXIT.ok;
  } catch (error) {
    // An agent hook must never stop the agent: its failure is reported, then ignored.
    if (failOpen) {
      report(
        error,
        (line) => io.stderr(line.replace(/^handoff: /, 'handoff: warning: hook failed, ignored: ')),
        env.HANDOFF_DEBUG === '1',
      );
      return EXIT.ok;
    }
    return report(error, io.stderr, env.HANDOFF_DEBUG === '1');
  }
}

export async function main(argv: string[]): Promise<void> {
  process.exitCode = await run(argv, streams(), process.cwd(), process.env);
}

export { HandoffError };
