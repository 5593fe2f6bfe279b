// What `handoff agent install <agent>` puts where, per agent. Hooks where the agent has
// them (Claude Code, Gemini CLI); otherwise a marked block in the instruction file the
// agent reads at the start of a session (AGENTS.md for Codex CLI, OpenCode and pi).
import { hookCommand } from './hook-command.js';
import type { HookEntry } from './hook-settings.js';
import { CODEX_DOC_LIMIT } from './marked-block.js';

export interface OwnedFile {
  file: string;
  template: string;
  hooks?: string[];
}

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
    // A project extension (loaded without approval): the resume prompt every turn, a handoff before compaction.
    files: [
      {
        file: '.pi/extensions/git-handoff.ts',
        template: 'pi-extension.ts',
        hooks: ['pi-session-start', 'pi-pre-compact'],
      },
    ],
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
