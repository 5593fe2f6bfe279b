// The shell that `handoff hooks install` puts into git hooks, and the rules for adding it
// to, and removing it from, a hook that may already hold the user's own script.
//
// Each block decides with git alone, without starting node, whether there is anything to
// do, so a commit that does not touch .handoff/ costs one `git diff --cached --quiet`.
// The CLI is found through the node binary and bin script recorded at install time
// (nvm, volta and npx installs need not be on the PATH that git gives hooks), falling
// back to `handoff` on PATH. The pre-commit block skips node when the staged .handoff/ tree
// is one this version already validated clean (validated.ts records it): the version is
// written into the block at install, so hooks of another version never match. Only exit status 3 from `handoff git-hook pre-commit` (invalid
// staged .handoff/ files) stops a commit; anything else warns and lets it through.

import { EXIT } from '../core/errors.js';

export const HOOK_NAMES = ['pre-commit', 'post-merge', 'post-checkout', 'post-rewrite'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export const BLOCK_START = '# >>> handoff >>>';
export const BLOCK_END = '# <<< handoff <<<';
export const CREATED_HEADER = "#!/bin/sh\n# Created by 'handoff hooks install'.\n";
/** A non-shell hook is moved here and run from a small shell wrapper. */
export const CHAINED_SUFFIX = '.handoff-chained';
/** `handoff git-hook pre-commit` exits with this when staged .handoff/ files are invalid. */
export const BLOCK_COMMIT = EXIT.attention;

/** What validated.ts records in the git directory, and the pre-commit block reads. */
export const RECORD_FILE = 'handoff-validated';

export interface Cli {
  node: string;
  bin: string;
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Finds the CLI at run time into $handoff_path, so that nothing breaks when node_modules
 * is reinstalled or the repository moves: `handoff` on PATH when it is an absolute path
 * outside the work tree, else a project install's node_modules/.bin/handoff only when git
 * ignores that path (a file git ignores is never written by a checkout or a pull: only a
 * local install puts it there, while a tracked one could come from anyone's branch).
 */
export const FIND_CLI = [
  `handoff_path=$(command -v handoff 2>/dev/null) || handoff_path=`,
  `case "$handoff_path" in "$PWD"/*) handoff_path= ;; /*) ;; *) handoff_path= ;; esac`,
  `if [ -z "$handoff_path" ] && [ -x node_modules/.bin/handoff ] && git check-ignore -q node_modules/.bin/handoff 2>/dev/null; then handoff_path="$PWD/node_modules/.bin/handoff"; fi`,
];

/**
 * Runs `handoff git-hook <args>` and sets handoff_status; never fails the script itself (husky
 * runs hooks with sh -e). A CLI is recorded only when it is in no package folder (a source
 * checkout, which nothing else would find); else it is found at run time (FIND_CLI).
 */
function invoke(cli: Cli | null, args: string): string {
  const recorded = cli
    ? [
        `  if [ -x ${quote(cli.node)} ] && [ -f ${quote(cli.bin)} ]; then`,
        `    ${quote(cli.node)} ${quote(cli.bin)} git-hook ${args} </dev/null || handoff_status=$?`,
        `  elif [ -n "$handoff_path" ]; then`,
      ]
    : [`  if [ -n "$handoff_path" ]; then`];
  return [
    `  handoff_status=0`,
    ...FIND_CLI.map((l) => `  ${l}`),
    ...recorded,
    `    "$handoff_path" git-hook ${args} </dev/null || handoff_status=$?`,
    `  else`,
    `    echo "handoff: warning: the handoff CLI was not found; skipped (reinstall: handoff hooks install)" >&2`,
    `  fi`,
  ].join('\n');
}

/**
 * `git handoff` from a project install, whose node_modules/.bin git does not search: a
 * repository-local alias (git runs a `git-handoff` on PATH first, so it only fills in)
 * that finds the CLI as the hooks do and runs it from the directory it was typed in; the
 * CLI `handoff init` ran from first when it is recorded (a source checkout, which nothing
 * else would find), as the hooks and the merge driver run it.
 */
export function aliasCommand(cli: Cli | null = null): string {
  const here = `cd -- "\${GIT_PREFIX:-.}" &&`;
  const found = `${FIND_CLI.join('; ')}; if [ -n "$handoff_path" ]; then ${here} "$handoff_path" "$@"; else echo "handoff: the handoff CLI was not found on PATH or in node_modules/.bin (npm install)" >&2; return 1; fi`;
  return `!f() { ${cli ? recordedElse(cli, (run) => `${here} ${run} "$@"`, found) : found}; }; f`;
}

/** The recorded CLI (`run` its command line) while it is still there, else `found`. */
function recordedElse(cli: Cli, command: (run: string) => string, found: string): string {
  return `if [ -x ${quote(cli.node)} ] && [ -f ${quote(cli.bin)} ]; then ${command(`${quote(cli.node)} ${quote(cli.bin)}`)}; else ${found}; fi`;
}

/**
 * The merge driver's command (git runs it with sh at the work tree's top): the recorded CLI
 * or the one FIND_CLI finds, else git's own text merge, the result a merge without us has.
 */
export function driverCommand(cli: Cli | null): string {
  const run = '"$handoff_path" merge-driver %O %A %B %P';
  const fallback = 'git merge-file -L ours -L base -L theirs %A %O %B';
  const found = `${FIND_CLI.join('; ')}; if [ -n "$handoff_path" ]; then ${run}; else ${fallback}; fi`;
  return cli ? recordedElse(cli, (run) => `${run} merge-driver %O %A %B %P`, found) : found;
}

const WARN = `  [ "$handoff_status" -eq 0 ] || echo "handoff: warning: the $handoff_hook hook failed (exit $handoff_status); carrying on" >&2`;

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');

function body(hook: HookName, cli: Cli | null, version: string): string {
  const skip = `[ "\${HANDOFF_SKIP:-0}" != 1 ]`;
  switch (hook) {
    case 'pre-commit':
      return [
        `if ${skip} && ! git diff --cached --quiet -- .handoff 2>/dev/null; then`,
        `  handoff_hook=pre-commit`,
        // Any failure (an unmerged index, no .handoff/ staged, no record) is a miss: node decides.
        `  handoff_tree=$(git write-tree --prefix=.handoff/ 2>/dev/null) || handoff_tree=`,
        `  handoff_seen=`,
        `  handoff_gitdir=`,
        `  if [ -n "$handoff_tree" ]; then handoff_gitdir=$(git rev-parse --git-dir 2>/dev/null) || handoff_gitdir=; fi`,
        `  if [ -n "$handoff_gitdir" ] && [ -f "$handoff_gitdir/${RECORD_FILE}" ]; then read -r handoff_seen <"$handoff_gitdir/${RECORD_FILE}" || :; fi`,
        `  if [ -z "$handoff_tree" ] || [ "$handoff_seen" != ${quote(`${version} `)}"$handoff_tree" ]; then`,
        indent(invoke(cli, 'pre-commit')),
        `    if [ "$handoff_status" -eq ${BLOCK_COMMIT} ]; then exit 1; fi`,
        indent(WARN),
        `  fi`,
        `fi`,
      ].join('\n');
    case 'post-checkout':
      return [
        `if ${skip} && [ "\${3:-1}" = 1 ] && [ -d .handoff ] && ! git diff --quiet "\${1:-HEAD}" "\${2:-HEAD}" -- .handoff 2>/dev/null; then`,
        `  handoff_hook=post-checkout`,
        invoke(cli, 'refresh'),
        WARN,
        `fi`,
      ].join('\n');
    case 'post-merge':
      return [
        `if ${skip} && [ -d .handoff ] && ! git diff --quiet ORIG_HEAD HEAD -- .handoff 2>/dev/null; then`,
        `  handoff_hook=post-merge`,
        invoke(cli, 'post-merge'),
        WARN,
        `fi`,
      ].join('\n');
    case 'post-rewrite':
      return [
        `if [ "\${1:-}" = rebase ]; then handoff_from=ORIG_HEAD; else handoff_from='HEAD@{1}'; fi`,
        `if ${skip} && [ -d .handoff ] && ! git diff --quiet "$handoff_from" HEAD -- .handoff 2>/dev/null; then`,
        `  handoff_hook=post-rewrite`,
        invoke(cli, 'refresh'),
        WARN,
        `fi`,
      ].join('\n');
  }
}

/** The block for one hook, marker lines included, ending with a newline; `version` is the tool's, which wrote the block. */
export function hookBlock(hook: HookName, cli: Cli | null, version: string, chained = false): string {
  const lines = [
    `${BLOCK_START} added by 'handoff hooks install'; 'handoff hooks uninstall' removes it`,
    body(hook, cli, version),
  ];
  if (chained) lines.push(`exec "$0${CHAINED_SUFFIX}" "$@"`);
  lines.push(BLOCK_END);
  return `${lines.join('\n')}\n`;
}

const BLOCK = new RegExp(`${escapeRegExp(BLOCK_START)}[^\\n]*\\n[\\s\\S]*?${escapeRegExp(BLOCK_END)}\\n?`);
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function findBlock(content: string): string | undefined {
  return BLOCK.exec(content)?.[0];
}

/** Is this hook a shell script we can add lines to? */
export function isShellScript(content: string): boolean {
  if (content.includes('\0')) return false;
  const first = content.split('\n', 1)[0] ?? '';
  if (!first.startsWith('#!')) return false;
  return /^#!\s*(\/usr\/bin\/env\s+)?(\S*\/)?(sh|bash|dash|zsh|ksh|ash)(\s|$)/.test(first);
}

export type AddStyle = 'after-shebang' | 'append';

/**
 * The hook with our block in it. Inserted right after the shebang so an `exit` at the end
 * of the user's script cannot skip it; appended for husky's shebang-less scripts.
 * The removal below restores the original byte for byte.
 */
export function addBlock(existing: string | undefined, block: string, style: AddStyle): string {
  const current = existing === undefined ? undefined : findBlock(existing);
  if (existing !== undefined && current !== undefined) return existing.replace(current, () => block);
  if (existing === undefined || existing === '') return style === 'append' ? block : CREATED_HEADER + block;
  if (style === 'append') return existing.endsWith('\n') ? existing + block : `${existing}\n${block}`;
  const eol = existing.indexOf('\n');
  if (eol < 0) return `${existing}\n${block}`;
  return existing.slice(0, eol + 1) + block + existing.slice(eol + 1);
}

/**
 * The hook without our block: '' when nothing of the user's is left (the file was ours),
 * undefined when there was no block. Exact for every file install changed, except one
 * that did not end in a newline and got the block appended: its added newline stays.
 */
export function removeBlock(content: string): string | undefined {
  const block = findBlock(content);
  if (block === undefined) return undefined;
  const at = content.indexOf(block);
  const rest = content.slice(0, at) + content.slice(at + block.length);
  return rest === CREATED_HEADER || rest === '' ? '' : rest;
}
