// OpenCode's storage, read-only: the SQLite database of current builds and the legacy
// JSON files under storage/{session,message,part}/.
// The only importer of sql.js: SQLite compiled to WebAssembly, shipped inside the npm
// package (no native build, no download at install). Loaded lazily (~1.5 MB of wasm).
// It reads the whole database file into memory (JSONL transcripts, by contrast, are
// streamed line by line). Columns are looked up by name, because the schema
// moves between OpenCode versions. OpenCode keeps its database in WAL mode: right after a
// run everything is still in opencode.db-wal, so the WAL is folded into the in-memory copy
// (wal.ts); the user's files are only ever read.
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { OpenCodeMessage, OpenCodeSession } from './opencode.js';
import { foldWal } from './wal.js';

type Row = Record<string, unknown>;

function json(text: unknown): Record<string, unknown> {
  try {
    const v = JSON.parse(String(text ?? ''));
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function openCodeDbSessions(file: string): Promise<OpenCodeSession[]> {
  const { default: initSqlJs } = await import('sql.js');
  const require = createRequire(import.meta.url);
  const wasm = path.join(path.dirname(require.resolve('sql.js')), 'sql-wasm.wasm');
  const SQL = await initSqlJs({ wasmBinary: (await readFile(wasm)) as unknown as ArrayBuffer });
  const main = await readFile(file);
  const wal = await readFile(`${file}-wal`).catch(() => undefined);
  const db = new SQL.Database(wal && wal.length > 0 ? foldWal(main, wal) : main);
  const all = (sql: string, params: Array<string | number> = []): Row[] => {
    const stmt = db.prepare(sql);
    stmt.bind(params);
    const rows: Row[] = [];
    while (stmt.step()) rows.push(stmt.getAsObject() as Row);
    stmt.free();
    return rows;
  };
  const tables = new Set(all("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => String(r.name)));
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
