// The MCP server over stdio: the only importer of @modelcontextprotocol/server (v2, the
// official SDK), an optional peer dependency loaded only by `handoff mcp`. Tool inputs are
// plain JSON Schema through the SDK's fromJsonSchema, so no schema library of ours is
// needed beside it. stdout is the protocol's: everything we say goes to stderr.
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { Transform } from 'node:stream';
import type { Context } from '../command/context.js';
import { version } from '../core/version.js';
import { newHandoff, pins, resume, search, SECTION_NAMES, type ToolAnswer } from './tools.js';

const reply = (a: ToolAnswer) => ({
  content: [{ type: 'text' as const, text: a.text }],
  ...(a.isError ? { isError: true } : {}),
});

const NONE = fromJsonSchema({ type: 'object', properties: {}, additionalProperties: false });

/** JSON-RPC 2.0's answer to a line that is not a request; id null, as the line's id cannot be known. */
const rpcError = (code: number, message: string) =>
  `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}\n`;

/**
 * stdin line by line, with each line that is not JSON answered with a parse error and
 * dropped: the SDK skips such a line without a word, and the client would wait forever.
 */
function answerUnparsable(out: NodeJS.WritableStream): Transform {
  let rest = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let buffer = Buffer.concat([rest, chunk]);
      for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10)) {
        const line = buffer.subarray(0, end + 1);
        buffer = buffer.subarray(end + 1);
        const text = line.toString('utf8').trim();
        try {
          if (text !== '') JSON.parse(text);
          this.push(line);
        } catch {
          out.write(rpcError(-32700, 'Parse error'));
        }
      }
      rest = buffer;
      done();
    },
  });
}

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
  const transport = new StdioServerTransport(process.stdin.pipe(answerUnparsable(process.stdout)), process.stdout);
  // JSON that is not a JSON-RPC message reaches the SDK's schema, which reports it here and
  // answers nothing: JSON-RPC 2.0 answers Invalid Request and the server goes on.
  // connect() keeps this handler and chains its own after it.
  transport.onerror = (error) => {
    if (error.name === 'ZodError') process.stdout.write(rpcError(-32600, 'Invalid Request'));
  };
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  ctx.stderr(`handoff: MCP server on stdio (resume, pins, search, new) for ${ctx.root}`);
  await closed;
}
