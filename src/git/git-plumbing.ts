// Git plumbing: the one place git is spawned (git.ts builds the commands' queries on
// it). Spawned directly, with stdin for `cat-file --batch`, and its output read through
// pipes. The child inherits the whole environment on purpose: inside a hook git sets
// GIT_INDEX_FILE (`commit -a`, `commit -- path`) and GIT_DIR, and those must reach every
// git we run.
import { HandoffError } from '../core/errors.js';
import { LINK_PREFIX, needText, SYMLINK_REFUSED, type ParseCache, type TreeFile } from '../store/tree.js';

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export function gitRaw(
  cwd: string,
  args: string[],
  input?: string | Buffer,
  env?: Record<string, string>,
): Promise<GitResult> {
  // A spawn that throws (a bad cwd) rejects the promise: the executor's throw does that.
  return new Promise((resolve, reject) => {
    // node:child_process is loaded on the first spawn, not with this module: a hook in a
    // repository without .handoff/ runs no git. No input: stdin is /dev/null, one pipe
    // fewer to set up per process.
    const child = process.getBuiltinModule('node:child_process').spawn('git', args, {
      cwd,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      ...(env ? { env: { ...process.env, ...env } } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (c: Buffer) => out.push(c));
    child.stderr!.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }),
    );
    if (child.stdin) {
      child.stdin.on('error', () => {}); // git may exit before reading all of stdin
      child.stdin.end(input);
    }
  });
}

/**
 * gitRaw, waited for in this thread: the same pipes, without the stream and socket objects
 * node builds around an asynchronous child's pipes, which cost more CPU than a short git
 * process does. Nothing else of ours runs until git exits: only for short questions asked
 * where nothing else would overlap them (git.ts says which).
 */
export function gitRawSync(cwd: string, args: string[]): GitResult {
  const r = process.getBuiltinModule('node:child_process').spawnSync('git', args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: Number.POSITIVE_INFINITY,
  });
  if (r.error) throw r.error;
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

/**
 * git's output line by line, the process ended as soon as `line` says it has what it needs
 * (a walk of all history whose answer lies in its newest commits stops there). `stopped`
 * says it was ended so; otherwise `code` is git's exit code.
 */
export function gitLines(
  cwd: string,
  args: string[],
  line: (text: string) => boolean,
): Promise<{ code: number; stopped: boolean }> {
  return new Promise((resolve, reject) => {
    const child = process.getBuiltinModule('node:child_process').spawn('git', args, {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let rest = '';
    let stopped = false;
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (stopped) return;
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const l of lines)
        if (line(l)) {
          stopped = true;
          child.kill();
          return;
        }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (!stopped && rest !== '') stopped = line(rest);
      resolve({ code: code ?? 1, stopped });
    });
  });
}

/** The one error text for a git command that failed: its name and git's first line (or the exit code). */
export function gitFailed(args: readonly string[], r: Pick<GitResult, 'code' | 'stderr'>): HandoffError {
  return new HandoffError(`git ${args[0]} failed: ${r.stderr.trim().split('\n')[0] || `exit ${r.code}`}`);
}

/** stdout as text; a non-zero exit is an error naming the command. */
export async function gitText(cwd: string, args: string[], input?: string | Buffer): Promise<string> {
  const r = await gitRaw(cwd, args, input);
  if (r.code !== 0) throw gitFailed(args, r);
  return r.stdout.toString('utf8');
}

/** `git rev-parse --verify -q`: the object id, or null when there is no such commit. */
export async function resolveRev(cwd: string, rev: string): Promise<string | null> {
  const r = await gitRaw(cwd, ['rev-parse', '--verify', '-q', '--end-of-options', `${rev}^{commit}`]);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** path -> blob id for the index entries under the prefixes (stage 0 only); `env` may name another index (GIT_INDEX_FILE). */
export async function indexBlobs(
  cwd: string,
  prefixes: readonly string[],
  env?: Record<string, string>,
): Promise<Map<string, string>> {
  const r = await gitRaw(
    cwd,
    ['ls-files', '-s', '-z', '--full-name', '--', ...prefixes.map((p) => `:/${p}`)],
    undefined,
    env,
  );
  if (r.code !== 0) throw gitFailed(['ls-files'], r);
  const out = r.stdout.toString('utf8');
  const map = new Map<string, string>();
  for (const entry of out.split('\0')) {
    const m = /^(\d+) ([0-9a-f]+) (\d)\t(.*)$/s.exec(entry);
    if (m && m[3] === '0' && m[1] !== '160000') map.set(m[4]!, m[1] === '120000' ? `${LINK_PREFIX}${m[2]!}` : m[2]!);
  }
  return map;
}

/** An index entry as `git ls-files -s` lists it. */
export interface IndexEntry {
  mode: string;
  id: string;
  /** 0, or the side of a conflict (1 to 3). */
  stage: string;
  path: string;
}

/** Every index entry under `prefix` (repository-relative), conflicts and submodules included. */
export async function indexEntries(cwd: string, prefix: string): Promise<IndexEntry[]> {
  const r = await gitRaw(cwd, ['ls-files', '-s', '-z', '--full-name', '--', `:/${prefix}`]);
  if (r.code !== 0) throw gitFailed(['ls-files'], r);
  // "<mode> <id> <stage>\t<path>", each ended by a NUL; cut by position, a year of handoffs is tens of thousands.
  const out = r.stdout.toString('utf8');
  const entries: IndexEntry[] = [];
  for (let at = 0; at < out.length; ) {
    const end = out.indexOf('\0', at);
    const space = out.indexOf(' ', at);
    const tab = out.indexOf('\t', space);
    if (end < 0 || space < 0 || tab < 0 || tab > end) break;
    entries.push({
      mode: out.slice(at, space),
      id: out.slice(space + 1, tab - 2),
      stage: out.slice(tab - 1, tab),
      path: out.slice(tab + 1, end),
    });
    at = end + 1;
  }
  return entries;
}

/** path -> blob id for a commit's files under `prefix`; empty for a null commit. */
export async function treeBlobs(cwd: string, rev: string | null, prefix: string): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  if (!rev) return map;
  const out = await gitText(cwd, ['ls-tree', '-r', '-z', '--full-tree', rev, '--', prefix]);
  for (const entry of out.split('\0')) {
    const m = /^(\d+) blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (m) map.set(m[3]!, m[1] === '120000' ? `${LINK_PREFIX}${m[2]!}` : m[2]!);
  }
  return map;
}

/**
 * The files under `dir` at each commit, path -> blob (links marked as treeBlobs marks
 * them), from `git cat-file --batch` of the trees, one git process per level of folders
 * however many commits, where `ls-tree` takes one per commit. A commit without `dir` maps
 * to an empty map.
 */
export async function dirBlobs(
  cwd: string,
  commits: readonly string[],
  dir: string,
): Promise<Map<string, Map<string, string>>> {
  const result = new Map<string, Map<string, string>>(commits.map((c) => [c, new Map<string, string>()]));
  let pending = commits.map((commit) => ({ commit, path: dir }));
  while (pending.length > 0) {
    const r = await gitRaw(cwd, ['cat-file', '--batch'], `${pending.map((p) => `${p.commit}:${p.path}`).join('\n')}\n`);
    if (r.code !== 0) throw gitFailed(['cat-file'], r);
    const out = r.stdout;
    const next: typeof pending = [];
    let pos = 0;
    for (const { commit, path } of pending) {
      const eol = out.indexOf(10, pos);
      if (eol < 0) break;
      const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(out.subarray(pos, eol).toString('utf8'));
      pos = eol + 1;
      if (!m) continue; // "<spec> missing": no such directory at that commit
      const end = pos + Number(m[3]);
      const hashBytes = m[1]!.length / 2;
      const files = result.get(commit)!;
      if (m[2] === 'tree')
        for (const { mode, name, id } of treeEntries(out, pos, end, hashBytes)) {
          if (mode === '120000') files.set(`${path}/${name}`, `${LINK_PREFIX}${id}`);
          else if (mode.startsWith('100')) files.set(`${path}/${name}`, id);
          else if (mode === '40000') next.push({ commit, path: `${path}/${name}` });
        }
      pos = end + 1;
    }
    pending = next;
  }
  return result;
}

/** One entry of a tree object, its id in hex. */
export interface TreeEntry {
  mode: string;
  name: string;
  id: string;
}

/** A tree object's entries, from `out[pos, end)`: "<mode> <name>\0" then the raw object id, each. */
function treeEntries(out: Buffer, pos: number, end: number, hashBytes: number): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = pos;
  while (at < end) {
    const space = out.indexOf(32, at);
    const nul = out.indexOf(0, space);
    entries.push({
      mode: out.subarray(at, space).toString('utf8'),
      name: out.subarray(space + 1, nul).toString('utf8'),
      id: out.subarray(nul + 1, nul + 1 + hashBytes).toString('hex'),
    });
    at = nul + 1 + hashBytes;
  }
  return entries;
}

/** The entries of the trees named by id or `rev:path`, in one `git cat-file --batch`; missing ones and other objects are left out. */
export async function readTrees(cwd: string, specs: readonly string[]): Promise<Map<string, TreeEntry[]>> {
  const result = new Map<string, TreeEntry[]>();
  if (specs.length === 0) return result;
  const r = await gitRaw(cwd, ['cat-file', '--batch'], `${specs.join('\n')}\n`);
  if (r.code !== 0) throw gitFailed(['cat-file'], r);
  const out = r.stdout;
  let pos = 0;
  for (const spec of specs) {
    const eol = out.indexOf(10, pos);
    if (eol < 0) break;
    const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(out.subarray(pos, eol).toString('utf8'));
    pos = eol + 1;
    if (!m) continue; // "<spec> missing"
    const end = pos + Number(m[3]);
    if (m[2] === 'tree') result.set(spec, treeEntries(out, pos, end, m[1]!.length / 2));
    pos = end + 1;
  }
  return result;
}

/** Contents of objects named by id or `rev:path`, in one `git cat-file --batch`; missing ones are left out. */
export async function readObjects(cwd: string, specs: readonly string[]): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  if (specs.length === 0) return result;
  const r = await gitRaw(cwd, ['cat-file', '--batch'], `${specs.join('\n')}\n`);
  if (r.code !== 0) throw gitFailed(['cat-file'], r);
  const { stdout } = r;
  let pos = 0;
  for (const spec of specs) {
    const eol = stdout.indexOf(10, pos);
    if (eol < 0) break;
    const header = stdout.subarray(pos, eol).toString('utf8');
    pos = eol + 1;
    const m = /^[0-9a-f]+ \w+ (\d+)$/.exec(header);
    if (!m) continue; // "<spec> missing" or "ambiguous"
    const size = Number(m[1]);
    result.set(spec, stdout.subarray(pos, pos + size).toString('utf8'));
    pos += size + 1;
  }
  return result;
}

/**
 * The files of a path -> blob map, with the text of those the cache does not know (and
 * of any `extra` objects, returned alongside so one `cat-file` serves the whole call).
 */
export async function filesOf(
  cwd: string,
  blobs: ReadonlyMap<string, string>,
  cache?: ParseCache,
  extra: readonly string[] = [],
): Promise<{ files: TreeFile[]; extra: Map<string, string> }> {
  // A symbolic link is refused as the work-tree reader refuses it: never read, never parsed.
  const files: TreeFile[] = [...blobs].map(([path, blob]) =>
    blob.startsWith(LINK_PREFIX) ? { path, blob, refused: SYMLINK_REFUSED } : { path, blob },
  );
  const wanted = needText(
    files.filter((f) => f.refused === undefined),
    cache,
  ).map((f) => f.blob!);
  const texts = await readObjects(cwd, [...new Set([...wanted, ...extra])]);
  for (const f of files) if (texts.has(f.blob!)) f.text = texts.get(f.blob!)!;
  return {
    files: files.filter((f) => f.refused !== undefined || f.text !== undefined || !needText([f], cache).length),
    extra: texts,
  };
}

/** Which of the objects named by id or `rev:path` exist, in one `git cat-file --batch-check`. */
export async function existingObjects(cwd: string, specs: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  if (specs.length === 0) return found;
  const r = await gitRaw(cwd, ['cat-file', '--batch-check'], `${specs.join('\n')}\n`);
  if (r.code !== 0) throw gitFailed(['cat-file'], r);
  const { stdout } = r;
  const lines = stdout.toString('utf8').split('\n');
  specs.forEach((spec, i) => {
    if (/^[0-9a-f]+ \w+ \d+$/.test(lines[i] ?? '')) found.add(spec);
  });
  return found;
}
