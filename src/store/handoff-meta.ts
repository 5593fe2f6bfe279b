// A handoff's front-matter as data: its keys, their kinds, and the check that a parsed
// front-matter holds them (validateMeta). Pure, and free of the YAML library, so that a
// front-matter read without it (plain-front-matter.ts) is checked by the same rules.
import { FileFormatError } from '../core/errors.js';
import { isId } from './id.js';
import { repoPathProblem } from '../security/paths.js';

export const STATUSES = ['open', 'done', 'superseded'] as const;
export type Status = (typeof STATUSES)[number];

export const CHANGE_KINDS = ['added', 'modified', 'deleted', 'renamed', 'copied', 'type-changed'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
export const FILE_STATES = ['committed', 'staged', 'unstaged', 'untracked'] as const;
export type FileState = (typeof FILE_STATES)[number];

export interface FileChange {
  path: string;
  change: ChangeKind;
  /** The old path of a rename or copy. */
  from?: string;
  insertions?: number;
  deletions?: number;
  binary?: boolean;
  /** An untracked directory listed as one entry (path ends in `/`): how many files it holds. */
  files?: number;
  state: FileState;
}

export interface HandoffMeta {
  id: string;
  /** The chain's goal: the user's request, in their words. */
  goal: string;
  /** What this step was for, when it is not the goal itself (a handoff written at an agent's compaction). */
  step?: string;
  status: Status;
  created: string;
  author: string;
  branch: string | null;
  base: string | null;
  head: string | null;
  parent: string | null;
  superseded_by?: string;
  finished?: string;
  /** The commit that brought the handoff's branch into the default branch, when that closed it. */
  landed?: string;
  files: FileChange[];
}

export function validateMeta(data: Record<string, unknown>, file: string): HandoffMeta {
  const need = (key: string, ok: boolean, expected: string) => {
    if (!ok) {
      const found = key in data ? `found ${JSON.stringify(data[key])?.slice(0, 60)}` : 'it is missing';
      throw new FileFormatError(file, `front-matter '${key}' must be ${expected}; ${found}`);
    }
  };
  need('id', isId(data.id), 'a 26-character handoff id, e.g. id: "01jx7k2m9q8r4s5t6v7w8x9y0z"');
  need('goal', typeof data.goal === 'string', 'the goal text, e.g. goal: "add team billing"');
  need('status', STATUSES.includes(data.status as Status), `one of ${STATUSES.join(', ')}`);
  need('created', typeof data.created === 'string', 'an ISO time in quotes, e.g. created: "2026-01-05T10:00:00.000Z"');
  need('step', data.step === undefined || typeof data.step === 'string', 'a text, e.g. step: "focus on the form"');
  for (const key of ['author', 'branch', 'base', 'head', 'parent', 'superseded_by', 'finished', 'landed']) {
    need(key, data[key] === undefined || data[key] === null || typeof data[key] === 'string', 'a string or null');
  }
  // Commit hashes reach git's command line: anything but hex (say "--output=x") is refused.
  for (const key of ['base', 'head', 'landed']) {
    need(
      key,
      data[key] === undefined ||
        data[key] === null ||
        (typeof data[key] === 'string' && /^[0-9a-f]{7,64}$/.test(data[key])),
      'a commit hash or null',
    );
  }
  need('parent', data.parent === undefined || data.parent === null || isId(data.parent), 'a handoff id or null');
  const files = data.files ?? [];
  need('files', Array.isArray(files), 'a list of files');
  return {
    id: data.id as string,
    goal: data.goal as string,
    ...(typeof data.step === 'string' ? { step: data.step } : {}),
    status: data.status as Status,
    created: data.created as string,
    author: (data.author as string | undefined) ?? '',
    branch: (data.branch as string | null | undefined) ?? null,
    base: (data.base as string | null | undefined) ?? null,
    head: (data.head as string | null | undefined) ?? null,
    parent: (data.parent as string | null | undefined) ?? null,
    ...(typeof data.superseded_by === 'string' ? { superseded_by: data.superseded_by } : {}),
    ...(typeof data.finished === 'string' ? { finished: data.finished } : {}),
    ...(typeof data.landed === 'string' ? { landed: data.landed } : {}),
    files: (files as unknown[]).map((f, i) => validateFile(f, i, file)),
  };
}

function validateFile(value: unknown, index: number, file: string): FileChange {
  const f = (value ?? {}) as Record<string, unknown>;
  const where = `files[${index}]`;
  if (typeof value !== 'object' || value === null || typeof f.path !== 'string' || f.path === '') {
    throw new FileFormatError(file, `${where} must have a path, e.g. - path: "src/app.ts"`);
  }
  for (const key of ['path', 'from'] as const) {
    const problem = typeof f[key] === 'string' ? repoPathProblem(f[key]) : undefined;
    if (problem)
      throw new FileFormatError(file, `${where}.${key} ${problem}; found ${JSON.stringify(f[key]).slice(0, 80)}`);
  }
  if (!CHANGE_KINDS.includes(f.change as ChangeKind)) {
    throw new FileFormatError(file, `${where}.change must be one of ${CHANGE_KINDS.join(', ')}`);
  }
  if (!FILE_STATES.includes(f.state as FileState)) {
    throw new FileFormatError(file, `${where}.state must be one of ${FILE_STATES.join(', ')}`);
  }
  const count = (key: 'insertions' | 'deletions') => {
    const n = f[key];
    if (n === undefined || n === null) return {};
    if (!Number.isInteger(n) || (n as number) < 0)
      throw new FileFormatError(file, `${where}.${key} must be a whole number`);
    return { [key]: n as number };
  };
  if (
    f.files !== undefined &&
    f.files !== null &&
    (!Number.isInteger(f.files) || (f.files as number) < 1 || !f.path.endsWith('/'))
  ) {
    throw new FileFormatError(
      file,
      `${where}.files must be a whole number of files under a directory path ending in '/', e.g. path: "node_modules/" with files: 3000`,
    );
  }
  return {
    path: f.path,
    change: f.change as ChangeKind,
    ...(typeof f.from === 'string' ? { from: f.from } : {}),
    ...count('insertions'),
    ...count('deletions'),
    ...(f.binary === true ? { binary: true } : {}),
    ...(typeof f.files === 'number' ? { files: f.files } : {}),
    state: f.state as FileState,
  };
}
