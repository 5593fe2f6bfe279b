// OpenCode's storage, read-only: the SQLite database of current builds and the legacy
// JSON files under storage/{session,message,part}/.
// The database is read with node's built-in SQLite (node:sqlite, Node 22.13 and newer; no
// package to install), loaded only here and only when a database is read. Columns are
// looked up by name, because the schema moves between OpenCode versions. OpenCode keeps
// its database in WAL mode: right after a run everything is still in opencode.db-wal, so
// the WAL is folded into a copy in memory (wal.ts) and SQLite opens that copy from a
// private temporary file: the user's files are only ever read, and SQLite never looks
// for their -wal or -shm. node:sqlite cannot open bytes in memory on every Node that has it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HandoffError } from '../core/errors.js';
import type { OpenCodeMessage, OpenCodeSession } from './opencode.js';
import { foldWal } from './wal.js';

type Row = Record<string, unknown>;

/** What we use of node:sqlite (its types are not in the Node 20 typings this project compiles against). */
interface Database {
  prepare(sql: string): { all(...params: Array<string | number>): Row[] };
  close(): void;
}
interface Sqlite {
  DatabaseSync: new (file: string, options: { readOnly: boolean }) => Database;
}

export const SQLITE_NODE = '22.13';

/**
 * node:sqlite, or a clear refusal on a Node without it. Node releases that still call it
 * experimental print a warning when it loads: that one warning, and only while it loads,
 * is kept from the user's terminal (a hook's stderr reaches the agent).
 */
function loadSqlite(file: string): Sqlite {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && /SQLite/i.test(text)) return;
    return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  let sqlite: Sqlite | undefined;
  try {
    sqlite = process.getBuiltinModule('node:sqlite') as Sqlite | undefined;
  } finally {
    process.emitWarning = emit;
  }
  if (!sqlite?.DatabaseSync)
    throw new HandoffError(
      // Kilo, OpenCode's fork, writes the same database, and its content does not say which
      // of the two wrote it: the line names both.
      `${file}: reading an OpenCode or Kilo database needs Node ${SQLITE_NODE} or newer (node:sqlite); this is Node ${process.versions.node}. OpenCode's legacy JSON storage reads on any Node`,
    );
  return sqlite;
}

/**
 * Opens the bytes (ours to change: read into memory, never the user's file) read-only
 * from a file only we can read. Where the system allows it the
 * file is removed at once (SQLite keeps reading through its open descriptor); elsewhere
 * when the process exits.
 */
function openCopy(sqlite: Sqlite, bytes: Buffer): Database {
  // Rollback-journal mode on our copy: a WAL-mode header would have SQLite look for a -wal and a -shm.
  bytes[18] = 1;
  bytes[19] = 1;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'handoff-opencode-'));
  const copy = path.join(dir, 'opencode.db');
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    writeFileSync(copy, bytes, { mode: 0o600 });
    const db = new sqlite.DatabaseSync(copy, { readOnly: true });
    try {
      remove();
    } catch {
      process.once('exit', () => {
        db.close();
        remove();
      });
    }
    return db;
  } catch (error) {
    remove();
    throw error;
  }
}

function json(text: unknown): Record<string, unknown> {
  try {
    const v = JSON.parse(String(text ?? ''));
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function openCodeDbSessions(file: string): Promise<OpenCodeSession[]> {
  const sqlite = loadSqlite(file);
  const main = await readFile(file);
  const wal = await readFile(`${file}-wal`).catch(() => undefined);
  const db = openCopy(sqlite, wal && wal.length > 0 ? foldWal(main, wal) : main);
  const all = (sql: string, params: Array<string | number> = []): Row[] => db.prepare(sql).all(...params);
  let tables: Set<string>;
  try {
    tables = new Set(all("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => String(r.name)));
  } catch (error) {
    throw new HandoffError(
      `${file}: not a SQLite database SQLite can read (${error instanceof Error ? error.message : String(error)}); expected OpenCode's opencode.db`,
      { cause: error },
    );
  }
  if (!tables.has('session')) return [];
  const sessions = all('SELECT * FROM session');
  return sessions.map((s) => {
    const data = json(s.data);
    const id = String(s.id);
    const directory = (s.directory ?? data.directory) as string | undefined;
    const created = Number(s.time_created ?? (data.time as Row | undefined)?.created) || undefined;
    const updated = Number(s.time_updated ?? (data.time as Row | undefined)?.updated) || undefined;
    return {
      id,
      ...(directory ? { directory } : {}),
      ...(created ? { created } : {}),
      ...(updated ? { updated } : {}),
      // 1.18 keeps the session's todo list in its own table.
      ...(tables.has('todo')
        ? { todos: all('SELECT * FROM todo WHERE session_id = ?', [id]).map((t) => ({ ...json(t.data), ...t })) }
        : {}),
      messages: async function* (): AsyncGenerator<OpenCodeMessage> {
        for (const m of all('SELECT * FROM message WHERE session_id = ? ORDER BY time_created, id', [id])) {
          const parts = all('SELECT * FROM part WHERE message_id = ? ORDER BY id', [String(m.id)]).map((p) =>
            json(p.data),
          );
          yield { data: json(m.data), parts };
        }
      },
    };
  });
}

/** A legacy storage session file: storage/session/<project>/<id>.json. */
export async function openCodeJsonSession(file: string): Promise<OpenCodeSession> {
  const info = json(await readFile(file, 'utf8'));
  const storage = path.resolve(path.dirname(file), '..', '..');
  const id = String(info.id ?? path.basename(file, '.json'));
  const time = (info.time ?? {}) as Row;
  const list = async (dir: string) =>
    (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  return {
    id,
    ...(typeof info.directory === 'string' ? { directory: info.directory } : {}),
    ...(typeof time.created === 'number' ? { created: time.created } : {}),
    ...(typeof time.updated === 'number' ? { updated: time.updated } : {}),
    messages: async function* (): AsyncGenerator<OpenCodeMessage> {
      const dir = path.join(storage, 'message', id);
      for (const f of await list(dir)) {
        const data = json(await readFile(path.join(dir, f), 'utf8'));
        const partDir = path.join(storage, 'part', String(data.id ?? f.replace(/\.json$/, '')));
        const parts: Array<Record<string, unknown>> = [];
        for (const p of await list(partDir)) parts.push(json(await readFile(path.join(partDir, p), 'utf8')));
        yield { data, parts };
      }
    },
  };
}
