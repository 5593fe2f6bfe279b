// git-handoff for OpenCode and Kilo (written by `handoff agent install opencode|kilo`;
// `handoff agent uninstall opencode|kilo` removes this file). It adds the resume prompt (pins, the open
// handoff) to the system prompt of every request, and before OpenCode compacts a session
// it writes a handoff and hands the summarizer the pins, word for word. It needs only
// Node's built-ins, `sh` and the handoff CLI, found as the commands below find it
// (docs/agents.md); a failure never stops OpenCode.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Kilo, an OpenCode fork, loads this same file from .kilo/plugin/ and keeps kilo/kilo.db.
const app = fileURLToPath(import.meta.url)
  .split(path.sep)
  .includes('.kilo')
  ? 'kilo'
  : 'opencode';

// One command per hook, filled in by `handoff agent install` (the same commands the agents'
// settings hold).
const COMMANDS = {};

const hook = (name, input, cwd) => {
  const r = spawnSync('sh', ['-c', COMMANDS[name]], {
    cwd,
    input: JSON.stringify(input),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.stderr) process.stderr.write(r.stderr);
  return r.status === 0 ? r.stdout : '';
};

const database = () =>
  path.join(process.env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share'), app, `${app}.db`);

export const GitHandoff = async ({ directory }) => {
  const contexts = new Map();
  const contextFor = (sessionID) => {
    const key = sessionID ?? '';
    if (!contexts.has(key)) {
      const out = hook(
        `${app}-session-start`,
        { session_id: sessionID, cwd: directory, hook_event_name: 'SessionStart', source: 'startup' },
        directory,
      );
      let text = '';
      try {
        text = out.trim() ? (JSON.parse(out).hookSpecificOutput?.additionalContext ?? '') : '';
      } catch {
        text = '';
      }
      contexts.set(key, text);
    }
    return contexts.get(key);
  };
  return {
    'experimental.chat.system.transform': async (input, output) => {
      const text = contextFor(input.sessionID);
      if (text) output.system.push(text);
    },
    'experimental.session.compacting': async (input, output) => {
      const text = hook(
        `${app}-pre-compact`,
        {
          session_id: input.sessionID,
          transcript_path: database(),
          cwd: directory,
          hook_event_name: 'PreCompact',
          trigger: 'auto',
        },
        directory,
      );
      if (text.trim()) output.context.push(text.trim());
    },
    event: async ({ event }) => {
      // A compaction wrote a new handoff: the next request reads the resume prompt again.
      if (event.type === 'session.compacted') contexts.clear();
    },
  };
};
