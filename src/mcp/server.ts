// The MCP server over stdio: the only importer of @modelcontextprotocol/server (v2, the
// official SDK), an optional peer dependency loaded only by `handoff mcp`. Tool inputs are
// plain JSON Schema through the SDK's fromJsonSchema, so no schema library of ours is
// needed beside it. stdout is the protocol's: everything we say goes to stderr.
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Context } from '../command/context.js';
import { version } from '../core/version.js';
import { newHandoff, pins, resume, search, SECTION_NAMES, type ToolAnswer } from './tools.js';

const reply = (a: ToolAnswer) => ({
  content: [{ type: 'text' as const, text: a.text }],
  ...(a.isError ? { isError: true } : {}),
});

const NONE = fromJsonSchema({ type: 'object', properties: {}, additionalProperties: false });

export async function serve(ctx: Context): Promise<void> {
  const server = new McpServer({ name: 'git-handoff', version: version() });
  server.registerTool(
    'resume',
    {
      description:
        "The resume prompt of this repository's open handoff on this branch: goal, state, next steps, pinned constraints, what git says changed since. Read it first.",
      inputSchema: NONE,
    },
    async () => reply(await resume(ctx)),
  );
  server.registerTool(
    'pins',
    {
      description: "The user's pinned constraints, word for word. Follow them exactly, as written.",
      inputSchema: NONE,
    },
    async () => reply(await pins(ctx)),
  );
  server.registerTool(
    'search',
    {
      description:
        'Search past handoffs (goal and body) for every word of the query, newest first; a handoff that a later one superseded says so.',
      inputSchema: fromJsonSchema<{ query: string }>({
        type: 'object',
        properties: { query: { type: 'string', description: 'words to look for' } },
        required: ['query'],
        additionalProperties: false,
      }),
    },
    async ({ query }) => reply(await search(ctx, query)),
  );
  server.registerTool(
    'new',
    {
      description:
        'Write a handoff for the next piece of work: the goal, plus text for any sections, added to the draft git and the open handoff give (its carried state). Use before you stop or your context fills.',
      inputSchema: fromJsonSchema<{ goal: string; sections?: Record<string, string> }>({
        type: 'object',
        properties: {
          goal: { type: 'string', description: 'the goal of the next piece of work' },
          sections: {
            type: 'object',
            description: `text per section, by name: ${SECTION_NAMES.join(', ')}`,
            additionalProperties: { type: 'string' },
          },
        },
        required: ['goal'],
        additionalProperties: false,
      }),
    },
    async ({ goal, sections }) => reply(await newHandoff(ctx, goal, sections ?? {})),
  );
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  ctx.stderr(`handoff: MCP server on stdio (resume, pins, search, new) for ${ctx.root}`);
  await closed;
}
