// `handoff agent install | uninstall | status`: settings merges and marked blocks, with
// the user's own content kept byte for byte.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from './helpers.js';
import { hookCommand } from '../src/agents/hook-command.js';

const RECORDED =
  "handoff: recorded the CLI in this clone's git config (handoff.node, handoff.bin) for the agents' hook command\n";
const FORGOTTEN = "handoff: removed handoff.node and handoff.bin from this clone's git config\n";

// Existing project settings with other hooks, permissions and (JSONC) comments.
const CLAUDE_SETTINGS = `{
  // team settings
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup",
        "hooks": [{ "type": "command", "command": "echo hello" }]
      }
    ],
    "PostToolUse": [
      { "matcher": "Write|Edit", "hooks": [{ "type": "command", "command": "npx prettier --write" }] }
    ]
  }
}
`;

describe('handoff agent install claude', () => {
  it('merges our hooks into existing settings, is idempotent, and uninstall restores the file', () => {
    const repo = makeRepo();
    repo.write('.claude/settings.json', CLAUDE_SETTINGS);
    const r = repo.handoff(['agent', 'install', 'claude']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `handoff: .claude/settings.json: added the SessionStart, PreCompact hooks for Claude Code\nhandoff: .claude/commands/handoff.md: added for Claude Code\n${RECORDED}`,
    );
    const text = repo.read('.claude/settings.json');
    expect(text).toContain('// team settings');
    expect(text).toContain('"permissions": { "allow": ["Bash(npm test)"] }');
    expect(text).toContain(
      '{ "matcher": "Write|Edit", "hooks": [{ "type": "command", "command": "npx prettier --write" }] }',
    );
    const settings = JSON.parse(text.replace(/^\s*\/\/.*$/m, ''));
    expect(settings.hooks.SessionStart).toEqual([
      { matcher: 'startup', hooks: [{ type: 'command', command: 'echo hello' }] },
      {
        matcher: 'startup|resume|compact',
        hooks: [{ type: 'command', command: hookCommand('claude-session-start'), timeout: 30 }],
      },
    ]);
    expect(settings.hooks.PreCompact).toEqual([
      { hooks: [{ type: 'command', command: hookCommand('claude-pre-compact'), timeout: 60 }] },
    ]);

    const again = repo.handoff(['agent', 'install', 'claude']);
    expect(again.stderr).toContain('already installed; nothing changed');
    expect(repo.read('.claude/settings.json')).toBe(text);

    const status = JSON.parse(repo.handoff(['agent', 'status', 'claude', '--json']).stdout);
    expect(status.integrations).toEqual([
      {
        agent: 'claude',
        title: 'Claude Code',
        file: path.join('.claude', 'settings.json'),
        kind: 'hooks',
        state: 'installed',
        installed: ['SessionStart', 'PreCompact'],
        modified: [],
        missing: [],
      },
      {
        agent: 'claude',
        title: 'Claude Code',
        file: path.join('.claude', 'commands', 'handoff.md'),
        kind: 'file',
        state: 'installed',
        installed: [],
        modified: [],
        missing: [],
      },
    ]);

    const gone = repo.handoff(['agent', 'uninstall', 'claude']);
    expect(gone.code).toBe(0);
    expect(gone.stderr).toBe(
      `handoff: .claude/commands/handoff.md: removed\nhandoff: .claude/settings.json: removed 2 handoff hooks\n${FORGOTTEN}`,
    );
    expect(repo.read('.claude/settings.json')).toBe(CLAUDE_SETTINGS);
    expect(repo.read('.git/config')).not.toMatch(/\bnode =|\bbin =/);
  });

  it('creates the settings file, adds the opt-in meter hook, and removes everything it added, files and folders too', () => {
    const repo = makeRepo();
    expect(repo.handoff(['agent', 'install', 'claude', '--meter']).code).toBe(0);
    const settings = JSON.parse(repo.read('.claude/settings.json'));
    expect(Object.keys(settings.hooks)).toEqual(['SessionStart', 'PreCompact', 'Stop']);
    // Installing again without --meter keeps the meter hook it finds.
    expect(repo.handoff(['agent', 'install', 'claude']).stderr).toContain('already installed; nothing changed');
    const gone = repo.handoff(['agent', 'uninstall', 'claude']);
    expect(gone.stderr).toContain(
      'handoff: .claude/settings.json: removed 3 handoff hooks and the file, which held nothing else\n',
    );
    expect(existsSync(path.join(repo.dir, '.claude'))).toBe(false);
  });

  it('removes only our hook from a group the user shares with it', () => {
    const repo = makeRepo();
    const shared = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'echo bye' },
              { type: 'command', command: 'handoff hook claude-meter' },
            ],
          },
        ],
      },
    };
    repo.write('.claude/settings.json', JSON.stringify(shared, null, 2));
    expect(repo.handoff(['agent', 'uninstall', 'claude']).stderr).toBe(
      'handoff: .claude/settings.json: removed 1 handoff hook\n',
    );
    expect(JSON.parse(repo.read('.claude/settings.json'))).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo bye' }] }] },
    });
  });

  it('writes no file when the git config cannot be written', () => {
    const repo = makeRepo();
    // git takes this lock to write .git/config; one left behind makes every write fail.
    repo.write('.git/config.lock', '');
    const r = repo.handoff(['agent', 'install', 'claude']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('.git/config');
    expect(existsSync(path.join(repo.dir, '.claude'))).toBe(false);
  });

  it('refuses settings that are not JSON, naming the file, and changes nothing', () => {
    const repo = makeRepo();
    repo.write('.claude/settings.json', '{ "hooks": [ }');
    const r = repo.handoff(['agent', 'install', 'claude']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^handoff: \.claude\/settings\.json: not valid JSON \(\w+ at offset \d+\); expected an object/,
    );
    expect(repo.read('.claude/settings.json')).toBe('{ "hooks": [ }');
    repo.write('.claude/settings.json', '{ "hooks": [] }');
    expect(repo.handoff(['agent', 'install', 'claude']).stderr).toContain('"hooks" must be an object');
  });
});

describe('instruction-file blocks', () => {
  it('appends a marked block once, updates only inside the markers, and uninstall restores the bytes', () => {
    const repo = makeRepo();
    const original = '# Agents\n\nRun `npm test` before you commit.\n';
    repo.write('AGENTS.md', original);
    const r = repo.handoff(['agent', 'install', 'codex']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'handoff: .codex/hooks.json: added the SessionStart, PreCompact hooks for Codex CLI\nhandoff: AGENTS.md: added the handoff block for Codex CLI\n',
    );
    expect(repo.read('AGENTS.md')).toContain('read `.handoff/ROADMAP.md` if it exists');
    expect(r.stderr).toContain(RECORDED);
    // Codex skips untrusted hooks without a word: the install says how to trust them.
    expect(r.stderr).toContain('trust_level = "trusted"');
    const hooks = JSON.parse(repo.read('.codex/hooks.json'));
    expect(hooks.hooks.SessionStart[0]).toEqual({
      matcher: 'startup|resume|compact',
      hooks: [{ type: 'command', command: hookCommand('codex-session-start'), timeout: 30 }],
    });
    expect(hooks.hooks.PreCompact[0].hooks[0].command).toBe(hookCommand('codex-pre-compact'));
    expect(repo.handoff(['agent', 'status', 'codex']).stdout).toMatch(
      /codex +hooks +\.codex\/hooks\.json: installed \(SessionStart, PreCompact\)\n +note: Codex CLI skips hooks it does not trust/,
    );
    const text = repo.read('AGENTS.md');
    expect(text.startsWith(`${original}\n<!-- git-handoff:start -->\n## Handoffs (git-handoff)\n`)).toBe(true);
    expect(text.endsWith('<!-- git-handoff:end -->\n')).toBe(true);
    expect(text).toContain('handoff resume');
    expect(text).toContain('handoff new');

    expect(repo.handoff(['agent', 'install', 'pi']).stderr).toContain('already current; nothing changed');
    expect(repo.read('AGENTS.md')).toBe(text);

    // A stale block (edited by hand) is replaced; text after the block is kept.
    const stale =
      text.replace(
        /<!-- git-handoff:start -->[\s\S]*<!-- git-handoff:end -->/,
        '<!-- git-handoff:start -->\nold words\n<!-- git-handoff:end -->',
      ) + '\n## Later section\n';
    repo.write('AGENTS.md', stale);
    expect(repo.handoff(['agent', 'install', 'opencode']).stderr).toContain('updated the handoff block for OpenCode');
    expect(repo.read('AGENTS.md')).toBe(`${text}\n## Later section\n`);

    // pi and OpenCode still read the block: it goes with the last of them.
    expect(repo.handoff(['agent', 'uninstall', 'pi']).code).toBe(0);
    expect(repo.handoff(['agent', 'uninstall', 'opencode']).code).toBe(0);
    expect(repo.handoff(['agent', 'uninstall', 'codex']).stderr).toBe(
      `handoff: .codex/hooks.json: removed 2 handoff hooks and the file, which held nothing else\nhandoff: AGENTS.md: removed the handoff block\n${FORGOTTEN}`,
    );
    expect(repo.read('AGENTS.md')).toBe(`${original}\n## Later section\n`);
  });

  it('keeps the shared AGENTS.md block while an installed agent still reads it, and removes it with the last', () => {
    const repo = makeRepo();
    for (const agent of ['codex', 'pi', 'opencode']) expect(repo.handoff(['agent', 'install', agent]).code).toBe(0);
    const block = repo.read('AGENTS.md');
    expect(repo.handoff(['agent', 'uninstall', 'opencode']).stderr).toContain(
      'handoff: AGENTS.md: kept the handoff block, which Codex CLI, pi still use\n',
    );
    expect(repo.read('AGENTS.md')).toBe(block);
    const status = repo.handoff(['agent', 'status']).stdout;
    expect(status).toMatch(/codex +block +AGENTS\.md: installed/);
    expect(status).toMatch(/pi +block +AGENTS\.md: installed/);
    expect(repo.handoff(['agent', 'uninstall', 'codex']).stderr).toContain(
      'handoff: AGENTS.md: kept the handoff block, which pi still uses\n',
    );
    expect(repo.handoff(['agent', 'uninstall', 'pi']).stderr).toContain(
      'handoff: AGENTS.md: removed the handoff block and the file, which held nothing else\n',
    );
    expect(existsSync(path.join(repo.dir, 'AGENTS.md'))).toBe(false);
  });

  it('installs every agent with all, and uninstall all says once of a shared file that it has no block', () => {
    const repo = makeRepo();
    const r = repo.handoff(['agent', 'install', 'all']);
    expect(r.code).toBe(0);
    expect(r.stderr.match(/AGENTS\.md/g)).toEqual(['AGENTS.md']);
    const status = repo.handoff(['agent', 'status', '--json']);
    const rows = JSON.parse(status.stdout).integrations as Array<{ agent: string; state: string }>;
    expect(rows.filter((row) => row.state !== 'installed')).toEqual([]);
    expect(repo.handoff(['agent', 'uninstall', 'all']).code).toBe(0);
    expect(existsSync(path.join(repo.dir, 'AGENTS.md'))).toBe(false);
    const again = repo.handoff(['agent', 'uninstall', 'all']);
    expect(again.stderr.match(/AGENTS\.md: no handoff block; nothing changed/g)).toHaveLength(1);
  });

  it('creates CLAUDE.md and GEMINI.md, and removes a file that held only the block', () => {
    const repo = makeRepo();
    expect(repo.handoff(['agent', 'install', 'claude-md']).code).toBe(0);
    expect(repo.read('CLAUDE.md').startsWith('<!-- git-handoff:start -->\n')).toBe(true);
    const gemini = repo.handoff(['agent', 'install', 'gemini']);
    expect(gemini.code).toBe(0);
    expect(gemini.stderr).toContain('GEMINI.md: added the handoff block for Gemini CLI');
    const settings = JSON.parse(repo.read('.gemini/settings.json'));
    expect(settings.hooks.SessionStart[0].hooks[0]).toEqual({
      name: 'handoff-resume',
      type: 'command',
      command: hookCommand('gemini-session-start'),
      timeout: 30_000,
    });
    expect(settings.hooks.PreCompress[0].hooks[0].command).toBe(hookCommand('gemini-pre-compress'));
    const status = repo.handoff(['agent', 'status']).stdout;
    expect(status).toMatch(/claude-md +block +CLAUDE\.md: installed/);
    expect(status).toMatch(/codex +block +AGENTS\.md: not installed/);
    expect(repo.handoff(['agent', 'uninstall', 'all']).code).toBe(0);
    expect(existsSync(path.join(repo.dir, 'CLAUDE.md'))).toBe(false);
    expect(existsSync(path.join(repo.dir, 'GEMINI.md'))).toBe(false);
  });

  it('puts the pins in GEMINI.md word for word, fenced; pin, unpin and supersede bring it up to date', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    const first = 'Two lines:\n  - keep `<Widget>` & "quotes" as written\n```\nnot a fence end';
    expect(repo.handoff(['pin', first]).code).toBe(0);
    expect(repo.handoff(['agent', 'install', 'gemini']).code).toBe(0);
    const block = repo.read('GEMINI.md');
    expect(block).toContain(`\n\`\`\`\`text\n${first}\n\`\`\`\`\n`);
    const second = 'Never edit generated files.';
    const pinned = repo.handoff(['pin', second]);
    expect(pinned.stderr).toContain(
      'handoff: GEMINI.md: brought the handoff block up to date (the pinned constraints)',
    );
    const refreshed = repo.read('GEMINI.md');
    expect(refreshed).toContain(`\n\`\`\`text\n${second}\n\`\`\`\n`);
    expect(refreshed).toContain(first);
    const id = /Pinned (\w+)/.exec(pinned.stdout)![1]!;
    const third = 'Never edit generated/ files.';
    expect(repo.handoff(['pin', third, '--supersedes', id]).code).toBe(0);
    expect(repo.read('GEMINI.md')).not.toContain(second);
    expect(repo.read('GEMINI.md')).toContain(third);
    const all = JSON.parse(repo.handoff(['pins', '--json']).stdout).pins as Array<{ id: string; text: string }>;
    const thirdId = all.find((p) => p.text === third)!.id;
    expect(thirdId).toMatch(/^\w{26}$/);
    expect(repo.handoff(['unpin', thirdId]).code).toBe(0);
    expect(repo.read('GEMINI.md')).not.toContain(third);
    // A change that came through a merge: the session-start hook catches up.
    repo.write('GEMINI.md', refreshed);
    const hook = repo.handoff(['hook', 'gemini-session-start'], {
      input: JSON.stringify({ session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' }),
    });
    expect(hook.code).toBe(0);
    expect(repo.read('GEMINI.md')).not.toContain(second);
    expect(repo.read('GEMINI.md')).toContain(first);
  });

  it('keeps the block inside the first 32 KiB of a long AGENTS.md', () => {
    const repo = makeRepo();
    const long = `# Agents\n\n${'- a rule the team wrote down at some point in the past\n'.repeat(700)}`;
    expect(Buffer.byteLength(long)).toBeGreaterThan(32 * 1024);
    repo.write('AGENTS.md', long);
    const r = repo.handoff(['agent', 'install', 'codex']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /handoff: AGENTS\.md is [\d,]+ bytes, more than the 32,768 an agent reads; the block is placed first so it is read/,
    );
    const text = repo.read('AGENTS.md');
    const firstKiB = Buffer.from(text)
      .subarray(0, 32 * 1024)
      .toString();
    expect(firstKiB).toContain('<!-- git-handoff:end -->');
    expect(repo.handoff(['agent', 'install', 'codex']).stderr).toContain('nothing changed');
    repo.handoff(['agent', 'uninstall', 'codex']);
    expect(repo.read('AGENTS.md')).toBe(long);
  });

  it('refuses broken markers, naming the file, and changes nothing', () => {
    const repo = makeRepo();
    repo.write('AGENTS.md', '# Agents\n<!-- git-handoff:start -->\nhalf a block\n');
    const r = repo.handoff(['agent', 'install', 'codex']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'handoff: AGENTS.md: expected one <!-- git-handoff:start --> line followed by one <!-- git-handoff:end --> line; fix or remove the markers by hand\n',
    );
    expect(repo.read('AGENTS.md')).toBe('# Agents\n<!-- git-handoff:start -->\nhalf a block\n');
    expect(existsSync(path.join(repo.dir, '.codex/hooks.json'))).toBe(false);
  });

  it('OpenCode and pi get a project plugin and extension, the /handoff commands come along, and uninstall takes exactly them away', () => {
    const repo = makeRepo();
    repo.write('.opencode/command/review.md', "the user's own command\n");
    expect(repo.handoff(['agent', 'install', 'opencode']).stderr).toContain(
      'handoff: .opencode/plugin/git-handoff.js: added for OpenCode\n',
    );
    expect(repo.read('.opencode/plugin/git-handoff.js')).toContain("'experimental.session.compacting'");
    expect(repo.read('.opencode/command/handoff.md')).toContain(
      'handoff new "$ARGUMENTS" --from auto --no-edit --sections -',
    );
    expect(repo.handoff(['agent', 'install', 'pi']).stderr).toContain(
      'handoff: .pi/extensions/git-handoff.ts: added for pi\n',
    );
    expect(repo.handoff(['agent', 'install', 'claude']).stderr).toContain(
      'handoff: .claude/commands/handoff.md: added for Claude Code\n',
    );
    expect(repo.handoff(['agent', 'install', 'gemini']).stderr).toContain(
      'handoff: .gemini/commands/handoff.toml: added for Gemini CLI\n',
    );
    expect(repo.handoff(['agent', 'status', 'opencode']).stdout).toMatch(
      /opencode +file +\.opencode\/plugin\/git-handoff\.js: installed/,
    );
    expect(repo.handoff(['agent', 'install', 'opencode']).stderr).toContain(
      '.opencode/plugin/git-handoff.js: already current; nothing changed',
    );
    expect(repo.handoff(['agent', 'uninstall', 'all']).code).toBe(0);
    for (const gone of [
      '.opencode/plugin',
      '.opencode/command/handoff.md',
      '.pi',
      '.claude/commands',
      '.gemini/commands',
      'AGENTS.md',
    ])
      expect(existsSync(path.join(repo.dir, gone)), gone).toBe(false);
    expect(repo.read('.opencode/command/review.md')).toBe("the user's own command\n");
  });

  it('refuses to overwrite a file of the same name that is not ours, and writes nothing', () => {
    const repo = makeRepo();
    repo.write('.pi/extensions/git-handoff.ts', 'export default () => {};\n');
    const r = repo.handoff(['agent', 'install', 'pi']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('.pi/extensions/git-handoff.ts: exists and was not written by handoff');
    expect(existsSync(path.join(repo.dir, 'AGENTS.md'))).toBe(false);
    expect(repo.read('.pi/extensions/git-handoff.ts')).toBe('export default () => {};\n');
  });

  it('rejects unknown agents and actions as usage errors', () => {
    const repo = makeRepo();
    expect(repo.handoff(['agent', 'install', 'vim']).code).toBe(2);
    expect(repo.handoff(['agent', 'install']).code).toBe(2);
    expect(repo.handoff(['agent', 'frobnicate', 'claude']).code).toBe(2);
  });
});
