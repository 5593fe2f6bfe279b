// `handoff mcp`: the built CLI as a subprocess, driven over stdio by the official SDK's
// client, as an MCP client (Claude Code, Codex, Gemini CLI, ...) drives it.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, gitEnv, makeRepo, tempDir, type Repo } from './helpers.js';

const open: Client[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
});

async function connect(repo: Repo): Promise<Client> {
  const env = Object.fromEntries(Object.entries(gitEnv()).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: repo.dir,
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'handoff-test', version: '0.0.0' });
  await client.connect(transport);
  open.push(client);
  return client;
}

const text = (result: { content: unknown }) =>
  (result.content as Array<{ type: string; text: string }>).map((c) => c.text).join('\n');

describe('handoff mcp', () => {
  it('serves resume, pins, search and new to the SDK client', async () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    const pin = 'Keep <Widget> & "quoted" names exactly as written.';
    expect(repo.handoff(['pin', pin]).code).toBe(0);
    expect(repo.handoff(['new', 'move auth to the teams table', '--no-edit']).code).toBe(0);
    const first = JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs[0];

    const client = await connect(repo);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual(['new', 'pins', 'resume', 'search']);

    expect(text(await client.callTool({ name: 'pins', arguments: {} }))).toContain(`\`\`\`text\n${pin}\n\`\`\``);
    const resume = text(await client.callTool({ name: 'resume', arguments: {} }));
    expect(resume).toContain('move auth to the teams table');
    expect(resume).toContain(pin);

    const written = await client.callTool({
      name: 'new',
      arguments: {
        goal: 'auth on teams, part two',
        sections: { next_steps: '- migrate the sessions table', Decisions: '- teams own sessions: one owner per row' },
      },
    });
    expect(written.isError).toBeFalsy();
    const file = /^Wrote (\S+)$/.exec(text(written))![1]!;
    const body = repo.read(file);
    expect(body).toContain('- migrate the sessions table');
    expect(body).toContain('- teams own sessions: one owner per row');
    expect(body).toMatch(new RegExp(`^parent: "?${first.id}"?$`, 'm'));

    // The first handoff is superseded by the new one, and search says so.
    const found = text(await client.callTool({ name: 'search', arguments: { query: 'auth teams' } }));
    const lines = found.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${first.id} (`);
    expect(lines[1]).toMatch(/superseded by \w{26}; read that one for current state/);
    expect(text(await client.callTool({ name: 'search', arguments: { query: 'nowhere-to-be-found' } }))).toBe(
      'No handoff mentions all of: nowhere-to-be-found',
    );

    const bad = await client.callTool({ name: 'new', arguments: { goal: 'x', sections: { nonsense: 'y' } } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^handoff: no section 'nonsense'; expected one of completed, /);
  });

  it('says in one line how to install the SDK when it is missing', () => {
    // A copy of the package whose node_modules has everything but the optional peer.
    const root = path.resolve(__dirname, '..');
    const pkg = path.join(tempDir('handoff-nopeer-'), 'git-handoff');
    mkdirSync(path.join(pkg, 'node_modules'), { recursive: true });
    for (const part of ['bin', 'dist', 'templates', 'package.json'])
      cpSync(path.join(root, part), path.join(pkg, part), { recursive: true });
    for (const name of readdirSync(path.join(root, 'node_modules')))
      if (name !== '@modelcontextprotocol')
        symlinkSync(path.join(root, 'node_modules', name), path.join(pkg, 'node_modules', name));
    const repo = makeRepo();
    const r = spawnSync(process.execPath, [path.join(pkg, 'bin/handoff.js'), 'mcp'], {
      cwd: repo.dir,
      env: gitEnv(),
      input: '',
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'handoff: handoff mcp needs @modelcontextprotocol/server, an optional peer dependency: npm install @modelcontextprotocol/server@2 where git-handoff is installed (add -g for a global install)\n',
    );
  });

  it('answers a line that is not JSON with a parse error, and JSON that is no request with Invalid Request, and goes on', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    };
    const lines = [
      JSON.stringify(initialize),
      '{not json',
      '[]',
      '42',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    ];
    const r = spawnSync(process.execPath, [BIN, 'mcp'], {
      cwd: repo.dir,
      env: gitEnv(),
      input: `${lines.join('\n')}\n`,
      encoding: 'utf8',
    });
    const replies = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const errors = replies.filter((m) => m.error);
    expect(errors).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } },
    ]);
    expect(replies.find((m) => m.id === 2)?.result.tools).toHaveLength(4);
  });
});
