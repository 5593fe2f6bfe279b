// `handoff new --from <transcript> --llm`: the transcript reaches the model request, and
// the model's claims are checked against it (user quotes, passing commands, paths).
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { assistantText, result, tool, user } from './claude-lines.js';
import { makeRepo, tempDir } from './helpers.js';
import { runHandoffAsync, startModelServer, type ModelServer, type Reply } from './model-server.js';

const servers: ModelServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

const item = (text: string, extra: Record<string, unknown> = {}) => ({
  text,
  why: '',
  files: [],
  quotes: [],
  commands_passed: [],
  ...extra,
});
const answer = (parts: Record<string, unknown>) =>
  JSON.stringify({
    completed: [],
    in_progress: [],
    next_steps: [],
    open_questions: [],
    decisions: [],
    pin_candidates: [],
    ...parts,
  });

async function setup(script: Reply[]) {
  const server = await startModelServer(script);
  servers.push(server);
  const repo = makeRepo();
  repo.git('config', 'handoff.baseUrl', server.url);
  repo.write('.handoff/config.yml', `llm:\n  model: test-model\n  retries: 0\n  timeout: 5\n`);
  repo.write('src/teams.ts', 'export const teams = 2;\n');
  const e = { cwd: repo.dir };
  const transcript = path.join(tempDir(), 'session.jsonl');
  const lines = [
    user(e, 'Build the teams page. Never touch src/auth/session.ts.'),
    tool(e, 'Edit', { file_path: path.join(repo.dir, 'src/teams.ts'), old_string: '1', new_string: '2' }, 't1'),
    result(e, 't1', false),
    tool(e, 'Bash', { command: 'npm test' }, 't2'),
    result(e, 't2', false),
    assistantText(e, 'We will keep teams flat instead of nesting them because the API has no tree endpoints.'),
  ];
  writeFileSync(transcript, `${lines.join('\n')}\n`);
  return { server, repo, transcript };
}

describe('handoff new --from <transcript> --llm', () => {
  it('sends the user words and the extraction, and verifies quotes and passing commands against them', async () => {
    const { server, repo, transcript } = await setup([
      {
        content: answer({
          decisions: [
            item('Teams stay flat', {
              quotes: ['Never touch src/auth/session.ts.'],
              commands_passed: ['npm test'],
              files: ['src/teams.ts'],
            }),
          ],
          next_steps: [item('Invented', { quotes: ['please add nested teams'] })],
        }),
      },
    ]);
    const run = await runHandoffAsync(repo.dir, [
      'new',
      'finish the teams page',
      '--from',
      transcript,
      '--llm',
      '--no-edit',
    ]);
    expect(run.code).toBe(0);
    const sent = server.requests[0]!.text;
    expect(sent).toContain('Build the teams page. Never touch src/auth/session.ts.');
    expect(sent).toContain('npm test -> passed');
    const text = repo.read(run.stdout.trim());
    expect(text).toMatch(/- D\d+: Teams stay flat[^\n]*\n/);
    expect(text).not.toMatch(/Teams stay flat[^\n]*unverified/);
    expect(text).toMatch(
      /Invented[^\n]*\*\*\[unverified: the quote "please add nested teams" is not in the user's messages/,
    );
  });

  it('--dry-run --from prints the request with the transcript part and sends nothing', async () => {
    const { server, repo, transcript } = await setup([]);
    const run = await runHandoffAsync(repo.dir, [
      'new',
      'finish the teams page',
      '--from',
      transcript,
      '--llm',
      '--dry-run',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Never touch src/auth/session.ts.');
    expect(run.stdout).toContain('keep teams flat instead of nesting them');
    expect(server.requests).toHaveLength(0);
    expect(repo.files('.handoff/handoffs')).toEqual([]);
  });
});
