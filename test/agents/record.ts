// Turning what a real agent wrote into a test fixture: the scratch paths of the run are
// rewritten to /home/user (HOME) and /home/user/project (the repository), and the agents'
// install directory to the default one under /home/user/.cache; nothing else changes.
// OpenCode's and Kilo's databases are rewritten through node:sqlite (on a scratch copy) and
// saved in the shape OpenCode leaves its database in right after a run: a main file holding
// only its header page, and a WAL holding every page.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checksum, foldWal } from '../../src/transcripts/wal.js';
import { NEEDS_SQLITE, sqlite } from '../sqlite.js';
import { CACHE } from './harness.js';

export const FIXTURES = path.resolve(__dirname, '../fixtures/transcripts');

/** Where the agents were installed (their prompts name their own docs there), as a user's default cache. */
const INSTALLED = '/home/user/.cache/git-handoff-agents';

export function sanitize(text: string, home: string, repo: string, cache = CACHE): string {
  return text.split(repo).join('/home/user/project').split(home).join('/home/user').split(cache).join(INSTALLED);
}

/** The database's first page, marked for WAL mode as the agent's own file is. */
export function headerPage(db: Buffer): Buffer {
  const raw = db.readUInt16BE(16);
  const page = Buffer.from(db.subarray(0, raw === 1 ? 65536 : raw));
  page[18] = 2;
  page[19] = 2;
  return page;
}

/** A WAL (little-endian checksums) holding every page of db as one committed transaction. */
export function encodeWal(db: Buffer): Buffer {
  const raw = db.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const pages = db.length / pageSize;
  const header = Buffer.alloc(32);
  header.writeUInt32BE(0x377f0682, 0);
  header.writeUInt32BE(3007000, 4);
  header.writeUInt32BE(pageSize, 8);
  header.writeUInt32BE(0, 12);
  header.writeUInt32BE(0x1234abcd, 16);
  header.writeUInt32BE(0x5678ef01, 20);
  let [s0, s1] = checksum(header, 0, 24, 0, 0, false);
  header.writeUInt32BE(s0, 24);
  header.writeUInt32BE(s1, 28);
  const frames: Buffer[] = [header];
  for (let n = 1; n <= pages; n++) {
    const frame = Buffer.alloc(24 + pageSize);
    frame.writeUInt32BE(n, 0);
    frame.writeUInt32BE(n === pages ? pages : 0, 4);
    frame.writeUInt32BE(0x1234abcd, 8);
    frame.writeUInt32BE(0x5678ef01, 12);
    db.copy(frame, 24, (n - 1) * pageSize, n * pageSize);
    // WAL-mode read/write versions on page 1, as the agent's own file has them.
    if (n === 1) {
      frame[24 + 18] = 2;
      frame[24 + 19] = 2;
    }
    [s0, s1] = checksum(frame, 0, 8, s0, s1, false);
    [s0, s1] = checksum(frame, 24, 24 + pageSize, s0, s1, false);
    frame.writeUInt32BE(s0, 16);
    frame.writeUInt32BE(s1, 20);
    frames.push(frame);
  }
  return Buffer.concat(frames);
}

async function sanitizeDb(file: string, home: string, repo: string): Promise<Buffer> {
  if (!sqlite) throw new Error(`recording OpenCode's database ${NEEDS_SQLITE}`);
  let wal: Buffer | undefined;
  try {
    wal = readFileSync(`${file}-wal`);
  } catch {
    wal = undefined;
  }
  const main = readFileSync(file);
  const folded = wal ? foldWal(main, wal) : main;
  // Rollback-journal mode on the scratch copy, so SQLite writes no -wal beside it.
  folded[18] = 1;
  folded[19] = 1;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'record-opencode-'));
  try {
    const copy = path.join(scratch, 'opencode.db');
    writeFileSync(copy, folded);
    const db = new sqlite.DatabaseSync(copy);
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all()
      .map((r) => String(r.name));
    for (const table of tables) {
      const columns = db
        .prepare(`PRAGMA table_info("${table}")`)
        .all()
        .filter((r) => /TEXT|^$/i.test(String(r.type)))
        .map((r) => String(r.name));
      for (const c of columns)
        db.prepare(
          `UPDATE "${table}" SET "${c}" = replace(replace(replace("${c}", ?, '/home/user/project'), ?, '/home/user'), ?, '${INSTALLED}') WHERE typeof("${c}") = 'text'`,
        ).run(repo, home, CACHE);
    }
    db.exec('VACUUM');
    db.close();
    return readFileSync(copy);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Copies a run's transcript into test/fixtures/transcripts/<agent>/ under name; answers the written files. */
export async function recordFixture(
  agent: string,
  transcript: string,
  name: string,
  home: string,
  repo: string,
): Promise<string[]> {
  const dir = path.join(FIXTURES, agent);
  mkdirSync(dir, { recursive: true });
  // OpenCode's and Kilo's databases are SQLite; every other transcript is text.
  if (!transcript.endsWith('.db')) {
    const out = path.join(dir, name);
    writeFileSync(out, sanitize(readFileSync(transcript, 'utf8'), home, repo));
    // Cline's session metadata, which says where it ran, lives beside its messages.
    const meta = transcript.replace(/\.messages\.json$/, '.json');
    if (meta === transcript) return [out];
    const metaOut = out.replace(/\.messages\.json$/, '.json');
    writeFileSync(metaOut, sanitize(readFileSync(meta, 'utf8'), home, repo));
    return [out, metaOut];
  }
  const clean = await sanitizeDb(transcript, home, repo);
  const out = path.join(dir, name);
  // The main file as OpenCode leaves it right after a run: its header page alone (Kilo's has
  // pages checkpointed into it, paths included: the clean header page stands in), the rest in the WAL.
  writeFileSync(out, headerPage(clean));
  writeFileSync(`${out}-wal`, encodeWal(clean));
  return [out, `${out}-wal`];
}
