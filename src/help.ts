// Help and usage errors, rendered by yargs from the command table. Loaded only for
// --help, no command, or an unknown command: yargs costs ~60 ms to import.
import yargs from 'yargs';
import type { Argv } from 'yargs';
import { COMMANDS } from './commands/spec.js';
import type { Streams } from './context.js';
import { UsageError } from './errors.js';
import { version } from './cli.js';

const EPILOGUE = 'Files live under .handoff/ and are committed with the code. Format: docs/format.md.';

export async function showHelp(given: string[], io: Streams): Promise<number> {
  // `handoff help [command]` is `handoff [command] --help`.
  const argv = given[0] === 'help' ? [...given.slice(1), '--help'] : given;
  let output = '';
  let failure: string | undefined;
  const parser: Argv = yargs(argv)
    .scriptName('handoff')
    .usage('$0 <command> [options]\n\nKeep an AI coding agent\'s working memory in the git repository.')
    .version(version())
    .alias('version', 'V')
    .help()
    .alias('help', 'h')
    .strict()
    .recommendCommands()
    .demandCommand(1, 'name a command')
    .epilogue(EPILOGUE)
    .wrap(Math.min(100, process.stdout.columns || 80))
    .exitProcess(false)
    .fail((message) => {
      failure = message;
    });
  for (const spec of COMMANDS) {
    const positionals = spec.positionals.map((p) => (p.required ? `<${p.name}>` : `[${p.name}]`)).join(' ');
    parser.command(`${spec.name}${positionals ? ` ${positionals}` : ''}`, spec.describe, (y) => {
      for (const p of spec.positionals) y.positional(p.name, { describe: p.describe, type: 'string' });
      for (const [name, o] of Object.entries(spec.options)) {
        y.option(name, { type: o.type, describe: o.describe, ...(o.short ? { alias: o.short } : {}), ...(o.multiple ? { array: true } : {}) });
      }
      for (const [command, description] of spec.examples) y.example(command, description);
      return y;
    });
  }
  await parser.parseAsync(argv, {}, (_error, _argv, text) => {
    output = text;
  });
  if (failure !== undefined || (!argv.includes('--help') && !argv.includes('-h'))) {
    if (output) io.stderr(output.trimEnd());
    throw new UsageError(failure ?? `unknown command '${argv[0] ?? ''}'; run handoff --help`);
  }
  io.stdout(`${output.trimEnd()}\n`);
  return 0;
}
