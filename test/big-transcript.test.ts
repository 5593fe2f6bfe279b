// A 200 MB Claude Code session: drafting streams it with flat memory. Slow (it writes
// 200 MB), so it runs only with HANDOFF_SLOW_TESTS=1; bench/transcript.js measures speed.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assistantText, result, tool, user } from './claude-lines.js';
import { BIN, gitEnv, makeRepo, tempDir } from './helpers.js';

describe.runIf(process.env.HANDOFF_SLOW_TESTS === '1')('a 200 MB transcript', () => {
  it('drafts from it with peak RSS under 250 MB', () => {
    const repo = makeRepo();
    const e = { cwd: repo.dir };
    const file = path.join(tempDir(), 'big.jsonl');
    const fd = openSync(file, 'w');
    const output = 'x'.repeat(8000);
    let written = 0;
    for (let i = 0; written < 200 * 1024 * 1024; i++) {
      const chunk =
        [
          user(e, `Step ${i}. Never rename the module ${i % 10}.`),
          assistantText(e, `Working on step ${i}.`, 50_000 + i),
          tool(e, 'Bash', { command: 'npm test' }, `t${i}`),
          result(e, `t${i}`, i % 2 === 0, output),
        ].join('\n') + '\n';
      written += writeSync(fd, chunk);
    }
    closeSync(fd);
    const hook = `data:text/javascript,process.on('exit',()=>process.stderr.write('MAXRSS '+process.resourceUsage().maxRSS+'\\n'))`;
    const r = spawnSync(process.execPath, ['--import', hook, BIN, 'new', 'g', '--from', file, '--no-edit'], {
      cwd: repo.dir,
      env: gitEnv(),
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const rssMb = Number(/MAXRSS (\d+)/.exec(r.stderr)![1]) / 1024;
    expect(rssMb).toBeLessThan(250);
    const body = repo.read(`.handoff/handoffs/${repo.files('.handoff/handoffs')[0]}`);
    expect(body).toContain('- `npm test`:');
  }, 300_000);
});
