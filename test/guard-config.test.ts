// Paths and names in .handoff/config.yml come from a committed file: one with a newline
// would write its own line into .gitattributes, one under .git/ would write into git's files.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from './helpers.js';

describe('configured paths are validated', () => {
  it('a roadmap with a newline or control character, or under .git/, is refused with nothing written', () => {
    const hostile = [
      'roadmap: "ROADMAP.md\\n* filter=evil\\nx.md"',
      'roadmap: "ROAD\\u001b]0;t\\u0007MAP.md"',
      'roadmap: .git/ROADMAP.md',
      'roadmap: ./.git/hooks/x.md',
      'roadmap: docs/.GIT/x.md',
    ];
    for (const line of hostile) {
      const repo = makeRepo();
      repo.write('.handoff/config.yml', `${line}\n`);
      const gitBefore = readdirSync(path.join(repo.dir, '.git')).sort();
      for (const args of [['init'], ['roadmap']]) {
        const r = repo.handoff(args);
        expect(r.code, `${line}: ${args[0]}`).toBe(1);
        expect(r.stderr).toMatch(
          /^handoff: \.handoff\/config\.yml: roadmap must be a \.md path inside the repository, relative to its root, outside \.git\/ and on one line/,
        );
      }
      expect(existsSync(path.join(repo.dir, '.gitattributes')), line).toBe(false);
      expect(readdirSync(path.join(repo.dir, '.git')).sort(), line).toEqual(gitBefore);
    }
  });

  it('a default_branch with a control character or a leading dash is refused', () => {
    for (const line of ['default_branch: "main\\nmore"', 'default_branch: "--output=x"']) {
      const repo = makeRepo();
      repo.write('.handoff/config.yml', `${line}\n`);
      const r = repo.handoff(['list']);
      expect(r.code, line).toBe(1);
      expect(r.stderr).toContain('.handoff/config.yml: default_branch must be a branch name');
    }
  });

  it('a plain path still works', () => {
    const repo = makeRepo();
    repo.write('.handoff/config.yml', 'roadmap: docs/ROADMAP.md\n');
    expect(repo.handoff(['init']).code).toBe(0);
    expect(repo.read('.gitattributes')).toContain('docs/ROADMAP.md');
  });
});

describe('config.yml errors', () => {
  it('name the line of the file, call it YAML, and say the whole example on one line', () => {
    const repo = makeRepo();
    const cases: Array<[string, string]> = [
      ['resume_tokens: [oops\n', 'invalid YAML at line 1: Flow sequence'],
      [
        'draft_commits: 5\nresume_tokens: 100\ndefault_branch: main\nroadmap: [x\n',
        'invalid YAML at line 4: Flow sequence',
      ],
      ['llm: yes\n', 'llm must be a mapping, e.g. llm: { mode: auto }'],
      ['llm:\n  timeout: soon\n', 'llm.timeout is not valid; expected e.g. llm: { timeout: 60 }'],
    ];
    for (const [text, message] of cases) {
      repo.write('.handoff/config.yml', text);
      const r = repo.handoff(['list']);
      expect(r.code, text).toBe(1);
      expect(r.stderr, text).toMatch(
        new RegExp(`^handoff: \\.handoff/config\\.yml: ${message.replace(/[[\]{}.]/g, '\\$&')}.*\\n$`),
      );
    }
  });
});
