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
  isShellScript,
  removeBlock,
  type AddStyle,
  type Cli,
  type HookName,
} from './hook-script.js';
import { exists, readText, replaceFileAtomic } from '../store/fs.js';
import type { Git } from '../git/git.js';
import { version } from '../core/version.js';

const DRIVER = 'handoff-roadmap';

export interface HooksDir {
  dir: string;
  style: AddStyle;
  /** husky keeps hooks in the repository: no machine paths go there. */
  shared: boolean;
  manager?: string;
}

/** The node binary and bin script running now: what hooks and the merge driver call. */
export function currentCli(): Cli {
  return { node: process.execPath, bin: fileURLToPath(new URL('../../bin/handoff.js', import.meta.url)) };
}

export async function hooksDir(git: Git): Promise<HooksDir> {
  const root = git.root;
  // --git-path honours core.hooksPath and, in a linked worktree, the common git dir.
  const [dir = ''] = await git.gitPaths(['hooks']);
  const configured = (await git.config('core.hooksPath')) ?? '';
  // husky 9 points core.hooksPath at .husky/_, which it regenerates; user scripts are .husky/<hook>.
  if (configured && path.basename(dir) === '_' && path.basename(path.dirname(dir)) === '.husky') {
    return { dir: path.dirname(dir), style: 'append', shared: true, manager: 'husky' };
  }
  if (configured && path.basename(dir) === '.husky')
    return { dir, style: 'after-shebang', shared: true, manager: 'husky' };
  // A hooks directory inside the work tree (e.g. .githooks) is usually committed: no machine paths there either.
  const inside = !path.relative(root, dir).startsWith('..') && !path.isAbsolute(path.relative(root, dir));
  return { dir, style: 'after-shebang', shared: Boolean(configured) && inside };
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

async function writeHook(file: string, content: string): Promise<void> {
  await replaceFileAtomic(file, content);
  await fs.chmod(file, 0o755);
}

export async function installHooks(hd: HooksDir, cli: Cli | null): Promise<HookReport[]> {
  const reports: HookReport[] = [];
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
  return reports;
}

export async function uninstallHooks(hd: HooksDir): Promise<HookReport[]> {
  const reports: HookReport[] = [];
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
      // Keep the user's file (and its mode); only our lines go.
      await fs.writeFile(file, rest);
      reports.push({ hook, file, state: 'removed' });
    }
  }
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

function driverCommand(cli: Cli): string {
  const q = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
  return `${q(cli.node)} ${q(cli.bin)} merge-driver %O %A %B %P`;
}

/** Registers the roadmap merge driver in the local git config; returns whether it changed. */
export async function configureDriver(git: Git, cli: Cli): Promise<boolean> {
  const key = `merge.${DRIVER}.driver`;
  const want = driverCommand(cli);
  if ((await git.config(key, true)) === want) return false;
  await git.setLocalConfig(`merge.${DRIVER}.name`, 'regenerate the handoff roadmap instead of merging its text');
  await git.setLocalConfig(key, want);
  return true;
}

export async function driverConfigured(git: Git): Promise<boolean> {
  return (await git.config(`merge.${DRIVER}.driver`, true)) !== null;
}

/**
 * Where the roadmap's attribute line goes: .handoff/.gitattributes when the roadmap lives
 * under .handoff/ (git reads attributes files in subdirectories, and everything of ours
 * stays in one directory), else the root .gitattributes.
 */
export function attributes(roadmap: string): { file: string; line: string } {
  if (roadmap.startsWith('.handoff/'))
    return { file: '.handoff/.gitattributes', line: `/${roadmap.slice('.handoff/'.length)} merge=${DRIVER}` };
  return { file: '.gitattributes', line: `/${roadmap} merge=${DRIVER}` };
}

/** Adds the roadmap's attribute line; returns the file it changed, if any. */
export async function addAttributes(root: string, roadmap: string): Promise<string | undefined> {
  const { file, line } = attributes(roadmap);
  const text = (await readText(path.join(root, file))) ?? '';
  if (text.split(/\r?\n/).includes(line)) return undefined;
  await replaceFileAtomic(path.join(root, file), `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`);
  return file;
}

export async function hasAttributes(root: string, roadmap: string): Promise<boolean> {
  const { file, line } = attributes(roadmap);
  return ((await readText(path.join(root, file))) ?? '').split(/\r?\n/).includes(line);
}
