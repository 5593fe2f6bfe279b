// Help, rendered by yargs from the command table. Loaded only for --help, `help`, no
// command or an unknown command: yargs is heavy to import, and the commands that
// hooks and agents run must not pay.
import yargs from 'yargs';
import type { Argv } from 'yargs';
import { COMMANDS, type CommandSpec } from '../command/spec.js';
import type { Streams } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import { version } from '../core/version.js';

const EPILOGUE = [
  'Files live under .handoff/ and are committed with the code. Format: docs/format.md.',
  // git turns `git handoff --help` into `git help handoff` (the manual page, or the alias
  // init adds) before we see it; -h and help reach us.
  'As a git command: git handoff <command>; help: git handoff -h, git handoff help <command> (git handoff --help opens the manual page when it is installed).',
].join('\n');

async function render(argv: string[]): Promise<string> {
  let output = '';
  const parser: Argv = yargs(argv)
    .scriptName('handoff')
    .usage("$0 <command> [options]\n\nKeep an AI coding agent's working memory in the git repository.")
    .version(version())
    .alias('version', 'V')
    .help()
    .alias('help', 'h')
    .epilogue(EPILOGUE)
    .wrap(Math.min(100, process.stdout.columns || 80))
    .exitProcess(false);
  for (const spec of COMMANDS as readonly CommandSpec[]) {
    const positionals = spec.positionals.map((p) => (p.required ? `<${p.name}>` : `[${p.name}]`)).join(' ');
    parser.command(`${spec.name}${positionals ? ` ${positionals}` : ''}`, spec.describe, (y) => {
      // --version is read only before a command (cli.ts): a command's help does not offer it.
      y.version(false);
      for (const p of spec.positionals) y.positional(p.name, { describe: p.describe, type: 'string' });
      for (const [name, o] of Object.entries(spec.options)) {
        y.option(name, {
          type: o.type,
          describe: o.describe,
          ...(o.short ? { alias: o.short } : {}),
          ...(o.multiple ? { array: true } : {}),
        });
      }
      for (const [command, description] of spec.examples) y.example(command, description);
      return y;
    });
  }
  await parser.parseAsync(argv, {}, (_error, _argv, text) => {
    output = text;
  });
  return output.trimEnd();
}

/** Edit distance counting a swap of two neighbours as one edit, for "did you mean". */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

export async function showHelp(given: string[], io: Streams): Promise<number> {
  // `handoff help [command]` is `handoff [command] --help`.
  const argv = given[0] === 'help' ? [...given.slice(1), '--help'] : given;
  const name = argv[0];
  const known = COMMANDS.some((c) => c.name === name);
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${await render(known ? [name!, '--help'] : ['--help'])}\n`);
    return 0;
  }
  if (name === undefined) {
    io.stderr(await render(['--help']));
    throw new UsageError('name a command (see above)');
  }
  const closest = COMMANDS.map((c) => ({ name: c.name, d: distance(name, c.name) })).sort((a, b) => a.d - b.d)[0];
  const hint = closest && closest.d <= 2 ? ` Did you mean '${closest.name}'?` : '';
  throw new UsageError(`unknown command '${name}'.${hint} (handoff --help lists the commands)`);
}
