// Every command, its arguments and options, described once, as data: cli.ts parses with
// this table (node:util parseArgs) and help.ts renders it with yargs, which is only loaded
// for --help and usage errors. Which module runs a command is cli/commands.ts's business,
// so that the handlers can take their argument types from here without importing the CLI.
import type { Context } from './context.js';
import type { EXIT } from '../core/errors.js';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly describe: string;
  readonly short?: string;
  readonly multiple?: boolean;
}

export interface PositionalSpec {
  readonly name: string;
  readonly describe: string;
  readonly required?: boolean;
}

/** What `handoff <command>` ended with, besides its output: done, or a named code of `EXIT`. */
export type Outcome = void | Exclude<keyof typeof EXIT, 'ok' | 'usage'>;

export interface CommandModule {
  run(ctx: Context, args: Args): Promise<Outcome>;
}

export interface CommandSpec {
  readonly name: string;
  readonly describe: string;
  readonly positionals: readonly PositionalSpec[];
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly examples: ReadonlyArray<readonly [string, string]>;
  /** Agent hooks: any failure is a warning on stderr and exit 0, so an agent always starts. */
  readonly failOpen?: boolean;
}

/** Parsed arguments of any command, as cli.ts has them. */
export interface Args {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: ReadonlyArray<string | undefined>;
}

type OptionValue<O> = O extends { type: 'boolean' } ? boolean : O extends { multiple: true } ? string[] : string;
type Values<Os> = { -readonly [K in keyof Os]?: OptionValue<Os[K]> };
type Positionals<Ps> = { -readonly [I in keyof Ps]: Ps[I] extends { required: true } ? string : string | undefined };
type Spec<N extends CommandName> = Extract<(typeof COMMANDS)[number], { name: N }>;
export type CommandName = (typeof COMMANDS)[number]['name'];

/** The arguments of one command, typed from its row in the table: handlers never cast. */
export type ArgsOf<N extends CommandName> = {
  values: Values<Spec<N>['options']>;
  positionals: Positionals<Spec<N>['positionals']>;
};

const json = { type: 'boolean', describe: 'print JSON instead of text' } as const;

/** Every `handoff hook <name>` an agent calls; agents/agent-hook.ts must handle exactly these (its table is typed by them). */
export const HOOK_NAMES = [
  'claude-session-start',
  'claude-pre-compact',
  'claude-meter',
  'codex-session-start',
  'codex-pre-compact',
  'gemini-session-start',
  'gemini-pre-compress',
  'opencode-session-start',
  'opencode-pre-compact',
  'pi-session-start',
  'pi-pre-compact',
  'kilo-session-start',
  'kilo-pre-compact',
  'copilot-session-start',
  'copilot-pre-compact',
  'qwen-session-start',
  'qwen-pre-compact',
  'cline-task-start',
  'cline-task-complete',
  'probe',
] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export const COMMANDS = [
  {
    name: 'init',
    describe: 'create .handoff/ with a commented config.yml (safe to run again)',
    positionals: [],
    options: { hooks: { type: 'boolean', describe: 'also install the git hooks (handoff hooks install)' } },
    examples: [['handoff init', 'set up this repository']],
  },
  {
    name: 'new',
    describe: 'draft a handoff for the next piece of work, review it in your editor, and save it',
    positionals: [{ name: 'goal', describe: 'the goal of the next piece of work, kept verbatim', required: true }],
    options: {
      since: { type: 'string', describe: 'count files and commits from this revision instead of the detected base' },
      edit: { type: 'boolean', describe: 'open the editor even when stdin is not a terminal (--no-edit: never)' },
      'message-file': {
        type: 'string',
        short: 'F',
        describe:
          "use this file ('-': stdin) for the sections it writes (no editor); the draft's other sections, carried from the open handoff, stay",
      },
      replace: {
        type: 'boolean',
        describe: 'with -F: the file is the whole body; carried sections it does not write are dropped',
      },
      llm: {
        type: 'boolean',
        describe: 'draft with the configured OpenAI-compatible model (--no-llm: never; default: llm.mode in config)',
      },
      'dry-run': {
        type: 'boolean',
        describe: 'print the model request and its token count; send nothing, write nothing',
      },
      from: {
        type: 'string',
        describe: "read an agent transcript too: 'auto' (the newest session of this repository) or a file",
      },
      'pin-candidates': { type: 'boolean', describe: "pin the user's constraints found in the transcript, verbatim" },
      sections: {
        type: 'string',
        describe:
          "add the items of this file's sections ('-': stdin; `## <section>` headings, `- ` bullets) to the draft's: carried items stay (what /handoff in an agent writes)",
      },
      force: { type: 'boolean', describe: 'use a transcript even though it ran in another directory' },
      fresh: {
        type: 'boolean',
        describe: 'start a new chain: no parent, nothing carried; the open handoff stays open',
      },
      'allow-secret': {
        type: 'boolean',
        describe: 'keep text that looks like a secret (a false positive); see docs/security.md',
      },
    },
    examples: [
      ['handoff new "now implement this for teams"', 'draft, review and save'],
      ['handoff new "fix the flaky test" --no-edit', 'save the draft as is'],
      ['handoff new "ship it" -F notes.md', "notes.md's sections replace the draft's; the rest is carried"],
      ['handoff new "start over" -F body.md --replace', 'body.md alone, nothing carried'],
      ['handoff new "add team billing" --from auto --sections - < notes.md', "add an agent's own sections"],
    ],
  },
  {
    name: 'resume',
    describe: 'print the prompt a fresh agent starts from (newest open handoff on this branch)',
    positionals: [{ name: 'id', describe: 'a handoff id or unique prefix' }],
    options: {
      json,
      'allow-secret': { type: 'boolean', describe: 'print text that looks like a secret instead of redacting it' },
    },
    examples: [['handoff resume', 'continue where the last session stopped']],
  },
  {
    name: 'pin',
    describe: 'record a user constraint verbatim; it reaches every resume prompt unchanged',
    positionals: [{ name: 'text', describe: 'the constraint (or use --file, or pipe it on stdin)' }],
    options: {
      file: { type: 'string', describe: 'read the constraint from this file, byte for byte' },
      scope: {
        type: 'string',
        multiple: true,
        describe: 'only apply when a file in play matches this glob (repeatable)',
      },
      supersedes: { type: 'string', describe: 'the id of the active pin this one replaces' },
      'allow-secret': {
        type: 'boolean',
        describe: 'keep text that looks like a secret (a false positive); see docs/security.md',
      },
    },
    examples: [
      ['handoff pin "never touch src/auth"', 'a constraint for every session'],
      ['handoff pin --scope "db/**" "migrations are append-only"', 'only when db/ is in play'],
    ],
  },
  {
    name: 'pins',
    describe: 'list the active pins (--all: retired and superseded too)',
    positionals: [],
    options: { all: { type: 'boolean', describe: 'include retired and superseded pins' }, json },
    examples: [['handoff pins', 'show what every session must follow']],
  },
  {
    name: 'unpin',
    describe: 'retire a pin; its file stays as history',
    positionals: [{ name: 'id', describe: 'a pin id or unique prefix', required: true }],
    options: { reason: { type: 'string', describe: 'why the constraint no longer holds' } },
    examples: [['handoff unpin 01jx7k2m --reason "auth module rewritten"', 'retire a pin']],
  },
  {
    name: 'list',
    describe: 'list handoffs, newest first',
    positionals: [],
    options: {
      status: { type: 'string', describe: 'only this status: open, done or superseded' },
      branch: { type: 'string', describe: 'only handoffs written on this branch (with --all: or found on it)' },
      all: {
        type: 'boolean',
        describe: 'every local and remote-tracking branch too, read from git without checking out; each row says where',
      },
      json,
    },
    examples: [
      ['handoff list --status open', 'what is still open'],
      ['handoff list --all --status open', 'what every branch is working on'],
    ],
  },
  {
    name: 'show',
    describe: 'print one handoff',
    positionals: [{ name: 'id', describe: 'a handoff id or unique prefix', required: true }],
    options: { json },
    examples: [['handoff show 01jx7k2m', 'print the file']],
  },
  {
    name: 'edit',
    describe:
      'open a handoff in your editor (default: the newest open one on this branch); saved only if it still reads, else kept in .git/HANDOFF_EDITMSG.md',
    positionals: [{ name: 'id', describe: 'a handoff id or unique prefix' }],
    options: {
      'allow-secret': {
        type: 'boolean',
        describe: 'keep text that looks like a secret (a false positive); see docs/security.md',
      },
    },
    examples: [['handoff edit 01jx7k2m', 'fix a next step before the next session reads it']],
  },
  {
    name: 'done',
    describe: 'mark a handoff finished (default: the newest open one on this branch)',
    positionals: [{ name: 'id', describe: 'a handoff id or unique prefix' }],
    options: {},
    examples: [['handoff done 01jx7k2m', 'the work it described is finished']],
  },
  {
    name: 'reopen',
    describe: 'open a handoff again (superseded or marked done by mistake); the open one that replaced it steps aside',
    positionals: [{ name: 'id', describe: 'a handoff id or unique prefix', required: true }],
    options: {},
    examples: [['handoff reopen 01jx7k2m', 'continue this handoff, not the one written after it']],
  },
  {
    name: 'migrate',
    describe: 'move handoffs of the first layout (handoffs/<id>.md) into dated folders (handoffs/YYYY-MM/DD/<id>.md)',
    positionals: [],
    options: {},
    examples: [
      [
        'handoff migrate && git add -A .handoff',
        'a commit then rewrites one small folder, not a list of every handoff',
      ],
    ],
  },
  {
    name: 'mcp',
    describe:
      'serve this repository to MCP clients on stdio: tools resume, pins, search, new (needs @modelcontextprotocol/server)',
    positionals: [],
    options: {},
    examples: [['claude mcp add handoff -- handoff mcp', 'register it with Claude Code (docs/agents.md: every agent)']],
  },
  {
    name: 'sessions',
    describe: 'list the agent sessions found for this repository, newest first',
    positionals: [],
    options: { json },
    examples: [['handoff sessions', 'pick a transcript for handoff new --from']],
  },
  {
    name: 'meter',
    describe: "how full the agent session's context window is (exit 3 above the threshold)",
    positionals: [],
    options: {
      from: {
        type: 'string',
        describe: "'auto' (default: the newest session of this repository) or a transcript file",
      },
      force: { type: 'boolean', describe: 'use a transcript even though it ran in another directory' },
      json,
    },
    examples: [
      ['handoff meter', 'how full is the current session?'],
      ['handoff meter --json || handoff new "..."', 'hand off when the meter says so'],
    ],
  },
  {
    name: 'agent',
    describe: 'connect an agent: install its hooks or instruction block, uninstall them, or show what is installed',
    positionals: [
      { name: 'action', describe: 'install, uninstall or status', required: true },
      {
        name: 'agent',
        describe:
          'claude, codex, gemini, opencode, pi, copilot, cline, kilo, qwen, claude-md or all (default for status: all)',
      },
    ],
    options: {
      meter: {
        type: 'boolean',
        describe: 'claude: also suggest a handoff when the context passes the threshold (opt-in)',
      },
      json,
    },
    examples: [
      ['handoff agent install claude', 'hand off at compaction, resume at session start'],
      ['handoff agent install codex', 'a marked block in AGENTS.md'],
      ['handoff agent status', 'what is installed for each agent'],
    ],
  },
  {
    name: 'hook',
    describe: 'entry point an agent calls (reads its JSON on stdin, answers in its format; never fails the agent)',
    positionals: [
      {
        name: 'name',
        describe: `one of ${HOOK_NAMES.join(', ')}`,
        required: true,
      },
    ],
    options: {},
    examples: [['handoff hook claude-session-start < input.json', 'what Claude Code runs at session start']],
    failOpen: true,
  },
  {
    name: 'roadmap',
    describe:
      'regenerate the roadmap (.handoff/ROADMAP.md) from the files under .handoff/ (never while one cannot be read)',
    positionals: [],
    options: {
      check: {
        type: 'boolean',
        describe:
          'change nothing; exit 1 and print the difference when the file is out of date, or name a file that cannot be read',
      },
      all: {
        type: 'boolean',
        describe:
          "print the team's roadmap: every local and remote-tracking branch's open handoffs and chains (Mermaid); writes nothing",
      },
      json,
    },
    examples: [
      ['handoff roadmap', 'write the roadmap'],
      ['handoff roadmap --all', 'what every branch is working on'],
      ['handoff roadmap --check', 'in CI: is the committed roadmap current?'],
    ],
  },
  {
    name: 'hooks',
    describe: 'install, uninstall or show the git hooks that keep the roadmap current',
    positionals: [{ name: 'action', describe: 'install, uninstall or status', required: true }],
    options: { json },
    examples: [
      ['handoff hooks install', 'add the hooks (your own hooks are kept and still run)'],
      ['handoff hooks status', 'what is installed where'],
    ],
  },
  {
    name: 'git-hook',
    describe: '(run by the git hooks that handoff hooks install writes) pre-commit, post-merge or refresh',
    positionals: [
      {
        name: 'name',
        describe: 'pre-commit, post-merge (close handoffs whose branch landed, then refresh) or refresh',
        required: true,
      },
    ],
    options: {},
    examples: [['HANDOFF_SKIP=1 git commit', 'skip the hooks for one commit']],
  },
  {
    name: 'merge-driver',
    describe:
      '(run by git) merge a handoff or pin file field by field, and the roadmap by regenerating it from both sides',
    positionals: [
      { name: 'base', describe: "git's %O", required: true },
      { name: 'ours', describe: "git's %A", required: true },
      { name: 'theirs', describe: "git's %B", required: true },
      { name: 'path', describe: "git's %P", required: true },
    ],
    options: {},
    examples: [['git config merge.handoff-roadmap.driver', 'set by handoff init (and handoff hooks install)']],
  },
  {
    name: 'check',
    describe:
      'validate handoffs, pins and the roadmap, for CI and pull requests; on the default branch (without --base) it also marks done the handoffs whose branch landed',
    positionals: [],
    options: {
      base: { type: 'string', describe: 'only report what changed since this revision (the pull request base)' },
      format: { type: 'string', describe: 'text (default), json or github (annotations and a Markdown summary)' },
      summary: { type: 'string', describe: 'with --format github: write the Markdown summary to this file' },
      json,
    },
    examples: [
      ['handoff check', 'validate everything'],
      ['handoff check --base origin/main --format github', 'in a pull request workflow'],
    ],
  },
] as const satisfies readonly CommandSpec[];
