// Tool calls shared by several agents (Codex, Gemini CLI, pi, OpenCode, Kilo, Copilot CLI,
// Cline, Qwen Code): which names edit files, run shell commands or keep a plan. Unknown tool names yield only the
// generic tool-call event.
import { isObject, parseJson, str, todoStatus, type EditKind, type TranscriptEvent } from './events.js';

type Base = { line: number; sidechain?: boolean };

/** Files named by an apply_patch text (the `*** Begin Patch` grammar). */
function patchFiles(patch: string): Array<{ path: string; change: EditKind; from?: string }> {
  const out: Array<{ path: string; change: EditKind; from?: string }> = [];
  let last: { path: string; change: EditKind; from?: string } | undefined;
  for (const line of patch.split('\n')) {
    const m = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line.trimEnd());
    if (m) {
      last = { path: m[2]!.trim(), change: m[1] === 'Add' ? 'create' : m[1] === 'Delete' ? 'delete' : 'edit' };
      out.push(last);
      continue;
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line.trimEnd());
    if (move && last) {
      last.from = last.path;
      last.path = move[1]!.trim();
      last.change = 'rename';
    }
  }
  return out;
}

/** A shell command given as a string or an argv array (`bash -lc "..."` unwrapped). */
export function shellText(command: unknown): string | undefined {
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((c) => typeof c === 'string')) {
    const argv = command as string[];
    if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2];
    return argv.join(' ');
  }
  return undefined;
}

export function* toolEvents(
  name: string,
  id: string | undefined,
  input: unknown,
  base: Base,
): Generator<TranscriptEvent> {
  let i: Record<string, unknown> = {};
  if (isObject(input)) i = input;
  else if (typeof input === 'string') {
    const parsed = parseJson(input);
    if (isObject(parsed)) i = parsed;
  }
  const lower = name.toLowerCase();
  const file = str(i.file_path) ?? str(i.filePath) ?? str(i.path) ?? str(i.absolute_path);
  switch (lower) {
    case 'apply_patch': {
      const text =
        typeof input === 'string' && !isObject(parseJson(input))
          ? input
          : (str(i.input) ?? str(i.patch) ?? shellText(i.command) ?? '');
      for (const f of patchFiles(text)) yield { kind: 'file-edit', ...f, ...base };
      return;
    }
    case 'write_file':
    case 'write':
    case 'create': // Copilot CLI: {path, file_text}
      if (file) yield { kind: 'file-edit', path: file, change: 'create', ...base };
      return;
    case 'editor': // Cline: {path, old_text?, new_text, insert_line?}; no old text is a new file
      if (file)
        yield {
          kind: 'file-edit',
          path: file,
          change: i.old_text === undefined && i.insert_line === undefined ? 'create' : 'edit',
          ...base,
        };
      return;
    case 'run_commands': // Cline: several commands in one call
      if (Array.isArray(i.commands))
        for (const c of i.commands) {
          const cmd = shellText(c);
          if (cmd !== undefined) yield { kind: 'shell', command: cmd, ...(id ? { id } : {}), ...base };
        }
      return;
    case 'replace':
    case 'edit':
    case 'multiedit':
    case 'edit_file':
    case 'patch':
      if (file) yield { kind: 'file-edit', path: file, change: 'edit', ...base };
      return;
    case 'shell':
    case 'bash':
    case 'shell_command':
    case 'exec_command':
    case 'run_shell_command':
    case 'local_shell': {
      const cmd = shellText(i.command) ?? shellText(i.cmd);
      if (cmd !== undefined) {
        // An apply_patch run through the shell is an edit, not a command.
        if (/^\s*apply_patch\b/.test(cmd)) for (const f of patchFiles(cmd)) yield { kind: 'file-edit', ...f, ...base };
        else yield { kind: 'shell', command: cmd, ...(id ? { id } : {}), ...base };
      }
      return;
    }
    case 'update_plan':
      if (Array.isArray(i.plan))
        yield {
          kind: 'todos',
          items: i.plan.filter(isObject).map((p) => ({ text: str(p.step) ?? '', status: todoStatus(p.status) })),
          ...base,
        };
      return;
    case 'create_goal':
    case 'update_goal': {
      // Codex's goal tools (0.169): one goal per thread, kept as a task.
      const objective = str(i.objective);
      const status = str(i.status);
      if (objective || status)
        yield {
          kind: 'task',
          id: 'goal',
          ...(objective ? { subject: objective } : {}),
          status: status === 'complete' || status === 'completed' ? 'completed' : 'in_progress',
          ...base,
        };
      return;
    }
    case 'write_todos':
    case 'todowrite':
    case 'todo_write': // Qwen Code
      if (Array.isArray(i.todos))
        yield {
          kind: 'todos',
          items: i.todos
            .filter(isObject)
            .map((t) => ({ text: str(t.description) ?? str(t.content) ?? '', status: todoStatus(t.status) })),
          ...base,
        };
      return;
    default:
  }
}
