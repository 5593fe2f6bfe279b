// node:sqlite for the tests that build or rewrite an OpenCode database: Node 22.13 and
// newer have it; on an older Node those tests skip, saying so, and the refusal is tested.
// (Its types are not in the Node 20 typings the project compiles against: the part used.)
import { SQLITE_NODE } from '../src/transcripts/opencode-db.js';

export interface TestDatabase {
  exec(sql: string): void;
  prepare(sql: string): {
    run(...params: Array<string | number | null>): unknown;
    all(...params: Array<string | number | null>): Array<Record<string, unknown>>;
  };
  close(): void;
}

export const sqlite = process.getBuiltinModule('node:sqlite') as
  | { DatabaseSync: new (file: string) => TestDatabase }
  | undefined;

export const NEEDS_SQLITE = `needs node:sqlite (Node ${SQLITE_NODE} or newer; this is Node ${process.versions.node})`;
