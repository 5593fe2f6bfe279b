// What `handoff agent install <agent>` writes, and whether what is there now is exactly
// that: pure, given the files' current text, the templates and the block's content. Install
// writes the plan; `agent status` verifies against it byte for byte; `check --base` can call
// `installWrites` on a pull request's files to flag an edit to ours (a command appended to our
// SessionStart hook, a changed plugin), since any such edit is a write install would undo.
import type { AgentSpec, OwnedFile } from './agents.js';
import { hookCommand, hookNameOf, isOurCommand } from './hook-command.js';
import {
  addHooks,
  hookObject,
  listHooks,
  removeHooks,
  replaceHooks,
  type FoundHook,
  type HookEntry,
} from './hook-settings.js';
import { hasBlock, upsertBlock } from './marked-block.js';

export interface PlanInput {
  /** The current text of a repository-relative file; undefined when there is none. */
  read: (file: string) => string | undefined;
  /** A template's text, from templates/. */
  template: (name: string) => string;
  /** The instruction block's content, with the active pins when `withPins`. */
  block: (withPins: boolean) => string;
  /** Whether the opt-in meter hook is wanted (it is kept when present either way). */
  meter: boolean;
}

export interface PlannedWrite {
  file: string;
  kind: 'hooks' | 'block' | 'file';
  before: string | undefined;
  after: string;
  /** What changes, for the one line install prints ('' when nothing does). */
  change: string;
  note?: string;
}

/** The line of a plugin template that install fills with the commands of its hooks. */
const COMMANDS_LINE = /^const COMMANDS(: Record<string, string>)? = \{\};$/m;

/** A file that is ours whole, as install writes it. */
export function ownedText(owned: OwnedFile, template: string): string {
  if (owned.text) return owned.text();
  if (!owned.hooks) return template;
  const commands = Object.fromEntries(owned.hooks.map((h) => [h, hookCommand(h)]));
  return template.replace(COMMANDS_LINE, (line) => line.replace('{}', JSON.stringify(commands, null, 2)));
}

/** Files we own carry our name on their first lines; a file without it is the user's. */
export const isOurFile = (text: string) =>
  text
    .split('\n')
    .slice(0, 3)
    .some((l) => l.includes('git-handoff')) || text.includes('"bash": "handoff_hook=');

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

/** Is this hook in the file exactly one install writes (command, timeout, name, matcher)? */
function exact(found: FoundHook, entries: readonly HookEntry[]): boolean {
  return entries.some(
    (e) =>
      e.event === found.event &&
      (e.matcher ?? undefined) === (found.matcher ?? undefined) &&
      canonical(hookObject(e)) === canonical(found.hook),
  );
}

const settingsEntries = (agent: AgentSpec, meter: boolean): HookEntry[] =>
  agent.settings ? [...agent.settings.hooks, ...(meter ? (agent.settings.meter ?? []) : [])] : [];

/** Every file install would write for `agent`, before and after; throws FileFormatError on a file it cannot edit. */
export function installWrites(agent: AgentSpec, input: PlanInput): PlannedWrite[] {
  const writes: PlannedWrite[] = [];
  if (agent.settings) {
    const file = agent.settings.file;
    const before = input.read(file);
    const all = settingsEntries(agent, true);
    // A hook of ours that is not exactly what we write (tampered with, or from an older
    // version) is put right where it stands, or taken out, so the one we add is not a
    // second beside it.
    const fixed =
      before === undefined
        ? { text: undefined, replaced: 0 }
        : replaceHooks(
            before,
            (f) =>
              isOurCommand(f.hook.command as string) && !exact(f, all)
                ? all.find((e) => e.event === f.event && hookNameOf(e.command) === hookNameOf(f.hook.command as string))
                : undefined,
            file,
          );
    const stale =
      fixed.text === undefined
        ? { text: undefined, removed: [] as string[] }
        : removeHooks(fixed.text, (command, found) => isOurCommand(command) && !exact(found, all), file);
    const present = (e: HookEntry) =>
      listHooks(stale.text, file).some((f) => f.event === e.event && f.hook.command === e.command);
    const wanted = settingsEntries(agent, input.meter || (agent.settings.meter ?? []).some(present));
    const { text, added } = addHooks(stale.text, wanted, file);
    const parts: string[] = [];
    const changed = fixed.replaced + stale.removed.length;
    if (changed > 0)
      parts.push(`replaced ${changed} hook${changed === 1 ? '' : 's'} that differed from what install writes`);
    if (added.length > stale.removed.length)
      parts.push(`added the ${added.map((h) => h.event).join(', ')} hook${added.length === 1 ? '' : 's'}`);
    writes.push({ file, kind: 'hooks', before, after: text, change: text === before ? '' : parts.join('; ') });
  }
  if (agent.block) {
    const file = agent.block.file;
    const before = input.read(file);
    const result = upsertBlock(before, input.block(agent.block.pins === true), file, agent.block.limitBytes);
    writes.push({
      file,
      kind: 'block',
      before,
      after: result.text,
      change: result.action === 'unchanged' ? '' : `${result.action} the handoff block`,
      ...(result.note ? { note: result.note } : {}),
    });
  }
  for (const owned of agent.files ?? []) {
    const before = input.read(owned.file);
    const after = ownedText(owned, input.template(owned.template ?? ''));
    writes.push({
      file: owned.file,
      kind: 'file',
      before,
      after,
      change: before === after ? '' : before === undefined ? 'added' : 'updated',
    });
  }
  return writes;
}

export interface Verified {
  file: string;
  kind: 'hooks' | 'block' | 'file';
  /** installed: exactly what install writes; modified: ours, but different (edited, or an older version). */
  state: 'installed' | 'missing' | 'partly installed' | 'modified';
  /** Hooks: the events installed exactly; and the ones that differ. */
  installed: string[];
  modified: string[];
  missing: string[];
}

/** What of `agent`'s integration is in place now, compared byte for byte with what install writes. */
export function verifyAgent(agent: AgentSpec, input: PlanInput): Verified[] {
  const out: Verified[] = [];
  if (agent.settings) {
    const file = agent.settings.file;
    const ours = listHooks(input.read(file), file).filter((f) => isOurCommand(f.hook.command as string));
    const all = settingsEntries(agent, true);
    const installed = ours.filter((f) => exact(f, all)).map((f) => f.event);
    const modified = ours.filter((f) => !exact(f, all)).map((f) => f.event);
    // The opt-in meter hook is not "missing" when it was never asked for.
    const missing = agent.settings.hooks.map((h) => h.event).filter((e) => !installed.includes(e));
    const state =
      modified.length > 0
        ? 'modified'
        : missing.length === 0
          ? 'installed'
          : installed.length === 0
            ? 'missing'
            : 'partly installed';
    out.push({
      file,
      kind: 'hooks',
      state,
      installed,
      modified,
      missing: missing.filter((e) => !modified.includes(e)),
    });
  }
  for (const owned of agent.files ?? []) {
    const text = input.read(owned.file);
    const want = ownedText(owned, input.template(owned.template ?? ''));
    const state = text === want ? 'installed' : text !== undefined && isOurFile(text) ? 'modified' : 'missing';
    out.push({ file: owned.file, kind: 'file', state, installed: [], modified: [], missing: [] });
  }
  if (agent.block) {
    const file = agent.block.file;
    const text = input.read(file);
    const current =
      hasBlock(text, file) &&
      upsertBlock(text, input.block(agent.block.pins === true), file, agent.block.limitBytes).action === 'unchanged';
    const state = current ? 'installed' : hasBlock(text, file) ? 'modified' : 'missing';
    out.push({ file, kind: 'block', state, installed: [], modified: [], missing: [] });
  }
  return out;
}
