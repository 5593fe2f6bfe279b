// Where hooks live and the files install/uninstall touch. Decisions about the scripts'
// text are hook-script.ts's; this file finds the directory (core.hooksPath, husky,
// linked worktrees), reads and writes hook files, and sets the merge-driver config.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  addBlock,
  CHAINED_SUFFIX,
  findBlock,
  hookBlock,
  HOOK_NAMES,
  driverCommand,
  isShellScript,
  removeBlock,
  type AddStyle,
  type Cli,
  type HookName,
} from './hook-script.js';
import { exists, readText, replaceFileAtomic } from '../store/fs.js';
import type { Git } from '../git/git.js';
import { MERGE_DRIVER } from '../git/git-records.js';
import { version } from '../core/version.js';

const DRIVER = MERGE_DRIVER;

export interface HooksDir {
  dir: string;
  style: AddStyle;
  /** husky keeps hooks in the repository: no machine paths go there. */
  shared: boolean;
  manager?: string;
  /** `<git dir>/handoff-hook-modes.json`: the mode each user's hook had before we made it executable. */
  modes: string;
}

/** The node binary and bin script running now (agent hooks record them in the local config). */
export function currentCli(): Cli {
  return { node: process.execPath, bin: fileURLToPath(new URL('../../bin/handoff.js', import.meta.url)) };
}

/**
 * What git hooks and the merge driver record: nothing when this CLI was installed as a
 * package (in a node_modules folder, global or the project's), which they find at run time
 * and which a reinstall or a move would leave behind; the running CLI for a source
 * checkout, which nothing else would find.
 */
export function recordedCli(): Cli | null {
  const cli = currentCli();
  return cli.bin.split(path.sep).includes('node_modules') ? null : cli;
}

export async function hooksDir(git: Git): Promise<HooksDir> {
  const root = git.root;
  // --git-path honours core.hooksPath and, in a linked worktree, the common git dir.
  const [dir = '', modes = ''] = await git.gitPaths(['hooks', 'handoff-hook-modes.json']);
  const configured = (await git.config('core.hooksPath')) ?? '';
  // husky 9 points core.hooksPath at .husky/_, which it regenerates; user scripts are .husky/<hook>.
  if (configured && path.basename(dir) === '_' && path.basename(path.dirname(dir)) === '.husky') {
    return { dir: path.dirname(dir), style: 'append', shared: true, manager: 'husky', modes };
  }
  if (configured && path.basename(dir) === '.husky')
    return { dir, style: 'after-shebang', shared: true, manager: 'husky', modes };
  // A hooks directory inside the work tree (e.g. .githooks) is usually committed: no machine paths there either.
  const inside = !path.relative(root, dir).startsWith('..') && !path.isAbsolute(path.relative(root, dir));
  return { dir, style: 'after-shebang', shared: Boolean(configured) && inside, modes };
}

/** Hook managers that regenerate .git/hooks: they need one line in their own config instead. */
export async function otherManagers(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const [file, name] of [
    ['lefthook.yml', 'lefthook'],
    ['.lefthook.yml', 'lefthook'],
    ['lefthook.yaml', 'lefthook'],
    ['.pre-commit-config.yaml', 'pre-commit'],
  ] as const) {
    if ((await exists(path.join(root, file))) && !found.includes(name)) found.push(name);
  }
  return found;
}

export type HookState = 'created' | 'added' | 'wrapped' | 'updated' | 'unchanged' | 'removed' | 'restored' | 'absent';

export interface HookReport {
  hook: HookName;
  file: string;
  state: HookState;
}

type Modes = Record<string, number>;

async function readModes(hd: HooksDir): Promise<Modes> {
  try {
    const data: unknown = JSON.parse((await readText(hd.modes)) ?? '{}');
    return data !== null && typeof data === 'object' ? (data as Modes) : {};
  } catch {
    return {};
  }
}

async function writeModes(hd: HooksDir, modes: Modes): Promise<void> {
  if (Object.keys(modes).length === 0) await fs.rm(hd.modes, { force: true });
  else await replaceFileAtomic(hd.modes, `${JSON.stringify(modes, null, 2)}\n`);
}

async function writeHook(file: string, content: string): Promise<void> {
  await replaceFileAtomic(file, content);
  await fs.chmod(file, 0o755);
}

export async function installHooks(hd: HooksDir, cli: Cli | null): Promise<HookReport[]> {
  const reports: HookReport[] = [];
  const modes = await readModes(hd);
  const before = JSON.stringify(modes);
  for (const hook of HOOK_NAMES) {
    const file = path.join(hd.dir, hook);
    const existing = await readText(file).catch(() => undefined);
    const chained = await exists(file + CHAINED_SUFFIX);
    const block = hookBlock(hook, cli, version(), chained);
    let state: HookState;
    if (existing !== undefined && findBlock(existing) !== undefined) {
      const next = addBlock(existing, block, hd.style);
      state = next === existing ? 'unchanged' : 'updated';
      if (next !== existing) await writeHook(file, next);
    } else if (existing === undefined) {
      await writeHook(file, addBlock(undefined, block, hd.style));
      state = 'created';
    } else if (isShellScript(existing) || (hd.style === 'append' && !existing.includes('\0'))) {
      // Our block must run, so the file becomes executable; uninstall gives the user's mode back.
      const mode = (await fs.stat(file)).mode & 0o7777;
      if (mode !== 0o755) modes[hook] = mode;
      await writeHook(file, addBlock(existing, block, hd.style));
      state = 'added';
    } else {
      // Not a shell script (python, a binary): move it aside, byte for byte, and run it from a wrapper.
      await fs.rename(file, file + CHAINED_SUFFIX);
      await writeHook(file, addBlock(undefined, hookBlock(hook, cli, version(), true), 'after-shebang'));
      state = 'wrapped';
    }
    reports.push({ hook, file, state });
  }
  if (JSON.stringify(modes) !== before) await writeModes(hd, modes);
  return reports;
}

export async function uninstallHooks(hd: HooksDir): Promise<HookReport[]> {
  const reports: HookReport[] = [];
  const modes = await readModes(hd);
  const before = JSON.stringify(modes);
  for (const hook of HOOK_NAMES) {
    const file = path.join(hd.dir, hook);
    const existing = await readText(file).catch(() => undefined);
    const rest = existing === undefined ? undefined : removeBlock(existing);
    if (rest === undefined) {
      reports.push({ hook, file, state: 'absent' });
      continue;
    }
    if (await exists(file + CHAINED_SUFFIX)) {
      await fs.rm(file);
      await fs.rename(file + CHAINED_SUFFIX, file);
      reports.push({ hook, file, state: 'restored' });
    } else if (rest === '') {
      await fs.rm(file);
      reports.push({ hook, file, state: 'removed' });
    } else {
      // Keep the user's file; only our lines go, and the mode it had before install comes back.
      await fs.writeFile(file, rest);
      const mode = modes[hook];
      if (typeof mode === 'number') await fs.chmod(file, mode);
      reports.push({ hook, file, state: 'restored' });
    }
    delete modes[hook];
  }
  if (JSON.stringify(modes) !== before) await writeModes(hd, modes);
  return reports;
}

export interface HookStatus {
  hook: HookName;
  file: string;
  installed: boolean;
  current: boolean;
  chained: boolean;
}

export async function hookStatus(hd: HooksDir, cli: Cli | null): Promise<HookStatus[]> {
  return Promise.all(
    HOOK_NAMES.map(async (hook) => {
      const file = path.join(hd.dir, hook);
      const existing = await readText(file).catch(() => undefined);
      const chained = await exists(file + CHAINED_SUFFIX);
      const block = existing === undefined ? undefined : findBlock(existing);
      return {
        hook,
        file,
        installed: block !== undefined,
        current: block === hookBlock(hook, cli, version(), chained),
        chained,
      };
    }),
  );
}

/**
 * Registers the merge driver in this clone: the local git config, and the roadmap routed to
 * it in <git dir>/info/attributes, which overrides the committed `merge=union` (attributes()).
 * Returns whether anything changed.
 */
export async function configureDriver(git: Git, cli: Cli | null, roadmap: string): Promise<boolean> {
  const key = `merge.${DRIVER}.driver`;
  const want = driverCommand(cli);
  let changed = false;
  if ((await git.config(key, true)) !== want) {
    await git.setLocalConfig(`merge.${DRIVER}.name`, 'regenerate the handoff roadmap instead of merging its text');
    await git.setLocalConfig(key, want);
    changed = true;
  }
  const [info = ''] = await git.gitPaths(['info/attributes']);
  const line = localAttribute(roadmap);
  const text = (await readText(info)) ?? '';
  if (!text.split(/\r?\n/).includes(line)) {
    await fs.mkdir(path.dirname(info), { recursive: true });
    await replaceFileAtomic(info, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`);
    changed = true;
  }
  return changed;
}

export function driverConfigured(git: Git): Promise<boolean> {
  return git.driverConfigured();
}

/** The line in <git dir>/info/attributes (patterns from the top of the work tree) that routes the roadmap to our driver. */
export function localAttribute(roadmap: string): string {
  return `/${roadmap} merge=${DRIVER}`;
}

/**
 * The roadmap's committed attribute line: `merge=union`, git's own line merge, so that a
 * clone that never ran `handoff init` merges two branches' roadmaps without a conflict (the
 * result is regenerated by the next write, hook or `handoff roadmap`, and `check` says when
 * it is stale); a clone that did routes it to our driver instead (configureDriver). In
 * .handoff/.gitattributes when the roadmap lives under .handoff/ (git reads attributes
 * files in subdirectories, and everything of ours stays in one directory), else the root's.
 */
export function attributes(roadmap: string): { file: string; line: string; old: string } {
  const [file, name] = roadmap.startsWith('.handoff/')
    ? ['.handoff/.gitattributes', roadmap.slice('.handoff/'.length)]
    : ['.gitattributes', roadmap];
  return { file, line: `/${name} merge=union`, old: `/${name} merge=${DRIVER}` };
}

/** Adds the roadmap's attribute line (in place of the one earlier versions wrote); returns the file it changed, if any. */
export async function addAttributes(root: string, roadmap: string): Promise<string | undefined> {
  const { file, line, old } = attributes(roadmap);
  const text = (await readText(path.join(root, file))) ?? '';
  const lines = text.split(/\r?\n/);
  if (lines.includes(line)) return undefined;
  const next = lines.includes(old)
    ? text.replace(new RegExp(`^${old.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'), line)
    : `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`;
  await replaceFileAtomic(path.join(root, file), next);
  return file;
}

export async function hasAttributes(root: string, roadmap: string): Promise<boolean> {
  const { file, line } = attributes(roadmap);
  return ((await readText(path.join(root, file))) ?? '').split(/\r?\n/).includes(line);
}
