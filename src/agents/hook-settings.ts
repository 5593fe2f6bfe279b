// Hooks in an agent's settings file (.claude/settings.json, .gemini/settings.json):
// `{"hooks": {"<Event>": [{"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}]}}`.
//
// The only importer of jsonc-parser. It edits the text in place (modify + applyEdits)
// rather than parse-and-restringify, so the user's key order, indentation, other hooks
// and any comments survive byte for byte outside the few lines we add or remove. Its
// ESM build is picked up through the package's "module" field by bundlers only; Node
// loads the UMD build, whose named exports Node's CJS detection finds.
import {
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type FormattingOptions,
  type ParseError,
} from 'jsonc-parser';
import { FileFormatError } from '../core/errors.js';

export interface HookEntry {
  event: string;
  matcher?: string;
  command: string;
  /** In the agent's unit (seconds for Claude Code, milliseconds for Gemini CLI). */
  timeout?: number;
  /** Gemini CLI shows hooks by name. */
  name?: string;
}

type Json = Record<string, unknown>;

function read(text: string, file: string): Json {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0]!;
    throw new FileFormatError(
      file,
      `not valid JSON (${printParseErrorCode(e.error)} at offset ${e.offset}); expected an object such as {"hooks": {}}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new FileFormatError(file, 'expected a JSON object such as {"hooks": {}}');
  const hooks = (value as Json).hooks;
  if (hooks !== undefined && (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))) {
    throw new FileFormatError(file, `"hooks" must be an object of event names, e.g. {"hooks": {"SessionStart": []}}`);
  }
  return value as Json;
}

function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/**
 * Inserts `value` at `path` and touches nothing else: jsonc-parser's own formatting
 * re-indents the whole line an edit starts on (and so the user's neighbouring entry), so
 * the edit is made compact and only the inserted text is laid out, in the file's indent.
 */
function insert(
  text: string,
  path: Array<string | number>,
  value: unknown,
  fmt: FormattingOptions,
  isArrayInsertion: boolean,
): string {
  const [edit] = modify(text, path, value, { isArrayInsertion });
  if (!edit) return text;
  const unit = fmt.insertSpaces ? ' '.repeat(fmt.tabSize ?? 2) : '\t';
  const eol = fmt.eol ?? '\n';
  const depth = path.length; // a top-level key sits one indent in
  const pad = unit.repeat(depth);
  const lead = edit.content.startsWith(',') ? ',' : '';
  const key = isArrayInsertion ? '' : `${JSON.stringify(path[path.length - 1])}: `;
  const laid = JSON.stringify(value, null, unit).split('\n').join(`${eol}${pad}`);
  // Into an empty container the closing bracket needs its own line; otherwise the text after the edit has it.
  const close = lead === '' ? `${eol}${unit.repeat(depth - 1)}` : '';
  const before = text.slice(0, edit.offset);
  const after = text.slice(edit.offset + edit.length);
  const trimmed = lead === '' ? after.replace(/^[ \t\r\n]*/, '') : after;
  return `${before}${lead}${eol}${pad}${key}${laid}${close}${trimmed}`;
}

/** Removes the member at `path` with its separator, and nothing of its neighbours. */
function remove(text: string, path: Array<string | number>): string {
  const root = parseTree(text);
  const node = root && findNodeAtLocation(root, path);
  if (!node?.parent) return text;
  const member = node.parent.type === 'property' ? node.parent : node;
  const container = member.parent!;
  const siblings = container.children ?? [];
  const i = siblings.indexOf(member);
  const end = (n: { offset: number; length: number }) => n.offset + n.length;
  // The only member: the container becomes empty. Otherwise take the comma on one side.
  if (siblings.length === 1) return `${text.slice(0, container.offset + 1)}${text.slice(end(container) - 1)}`;
  if (i > 0) return `${text.slice(0, end(siblings[i - 1]!))}${text.slice(end(member))}`;
  return `${text.slice(0, member.offset)}${text.slice(siblings[1]!.offset)}`;
}

const groups = (settings: Json, event: string): unknown[] => {
  const list = (settings.hooks as Json | undefined)?.[event];
  return Array.isArray(list) ? list : [];
};

const commandsOf = (group: unknown): unknown[] => {
  const hooks = (group as Json | null)?.hooks;
  return Array.isArray(hooks) ? hooks : [];
};

/** The hook object addHooks writes for an entry, in the order it writes its keys. */
export function hookObject(entry: HookEntry): Json {
  return {
    ...(entry.name ? { name: entry.name } : {}),
    type: 'command',
    command: entry.command,
    ...(entry.timeout ? { timeout: entry.timeout } : {}),
  };
}

export interface FoundHook {
  event: string;
  /** The matcher of the group that holds the hook (undefined when it has none). */
  matcher: unknown;
  hook: Json;
}

/** Every command hook in the file, with its event and its group's matcher. */
export function listHooks(text: string | undefined, file: string): FoundHook[] {
  const settings = read(text ?? '', file);
  const hooks = (settings.hooks as Json | undefined) ?? {};
  return Object.entries(hooks).flatMap(([event, list]) =>
    (Array.isArray(list) ? list : []).flatMap((g) =>
      commandsOf(g)
        .filter((h): h is Json => typeof (h as Json | null)?.command === 'string')
        .map((hook) => ({ event, matcher: (g as Json).matcher, hook })),
    ),
  );
}

/**
 * Puts `entry` in place of the hook at `path` (and its group's matcher), laid out in the
 * file's indent from the line the old one starts on, so the rest of the file stays as it was.
 * Null when the matcher cannot be set in place (the group has none, or has one and the entry none).
 */
function replaceAt(
  text: string,
  path: Array<string | number>,
  entry: HookEntry,
  fmt: FormattingOptions,
): string | null {
  const root = parseTree(text);
  const node = root && findNodeAtLocation(root, path);
  if (!root || !node) return null;
  const matcherPath = path.slice(0, -2).concat('matcher');
  const matcher = findNodeAtLocation(root, matcherPath);
  if ((matcher === undefined) !== (entry.matcher === undefined)) return null;
  const unit = fmt.insertSpaces ? ' '.repeat(fmt.tabSize ?? 2) : '\t';
  const eol = fmt.eol ?? '\n';
  const lineStart = text.lastIndexOf('\n', node.offset) + 1;
  const pad = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const multiLine = text.slice(node.offset, node.offset + node.length).includes('\n');
  const laid = multiLine
    ? JSON.stringify(hookObject(entry), null, unit).split('\n').join(`${eol}${pad}`)
    : `{ ${Object.entries(hookObject(entry))
        .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
        .join(', ')} }`;
  let out = text.slice(0, node.offset) + laid + text.slice(node.offset + node.length);
  if (matcher && entry.matcher !== undefined && matcher.value !== entry.matcher) {
    // The matcher comes before the hooks in the group, so its offset is still good.
    out = out.slice(0, matcher.offset) + JSON.stringify(entry.matcher) + out.slice(matcher.offset + matcher.length);
  }
  return out;
}

/**
 * Each hook `choose` maps to an entry is replaced by that entry where it stands; the rest
 * are left as they are. Returns how many were replaced; one that cannot be replaced in place
 * is left for the caller to remove and add.
 */
export function replaceHooks(
  text: string,
  choose: (found: FoundHook) => HookEntry | undefined,
  file: string,
): { text: string; replaced: number; left: FoundHook[] } {
  let out = text;
  let replaced = 0;
  const left: FoundHook[] = [];
  const fmt = formatting(text);
  const settings = read(text, file);
  const hooks = (settings.hooks as Json | undefined) ?? {};
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    list.forEach((group, g) => {
      commandsOf(group).forEach((hook, i) => {
        if (typeof (hook as Json | null)?.command !== 'string') return;
        const found = { event, matcher: (group as Json).matcher, hook: hook as Json };
        const entry = choose(found);
        if (!entry) return;
        const next = entry.event === event ? replaceAt(out, ['hooks', event, g, 'hooks', i], entry, fmt) : null;
        if (next === null) left.push(found);
        else {
          out = next;
          replaced += 1;
        }
      });
    });
  }
  return { text: out, replaced, left };
}

/** Commands of every hook under `event`. */
export function installedCommands(text: string | undefined, event: string, file: string): string[] {
  const settings = read(text ?? '', file);
  return groups(settings, event).flatMap((g) =>
    commandsOf(g)
      .map((h) => (h as Json | null)?.command)
      .filter((c): c is string => typeof c === 'string'),
  );
}

export function addHooks(
  text: string | undefined,
  entries: readonly HookEntry[],
  file: string,
): { text: string; added: HookEntry[] } {
  let out = text === undefined || text.trim() === '' ? '{}\n' : text;
  const fmt = formatting(out);
  const added: HookEntry[] = [];
  for (const entry of entries) {
    const settings = read(out, file);
    if (installedCommands(out, entry.event, file).includes(entry.command)) continue;
    const hook = hookObject(entry);
    const group = { ...(entry.matcher ? { matcher: entry.matcher } : {}), hooks: [hook] };
    const list = (settings.hooks as Json | undefined)?.[entry.event];
    if (list !== undefined && !Array.isArray(list))
      throw new FileFormatError(file, `"hooks"."${entry.event}" must be a list of hook groups`);
    if (settings.hooks === undefined) out = insert(out, ['hooks'], { [entry.event]: [group] }, fmt, false);
    else if (list === undefined) out = insert(out, ['hooks', entry.event], [group], fmt, false);
    else out = insert(out, ['hooks', entry.event, -1], group, fmt, true);
    added.push(entry);
  }
  return { text: out, added };
}

/** Removes exactly the hooks whose command `isOurs` accepts, and the containers that held only them. */
export function removeHooks(
  text: string,
  isOurs: (command: string, found: FoundHook) => boolean,
  file: string,
): { text: string; removed: string[] } {
  let out = text;
  const removed: string[] = [];
  for (;;) {
    const settings = read(out, file);
    const hooks = (settings.hooks as Json | undefined) ?? {};
    let path: Array<string | number> | null = null;
    for (const [event, list] of Object.entries(hooks)) {
      if (!Array.isArray(list)) continue;
      list.forEach((group, g) => {
        const inner = commandsOf(group);
        const ours = (h: unknown) =>
          typeof (h as Json | null)?.command === 'string' &&
          isOurs((h as Json).command as string, { event, matcher: (group as Json | null)?.matcher, hook: h as Json });
        const i = inner.findIndex(ours);
        if (path || i === -1) return;
        removed.push((inner[i] as Json).command as string);
        const onlyOurs = inner.every(ours) && inner.length === 1;
        path = onlyOurs
          ? list.length === 1
            ? ['hooks', event]
            : ['hooks', event, g]
          : ['hooks', event, g, 'hooks', i];
      });
      if (path) break;
    }
    if (!path) break;
    out = remove(out, path);
    const after = read(out, file).hooks;
    if (after && typeof after === 'object' && Object.keys(after).length === 0 && removed.length > 0) {
      out = remove(out, ['hooks']);
    }
  }
  // What is left of a file that held only our hooks reads as it was before: `{}`.
  if (removed.length > 0 && /^\{\s*\}\s*$/.test(out)) out = `{}${out.includes('\r\n') ? '\r\n' : '\n'}`;
  return { text: out, removed };
}
