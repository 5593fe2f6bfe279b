// A summary harvested after its compaction's handoff was superseded goes where the live
// state is: the newest open successor of that handoff, in a real repository with the
// handoffs committed. A superseded handoff stays as it was written, and so does a closed one:
// when the chain ends in a handoff marked done, nothing is folded, with one warning line.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type Repo } from './helpers.js';

const FIXTURE = path.resolve(__dirname, 'fixtures/summaries/codex-0.169.0-compact.jsonl');
const PLACE = '/home/user/project';

const section = (body: string, title: string) => body.split(`## ${title}\n`)[1]?.split('\n## ')[0] ?? '';
const open = (repo: Repo) =>
  JSON.parse(repo.handoff(['list', '--json', '--status', 'open']).stdout).handoffs as Array<{
    id: string;
    file: string;
  }>;

/** Codex CLI's pre-compact hook on its session up to the compaction; returns the handoff it wrote and how to finish the session. */
function compacted(repo: Repo) {
  const lines = readFileSync(FIXTURE, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => l.split(PLACE).join(repo.dir));
  const at = lines.findIndex((l) => JSON.parse(l).type === 'compacted');
  const file = path.join(tempDir(), 'rollout.jsonl');
  writeFileSync(file, `${lines.slice(0, at).join('\n')}\n`);
  const input = { session_id: 'codex-sess-1', transcript_path: file, cwd: repo.dir };
  const pre = repo.handoff(['hook', 'codex-pre-compact'], {
    input: JSON.stringify({ ...input, hook_event_name: 'PreCompact', trigger: 'auto' }),
  });
  expect(pre.code, pre.stderr).toBe(0);
  const [written] = open(repo);
  repo.commit('the compaction handoff');
  return {
    written: written!,
    /** The agent writes its summary; its next session start harvests it. */
    start: () => {
      writeFileSync(file, `${lines.join('\n')}\n`);
      return repo.handoff(['hook', 'codex-session-start'], {
        input: JSON.stringify({ ...input, hook_event_name: 'SessionStart', source: 'compact' }),
      });
    },
  };
}

function setup(): Repo {
  const repo = makeRepo();
  repo.commit('teams model', { 'src/teams.ts': 'export const teams = new Map();\n', 'src/list.ts': '\n' });
  expect(repo.handoff(['init']).code).toBe(0);
  repo.commit('init');
  return repo;
}

describe('a summary harvested after its handoff was superseded', () => {
  it('is folded into the open handoff that superseded it; the superseded one stays as written', () => {
    const repo = setup();
    const { written, start } = compacted(repo);
    const next = repo.handoff(['new', 'wire the teams page into the router', '--no-edit']);
    expect(next.code, next.stderr).toBe(0);
    repo.commit('the next handoff');
    const [live] = open(repo);
    expect(live!.id).not.toBe(written.id);
    const superseded = repo.read(written.file);
    const r = start();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `handoff: folded Codex CLI's summary of session codex-sess-1 into ${live!.file} (${written.file}, written at the compaction, was superseded by it) (`,
    );
    expect(repo.read(written.file)).toBe(superseded);
    const body = repo.read(live!.file);
    const prov = '(summary of Codex CLI session codex-sess-1)';
    expect(section(body, 'Tried and abandoned')).toContain(`Fetching members per team on scroll — why:`);
    expect(section(body, 'Tried and abandoned')).toContain(prov);
    expect(section(body, 'Open questions')).toContain(`Should archived teams be listed? ${prov}`);
    expect(section(body, 'References')).toContain(`(written for ${written.file}, which this handoff superseded)`);
    // The goal of the live handoff is its own.
    expect(body).toContain('goal: "wire the teams page into the router"');
    // Once folded, it is not due any more.
    expect(start().stderr).not.toContain('folded');
    const changed = repo.git('status', '--porcelain', '--', '.handoff/handoffs');
    expect(changed.trim()).toBe(`M ${live!.file}`);
  });

  it('is not folded when the chain ends in a handoff marked done: a closed handoff stays as written', () => {
    const repo = setup();
    const { written, start } = compacted(repo);
    expect(repo.handoff(['new', 'wire the teams page into the router', '--no-edit']).code).toBe(0);
    const [live] = open(repo);
    expect(repo.handoff(['done', live!.id]).code).toBe(0);
    repo.commit('the next handoff, done');
    const r = start();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes('warning'))).toEqual([
      `handoff: warning: ${live!.file}, which superseded ${written.file}, is done; a closed handoff stays as it was written, so Codex CLI's summary of session codex-sess-1 was not folded in`,
    ]);
    expect(repo.git('status', '--porcelain', '--', '.handoff/')).toBe('');
  });
});
