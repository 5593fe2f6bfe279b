// Which module runs each command of the table (command/spec.ts): loaded on first use, one
// module per command, except the three every session start and commit run, which are
// imported here so that they share the hot-path chunk (scripts/hot-path.js) instead of
// costing a dynamic import each.
import * as agentHook from '../agents/agent-hook.js';
import type { CommandModule, CommandName } from '../command/spec.js';
import * as gitHook from '../git-hooks/git-hook.js';
import * as resume from '../resume/resume.js';

export const LOADERS: Record<CommandName, () => Promise<CommandModule>> = {
  init: (): Promise<CommandModule> => import('../init/init.js'),
  new: (): Promise<CommandModule> => import('../handoff/new.js'),
  resume: async (): Promise<CommandModule> => resume,
  pin: (): Promise<CommandModule> => import('../pins/pin.js'),
  pins: (): Promise<CommandModule> => import('../pins/pins.js'),
  unpin: (): Promise<CommandModule> => import('../pins/unpin.js'),
  list: (): Promise<CommandModule> => import('../handoff/list.js'),
  show: (): Promise<CommandModule> => import('../handoff/show.js'),
  edit: (): Promise<CommandModule> => import('../handoff/edit.js'),
  done: (): Promise<CommandModule> => import('../handoff/done.js'),
  reopen: (): Promise<CommandModule> => import('../handoff/reopen.js'),
  migrate: (): Promise<CommandModule> => import('../handoff/migrate.js'),
  mcp: (): Promise<CommandModule> => import('../mcp/mcp.js'),
  sessions: (): Promise<CommandModule> => import('../transcripts/sessions.js'),
  meter: (): Promise<CommandModule> => import('../agents/meter.js'),
  agent: (): Promise<CommandModule> => import('../agents/agent.js'),
  hook: async (): Promise<CommandModule> => agentHook,
  roadmap: (): Promise<CommandModule> => import('../roadmap/roadmap.js'),
  hooks: (): Promise<CommandModule> => import('../git-hooks/hooks.js'),
  'git-hook': async (): Promise<CommandModule> => gitHook,
  'merge-driver': (): Promise<CommandModule> => import('../roadmap/merge-driver.js'),
  check: (): Promise<CommandModule> => import('../check/check.js'),
};
