// Where each agent keeps its sessions, by its documented default location and its
// environment override, narrowed to the ones that may belong to this repository.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Agent } from './events.js';
import { fileInfo, readHead } from './lines.js';

export interface Candidate {
  agent: Agent;
  file: string;
  /** For OpenCode's database: which session in it. */
  sessionId?: string;
  mtime: Date;
  size: number;
}

const MAX_PER_AGENT = 30;

async function list(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

async function files(agent: Agent, paths: string[]): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const file of paths) {
    const info = await fileInfo(file);
    if (info && !info.isDirectory && info.size > 0) out.push({ agent, file, mtime: info.mtime, size: info.size });
  }
  return out.sort((a, b) => b.mtime.getTime() - a.mtime.getTime()).slice(0, MAX_PER_AGENT);
}

const home = (env: NodeJS.ProcessEnv) => env.HOME ?? env.USERPROFILE ?? '';

/** `~/.claude/projects/<cwd with every non-alphanumeric character as '-'>`; subdirectories share the prefix. */
async function claude(root: string, env: NodeJS.ProcessEnv): Promise<Candidate[]> {
  const projects = path.join(env.CLAUDE_CONFIG_DIR ?? path.join(home(env), '.claude'), 'projects');
  const key = root.replace(/[^a-zA-Z0-9]/g, '-');
  const out: string[] = [];
  for (const dir of await list(projects)) {
    if (dir !== key && !dir.startsWith(key + '-')) continue;
    for (const f of await list(path.join(projects, dir)))
      if (f.endsWith('.jsonl') && !f.startsWith('agent-')) out.push(path.join(projects, dir, f));
  }
  return files('claude-code', out);
}

/** `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`; the cwd is in the first line. */
async function codex(env: NodeJS.ProcessEnv): Promise<Candidate[]> {
  const sessions = path.join(env.CODEX_HOME ?? path.join(home(env), '.codex'), 'sessions');
  const out: string[] = [];
  for (const y of (await list(sessions)).reverse())
    for (const m of (await list(path.join(sessions, y))).reverse())
      for (const d of (await list(path.join(sessions, y, m))).reverse()) {
        for (const f of await list(path.join(sessions, y, m, d)))
          if (f.startsWith('rollout-') && f.endsWith('.jsonl')) out.push(path.join(sessions, y, m, d, f));
        if (out.length >= MAX_PER_AGENT * 4) return files('codex', out);
      }
  return files('codex', out);
}

/** `~/.gemini/tmp/<sha256 of the project root>/chats/session-*.json(l)`. */
async function gemini(root: string, env: NodeJS.ProcessEnv): Promise<Candidate[]> {
  const tmp = path.join(env.GEMINI_CLI_HOME ?? home(env), '.gemini', 'tmp');
  const hash = createHash('sha256').update(root).digest('hex');
  const out: string[] = [];
  for (const dir of await list(tmp)) {
    const chats = path.join(tmp, dir, 'chats');
    for (const f of await list(chats)) {
      if (!/^session-.*\.jsonl?$/.test(f)) continue;
      const file = path.join(chats, f);
      if (dir === hash || (await readHead(file, 4096)).toString('utf8').includes(hash)) out.push(file);
    }
  }
  return files('gemini-cli', out);
}

/** `~/.pi/agent/sessions/--<cwd with '/' as '-'>--/`. */
async function pi(root: string, env: NodeJS.ProcessEnv): Promise<Candidate[]> {
  const sessions = path.join(env.PI_CODING_AGENT_DIR ?? path.join(home(env), '.pi', 'agent'), 'sessions');
  const key = '--' + root.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-');
  const out: string[] = [];
  for (const dir of await list(sessions)) {
    if (dir !== key + '--' && !dir.startsWith(key + '-')) continue;
    for (const f of await list(path.join(sessions, dir)))
      if (f.endsWith('.jsonl')) out.push(path.join(sessions, dir, f));
  }
  return files('pi', out);
}

/** Files that live in the repository itself: Aider's history and SpecStory's exports. */
async function inRepo(root: string): Promise<Candidate[]> {
  const history = path.join(root, '.specstory', 'history');
  const spec = (await list(history)).filter((f) => f.endsWith('.md')).map((f) => path.join(history, f));
  return [...(await files('aider', [path.join(root, '.aider.chat.history.md')])), ...(await files('specstory', spec))];
}

/** `$COPILOT_HOME/session-state/<session>/events.jsonl` (default ~/.copilot); the cwd is in the first record. */
async function copilot(root: string, env: NodeJS.ProcessEnv): Promise<Candidate[]> {
  const state = path.join(env.COPILOT_HOME ?? path.join(home(env), '.copilot'), 'session-state');
  const cwd = JSON.stringify(root).slice(1, -1);
  const out: string[] = [];
  for (const dir of await list(state)) {
    const file = path.join(state, dir, 'events.jsonl');
    if ((await readHead(file, 4096)).toString('utf8').includes(`"cwd":"${cwd}`)) out.push(file);
  }
  return files('copilot', out);
}

/** `~/.qwen/projects/<cwd, non-alphanumerics as '-'>/chats/*.jsonl`. */
async function qwen(root: string, env: NodeJS.ProcessEnv): Promise<Candidate[]> {
  const projects = path.join(home(env), '.qwen', 'projects');
  const key = root.replace(/[^a-zA-Z0-9]/g, '-');
  const out: string[] = [];
  for (const dir of await list(projects)) {
    if (dir !== key && !dir.startsWith(key + '-')) continue;
    const chats = path.join(projects, dir, 'chats');
    for (const f of await list(chats)) if (f.endsWith('.jsonl')) out.push(path.join(chats, f));
  }
  return files('qwen', out);
}

/** Cline: `<data dir>/sessions/<root id>/<id>.messages.json`, whose `<id>.json` names the cwd. */
async function cline(root: string, env: NodeJS.ProcessEnv): Promise<Candidate[]> {
  const { clineCwd, clineDataDir } = await import('./cline.js');
  const sessions = path.join(clineDataDir(env), 'sessions');
  const out: string[] = [];
  for (const dir of (await list(sessions)).reverse()) {
    for (const f of await list(path.join(sessions, dir))) {
      if (!f.endsWith('.messages.json')) continue;
      const file = path.join(sessions, dir, f);
      const cwd = await clineCwd(file);
      const rel = cwd ? path.relative(root, cwd) : '..';
      if (!rel.startsWith('..') && !path.isAbsolute(rel)) out.push(file);
    }
    if (out.length >= MAX_PER_AGENT) break;
  }
  return files('cline', out);
}

/**
 * OpenCode: `$XDG_DATA_HOME/opencode/opencode.db`, or the legacy storage/session/<project>/*.json;
 * Kilo, its fork: `$XDG_DATA_HOME/kilo/kilo.db`.
 */
async function opencode(root: string, env: NodeJS.ProcessEnv, app = 'opencode'): Promise<Candidate[]> {
  const base = path.join(env.XDG_DATA_HOME ?? path.join(home(env), '.local', 'share'), app);
  const out: Candidate[] = [];
  const db = path.join(base, `${app}.db`);
  const info = await fileInfo(db);
  if (info && info.size > 0) {
    const { openCodeDbSessions } = await import('./opencode-db.js');
    for (const s of await openCodeDbSessions(db).catch(() => [])) {
      const rel = s.directory ? path.relative(root, s.directory) : '..';
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      out.push({
        agent: 'opencode',
        file: db,
        sessionId: s.id,
        mtime: new Date(s.updated ?? s.created ?? info.mtime.getTime()),
        size: info.size,
      });
    }
  }
  const sessions = path.join(base, 'storage', 'session');
  const legacy: string[] = [];
  for (const project of await list(sessions))
    for (const f of await list(path.join(sessions, project)))
      if (f.endsWith('.json')) legacy.push(path.join(sessions, project, f));
  return [...out, ...(await files('opencode', legacy))];
}

/** Every session file that may be this repository's, newest first (cwd still to be checked). */
export async function discoverSessions(root: string, env: NodeJS.ProcessEnv): Promise<Candidate[]> {
  const all = (
    await Promise.all([
      claude(root, env),
      codex(env),
      gemini(root, env),
      pi(root, env),
      inRepo(root),
      opencode(root, env),
      opencode(root, env, 'kilo'),
      copilot(root, env),
      qwen(root, env),
      cline(root, env),
    ])
  ).flat();
  return all.sort((a, b) => b.mtime.getTime() - a.mtime.getTime());
}
