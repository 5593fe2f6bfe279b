// The command an agent runs for one of our hooks, built here and nowhere else: every
// agent's settings, plugin and extension get it from `hookCommand`. It lands in files that
// are committed and shared, so it holds no path of anyone's machine; it finds the CLI the
// way the git hooks do, in this order, and each step is chosen so that nothing a checked-out
// branch can write is ever run:
//
// 1. the node binary and bin script `handoff agent install` recorded in this clone's git
//    config (handoff.node, handoff.bin): .git/config is never checked out, so a branch cannot
//    plant it; install records a bin only outside the work tree (npx, nvm, a global prefix).
//    The recorded node's folder also goes first on PATH, so a global install under nvm is
//    found by step 2, and node_modules/.bin's `#!/usr/bin/env node` finds node in step 3,
//    from an agent started without the user's shell profile.
// 2. `handoff` on PATH, when the shell resolves it to an absolute path (a global install);
//    a relative PATH entry such as `.` would resolve into the work tree, so it is passed over.
// 3. node_modules/.bin/handoff, only when git tracks nothing under node_modules/: then the
//    file and the package it links to were put there by a package manager, not by a
//    checkout. (A branch that tracked node_modules/ could replace either.)
//
// `npx --no-install git-handoff` is no further step: npx looks in the project's
// node_modules/.bin first, so it adds nothing to step 3 but the unchecked case.
// When nothing is found: one line on stderr, exit 0, so the agent starts anyway.

/** The git config keys install records (per clone, never committed). */
export const CONFIG_NODE = 'handoff.node';
export const CONFIG_BIN = 'handoff.bin';

/** Every command we write starts with this assignment; it is how uninstall and status know ours. */
const PREFIX = 'handoff_hook=';

/** A hook name is a lowercase word list: it is spliced into shell text, so nothing else passes. */
const NAME = /^[a-z][a-z0-9-]*$/;

export const NOT_FOUND = 'handoff: the handoff CLI was not found';

const RESOLVE = [
  `handoff_node=$(git config --get ${CONFIG_NODE} 2>/dev/null) || handoff_node=`,
  `handoff_bin=$(git config --get ${CONFIG_BIN} 2>/dev/null) || handoff_bin=`,
  `if [ -x "$handoff_node" ]; then PATH="\${handoff_node%/*}:$PATH"; export PATH; if [ -f "$handoff_bin" ]; then exec "$handoff_node" "$handoff_bin" hook "$handoff_hook"; fi; fi`,
  `case $(command -v handoff 2>/dev/null) in /*) exec handoff hook "$handoff_hook";; esac`,
  `if [ -x node_modules/.bin/handoff ] && [ -z "$(git ls-files -- node_modules 2>/dev/null | head -n 1)" ]; then exec node_modules/.bin/handoff hook "$handoff_hook"; fi`,
  `echo "${NOT_FOUND} (not recorded by 'handoff agent install', not on PATH, not in an untracked node_modules/.bin); the $handoff_hook hook did nothing" >&2`,
].join('; ');

/** The shell command (run with `sh -c`, as the agents do) for `handoff hook <name>`. */
export function hookCommand(name: string): string {
  if (!NAME.test(name)) throw new Error(`hook name '${name}' is not a lowercase word list`);
  return `${PREFIX}${name}; ${RESOLVE}`;
}

/**
 * Is this command one of ours: the current form, an older bare `handoff hook <name>`, or
 * either with something added (a tampered entry, which install replaces and status flags)?
 */
export const isOurCommand = (command: string) =>
  command.includes(PREFIX) || /(^|[\s;&|(])handoff hook [a-z]/.test(command);

/** The hook name a command of ours runs, when it names one. */
export function hookNameOf(command: string): string | undefined {
  return (/handoff_hook=([a-z][a-z0-9-]*)/.exec(command) ?? /handoff hook ([a-z][a-z0-9-]*)/.exec(command))?.[1];
}

/** Whether install may record `bin` in the clone's config: never a file inside the work tree. */
export function recordable(bin: string, root: string, sep: string): boolean {
  return bin !== root && !bin.startsWith(root.endsWith(sep) ? root : root + sep);
}
