// What `handoff agent install <agent>` puts where, per agent. Hooks where the agent has
// them (Claude Code, Codex CLI, Gemini CLI, Copilot CLI, Qwen Code, Cline), a plugin or an
// extension where it loads one (OpenCode, Kilo, pi), and a marked block in the instruction
// file the agent reads at the start of a session; where a hook's text does not reach the
// model verbatim (or not after compaction), that block carries the pins word for word.
import { hookCommand } from './hook-command.js';
import type { HookEntry } from './hook-settings.js';
import { CODEX_DOC_LIMIT } from './marked-block.js';

export interface OwnedFile {
  file: string;
  /** From templates/; or `text`, built here from our hook commands. */
  template?: string;
  hooks?: string[];
  text?: () => string;
  /** The agent runs the file itself (Cline's hooks). */
  executable?: boolean;
}

/** Copilot CLI's hook file: `{version: 1, hooks: {<camelCase event>: [{type, bash, timeoutSec}]}}`. */
function copilotHooks(): string {
  const entry = (name: string, timeoutSec: number) => [{ type: 'command', bash: hookCommand(name), timeoutSec }];
  const hooks = {
    sessionStart: entry('copilot-session-start', 30),
    preCompact: entry('copilot-pre-compact', 60),
  };
  return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

/** Cline runs an executable per event, named after it, with the event's JSON on stdin. */
const clineHook = (event: string, name: string) => () =>
  `#!/bin/sh\n# git-handoff: Cline's ${event} hook (written by \`handoff agent install cline\`; uninstall removes it)\n${hookCommand(name)}\n`;

export const PI_TRUST =
  'pi 1.5 and later load .pi/extensions/ only in a project you trust, and skip them without a word otherwise; this project is not trusted yet: run /trust in pi here (or answer its prompt), or add {"<project path>": true} to ~/.pi/agent/trust.json; pi -p --approve trusts it for one run';

const COPILOT_TRUST =
  'Copilot CLI runs hooks only in a trusted folder: trust this one when copilot asks (copilot -p: --trust-folder, or COPILOT_ALLOW_ALL=true)';

export interface AgentSpec {
  name: string;
  title: string;
  settings?: { file: string; hooks: HookEntry[]; meter?: HookEntry[] };
  /** pins: the block carries the active pins word for word (see pins-block.ts). */
  block?: { file: string; limitBytes?: number; pins?: boolean };
  /**
   * Files that are ours whole (a plugin, an extension, a /handoff command), from templates/;
   * `hooks`: the hooks a plugin runs, whose commands fill its `{{commands}}` line.
   */
  files?: OwnedFile[];
  /** One line printed after install, when the agent needs something we cannot do. */
  note?: string;
  /** Printed by `agent status` under installed hooks the agent may still skip. */
  statusNote?: string;
}

const CODEX_TRUST =
  'Codex CLI skips hooks it does not trust, silently: trust this project in ~/.codex/config.toml ([projects."<path>"] trust_level = "trusted") and the hooks with /hooks in Codex (codex exec: --dangerously-bypass-hook-trust)';

// AGENTS.md is shared by several agents; Codex reads only its first 32 KiB.
const agentsMd = { file: 'AGENTS.md', limitBytes: CODEX_DOC_LIMIT };

export const AGENTS: AgentSpec[] = [
  {
    name: 'claude',
    title: 'Claude Code',
    settings: {
      file: '.claude/settings.json',
      hooks: [
        // Seconds. `clear` starts a fresh conversation on purpose, so it is not matched.
        {
          event: 'SessionStart',
          matcher: 'startup|resume|compact',
          command: hookCommand('claude-session-start'),
          timeout: 30,
        },
        { event: 'PreCompact', command: hookCommand('claude-pre-compact'), timeout: 60 },
      ],
      meter: [{ event: 'Stop', command: hookCommand('claude-meter'), timeout: 10 }],
    },
    files: [{ file: '.claude/commands/handoff.md', template: 'claude-command.md' }],
  },
  { name: 'claude-md', title: 'CLAUDE.md readers', block: { file: 'CLAUDE.md' } },
  {
    name: 'codex',
    title: 'Codex CLI',
    // Codex 0.169 runs hooks in Claude Code's shape from the project's .codex/hooks.json.
    settings: {
      file: '.codex/hooks.json',
      hooks: [
        {
          event: 'SessionStart',
          matcher: 'startup|resume|compact',
          command: hookCommand('codex-session-start'),
          timeout: 30,
        },
        { event: 'PreCompact', command: hookCommand('codex-pre-compact'), timeout: 60 },
      ],
    },
    block: agentsMd,
    note: CODEX_TRUST,
    statusNote: CODEX_TRUST,
  },
  {
    name: 'opencode',
    title: 'OpenCode',
    block: agentsMd,
    // A project plugin: the resume prompt in every request, a handoff before compaction.
    files: [
      {
        file: '.opencode/plugin/git-handoff.js',
        template: 'opencode-plugin.js',
        hooks: ['opencode-session-start', 'opencode-pre-compact'],
      },
      { file: '.opencode/command/handoff.md', template: 'opencode-command.md' },
    ],
  },
  {
    name: 'pi',
    title: 'pi',
    block: agentsMd,
    // A project extension (pi 0.73 and 1.5, @mariozechner/ and @earendil-works/pi-coding-agent):
    // the resume prompt every turn, a handoff before compaction; a prompt template for /handoff.
    files: [
      {
        file: '.pi/extensions/git-handoff.ts',
        template: 'pi-extension.ts',
        hooks: ['pi-session-start', 'pi-pre-compact'],
      },
      { file: '.pi/prompts/handoff.md', template: 'pi-prompt.md' },
    ],
    note: PI_TRUST,
    statusNote: PI_TRUST,
  },
  {
    name: 'copilot',
    title: 'Copilot CLI',
    // sessionStart's top-level additionalContext reaches the model verbatim, but not after a
    // compaction; .github/copilot-instructions.md does, so it carries the pins too.
    block: { file: '.github/copilot-instructions.md', pins: true },
    files: [
      { file: '.github/hooks/git-handoff.json', text: copilotHooks },
      { file: '.github/skills/handoff/SKILL.md', template: 'copilot-skill.md' },
    ],
    note: COPILOT_TRUST,
    statusNote: COPILOT_TRUST,
  },
  {
    name: 'cline',
    title: 'Cline',
    // Cline's TaskStart output never reaches the model: the pins travel in a rules file
    // (TaskStart brings it up to date); its PreCompact never fires, so TaskComplete writes
    // the handoff for a compaction the task went through.
    block: { file: '.clinerules/git-handoff.md', pins: true },
    files: [
      { file: '.clinerules/hooks/TaskStart', text: clineHook('TaskStart', 'cline-task-start'), executable: true },
      {
        file: '.clinerules/hooks/TaskComplete',
        text: clineHook('TaskComplete', 'cline-task-complete'),
        executable: true,
      },
      { file: '.clinerules/workflows/handoff.md', template: 'cline-workflow.md' },
    ],
  },
  {
    name: 'kilo',
    title: 'Kilo',
    block: agentsMd,
    // OpenCode's plugin, which Kilo loads only from .kilo/plugin/.
    files: [
      {
        file: '.kilo/plugin/git-handoff.js',
        template: 'opencode-plugin.js',
        hooks: ['kilo-session-start', 'kilo-pre-compact'],
      },
      { file: '.kilo/command/handoff.md', template: 'opencode-command.md' },
    ],
  },
  {
    name: 'qwen',
    title: 'Qwen Code',
    settings: {
      file: '.qwen/settings.json',
      hooks: [
        {
          event: 'SessionStart',
          matcher: 'startup|resume|compact',
          command: hookCommand('qwen-session-start'),
          timeout: 30,
        },
        { event: 'PreCompact', command: hookCommand('qwen-pre-compact'), timeout: 60 },
      ],
    },
    // Qwen Code escapes < and > in hook context; QWEN.md reaches it as written.
    block: { file: 'QWEN.md', pins: true },
    files: [{ file: '.qwen/commands/handoff.toml', template: 'gemini-command.toml' }],
  },
  {
    name: 'gemini',
    title: 'Gemini CLI',
    settings: {
      file: '.gemini/settings.json',
      hooks: [
        // Milliseconds. Lifecycle matchers are exact strings in Gemini CLI, so none: every start.
        {
          event: 'SessionStart',
          name: 'handoff-resume',
          command: hookCommand('gemini-session-start'),
          timeout: 30_000,
        },
        {
          event: 'PreCompress',
          name: 'handoff-before-compress',
          command: hookCommand('gemini-pre-compress'),
          timeout: 60_000,
        },
      ],
    },
    block: { file: 'GEMINI.md', pins: true },
    files: [{ file: '.gemini/commands/handoff.toml', template: 'gemini-command.toml' }],
    note: 'Gemini CLI runs project hooks only where hooks are enabled for it; GEMINI.md works either way',
  },
];
