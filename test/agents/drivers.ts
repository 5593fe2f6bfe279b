// How each real agent is run headless against the scripted model server: its pinned
// release, the configuration written into a private HOME, the command line, and where
// its transcript lands. Nothing of the machine's own configuration is read.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Step } from './scripted-model.js';

export interface Driver {
  /** What `handoff agent install` is given. */
  agent: 'claude' | 'codex' | 'gemini' | 'opencode' | 'pi' | 'copilot' | 'cline' | 'kilo' | 'qwen';
  /** Names this run where one agent has two releases under test (pi's old and new package). */
  id?: string;
  title: string;
  pkg: string;
  version: string;
  bin: string;
  /** A script run by the agents' Node (HANDOFF_AGENTS_NODE) instead of node_modules/.bin/<bin>. */
  entry?: string;
  /** Needs Node 22 or later: run on HANDOFF_AGENTS_NODE (CI's Node 24). */
  node22?: boolean;
  /** Installed from its npm pack tarball plus these packages (its other dependencies fail to install here). */
  pack?: string[];
  /** Installed beside it into the cache (a plugin SDK the agent insists on). */
  extras?: string[];
  /** Writes configuration under home; answers the environment for the run. */
  setup: (home: string, repo: string, url: string) => Record<string, string>;
  /** The command line of one headless turn (resume: continue that session). */
  argv: (prompt: string, opts: { resume?: string; compactAt?: number; command?: string }) => string[];
  /** The newest transcript the agent wrote (a file; OpenCode: its database). */
  transcript: (home: string, repo: string) => string | undefined;
}

export const PROMPT = 'Add a sum helper in src/sum.js and run npm test. Never touch the generated/ folder.';

/** The files under dir (recursively) whose names match, newest first. */
export function newest(dir: string, match: RegExp): string | undefined {
  const found: Array<{ file: string; at: number }> = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else if (match.test(name)) found.push({ file: full, at: st.mtimeMs });
    }
  };
  walk(dir);
  return found.sort((a, b) => b.at - a.at)[0]?.file;
}

export const write = (file: string, text: string) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
};

const SUM = 'export const sum = (a, b) => a + b;\n';

/** The task, turn by turn: a todo update, a file write, the test command, then text. */
export function script(repo: string): Step[] {
  const file = path.join(repo, 'src/sum.js');
  return [
    // Claude Code keeps its task tools behind ToolSearch: load them first.
    { tools: ['ToolSearch'], args: () => ({ query: 'select:TaskCreate,TaskUpdate', max_results: 5 }) },
    {
      tools: ['TodoWrite', 'TaskCreate', 'write_todos', 'todowrite', 'todo_write', 'create_goal'],
      args: (t) =>
        t === 'TodoWrite'
          ? {
              todos: [
                { content: 'Write src/sum.js', status: 'in_progress', activeForm: 'Writing src/sum.js' },
                { content: 'Run npm test', status: 'pending', activeForm: 'Running npm test' },
              ],
            }
          : t === 'TaskCreate'
            ? {
                subject: 'Write src/sum.js and run npm test',
                description: 'The sum helper, then the tests',
                activeForm: 'Writing src/sum.js',
              }
            : t === 'write_todos'
              ? {
                  todos: [
                    { description: 'Write src/sum.js', status: 'in_progress' },
                    { description: 'Run npm test', status: 'pending' },
                  ],
                }
              : t === 'todo_write'
                ? {
                    todos: [
                      { id: '1', content: 'Write src/sum.js', status: 'in_progress' },
                      { id: '2', content: 'Run npm test', status: 'pending' },
                    ],
                  }
                : t === 'todowrite'
                  ? {
                      todos: [
                        { content: 'Write src/sum.js', status: 'in_progress', priority: 'high' },
                        { content: 'Run npm test', status: 'pending', priority: 'medium' },
                      ],
                    }
                  : { objective: 'Write src/sum.js and run npm test' },
    },
    {
      tools: ['Write', 'write_file', 'write', 'create', 'editor', 'apply_patch'],
      args: (t) =>
        t === 'Write'
          ? { file_path: file, content: SUM }
          : t === 'create'
            ? { path: file, file_text: SUM }
            : t === 'editor'
              ? { path: file, new_text: SUM }
              : t === 'write_file'
                ? { file_path: file, content: SUM }
                : t === 'write'
                  ? { path: file, filePath: file, content: SUM }
                  : `*** Begin Patch\n*** Add File: src/sum.js\n+${SUM.trimEnd()}\n*** End Patch\n`,
    },
    {
      tools: ['Bash', 'run_shell_command', 'exec_command', 'bash', 'run_commands'],
      args: (t) =>
        t === 'exec_command'
          ? { cmd: 'npm test', workdir: repo }
          : t === 'run_commands'
            ? { commands: ['npm test'] }
            : { command: 'npm test', description: 'Run the tests' },
    },
    { tools: ['TaskUpdate'], args: () => ({ taskId: '1', status: 'completed' }) },
  ];
}

export const offline = { DISABLE_TELEMETRY: '1', DO_NOT_TRACK: '1' };

export const DRIVERS: Driver[] = [
  {
    agent: 'claude',
    title: 'Claude Code',
    pkg: '@anthropic-ai/claude-code',
    version: '2.1.330',
    bin: 'claude',
    setup: (home, _repo, url) => ({
      ...offline,
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: 'sk-test',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    }),
    argv: (prompt, { resume }) => [
      '-p',
      prompt,
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'claude-sonnet-4-5',
      '--allowedTools',
      'Write,Edit,Bash(npm test:*),TaskCreate,TaskUpdate,TodoWrite,ToolSearch',
      ...(resume ? ['--resume', resume] : []),
    ],
    transcript: (home) => newest(path.join(home, '.claude/projects'), /\.jsonl$/),
  },
  {
    agent: 'codex',
    title: 'Codex CLI',
    pkg: '@openai/codex',
    version: '0.169.0',
    bin: 'codex',
    setup: (home, repo, url) => {
      write(
        path.join(home, '.codex/config.toml'),
        [
          'model = "gpt-5.5"',
          'model_provider = "mock"',
          'approval_policy = "never"',
          'sandbox_mode = "danger-full-access"',
          '[analytics]',
          'enabled = false',
          '[model_providers.mock]',
          'name = "mock"',
          `base_url = "${url}/v1"`,
          'wire_api = "responses"',
          'env_key = "MOCK_API_KEY"',
          `[projects."${repo}"]`,
          'trust_level = "trusted"',
          '',
        ].join('\n'),
      );
      return { ...offline, MOCK_API_KEY: 'x', CODEX_HOME: path.join(home, '.codex') };
    },
    argv: (prompt, { resume, compactAt }) => [
      'exec',
      '--skip-git-repo-check',
      '--dangerously-bypass-hook-trust',
      ...(compactAt ? ['-c', `model_auto_compact_token_limit=${compactAt}`] : []),
      ...(resume ? ['resume', resume] : []),
      prompt,
    ],
    transcript: (home) => newest(path.join(home, '.codex/sessions'), /^rollout-.*\.jsonl$/),
  },
  {
    agent: 'gemini',
    title: 'Gemini CLI',
    pkg: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'gemini',
    setup: (home, repo, url) => {
      write(
        path.join(home, '.gemini/settings.json'),
        JSON.stringify(
          { security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false } },
          null,
          2,
        ),
      );
      write(path.join(home, '.gemini/trustedFolders.json'), JSON.stringify({ [repo]: 'TRUST_FOLDER' }));
      return { ...offline, GEMINI_API_KEY: 'x', GOOGLE_GEMINI_BASE_URL: url, GEMINI_CLI_NO_RELAUNCH: 'true' };
    },
    argv: (prompt, { resume }) => [
      '-p',
      prompt,
      '--yolo',
      '--model',
      'gemini-2.5-pro',
      '--output-format',
      'stream-json',
      ...(resume ? ['--resume', resume] : []),
    ],
    transcript: (home) => newest(path.join(home, '.gemini/tmp'), /^session-.*\.jsonl?$/),
  },
  {
    agent: 'pi',
    title: 'pi',
    pkg: '@mariozechner/pi-coding-agent',
    version: '0.73.1',
    bin: 'pi',
    setup: (home, _repo, url) => {
      const provider = {
        baseUrl: `${url}/v1`,
        api: 'openai-completions',
        apiKey: 'x',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: 'mock-model', contextWindow: 200000 }],
      };
      write(path.join(home, '.pi/agent/models.json'), JSON.stringify({ providers: { mock: provider } }, null, 2));
      return { ...offline, PI_OFFLINE: '1' };
    },
    argv: (prompt, { resume }) => [
      '-p',
      '--provider',
      'mock',
      '--model',
      'mock-model',
      ...(resume ? ['--session', resume] : []),
      prompt,
    ],
    transcript: (home) => newest(path.join(home, '.pi/agent/sessions'), /\.jsonl$/),
  },
  {
    agent: 'opencode',
    title: 'OpenCode',
    pkg: 'opencode-ai',
    version: '1.18.33',
    bin: 'opencode',
    setup: (home, _repo, url) => {
      const config = {
        $schema: 'https://opencode.ai/config.json',
        provider: {
          mock: {
            npm: '@ai-sdk/openai-compatible',
            name: 'mock',
            options: { baseURL: `${url}/v1`, apiKey: 'x' },
            models: { 'mock-model': { name: 'mock-model', limit: { context: 200000, output: 8000 }, tool_call: true } },
          },
        },
        model: 'mock/mock-model',
        permission: { edit: 'allow', bash: 'allow', external_directory: 'allow' },
        autoupdate: false,
        share: 'disabled',
      };
      write(path.join(home, '.config/opencode/opencode.json'), JSON.stringify(config, null, 2));
      return {
        ...offline,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_DATA_HOME: path.join(home, '.local/share'),
        XDG_CACHE_HOME: path.join(home, '.cache'),
        XDG_STATE_HOME: path.join(home, '.local/state'),
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      };
    },
    argv: (prompt, { resume, command }) => [
      'run',
      ...(resume ? ['--session', resume] : []),
      ...(command ? ['--command', command] : []),
      prompt,
    ],
    transcript: (home) => newest(path.join(home, '.local/share/opencode'), /^opencode\.db$/),
  },
];
