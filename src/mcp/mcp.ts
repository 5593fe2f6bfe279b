// `handoff mcp`: an MCP server on stdio, so any MCP client can pull what hooks cannot push
// (the resume prompt, the pins, past handoffs) and write a handoff. The SDK is an optional
// peer dependency: without it, one line says how to install it.
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { HandoffError } from '../core/errors.js';

const PACKAGE = '@modelcontextprotocol/server';

export async function run(ctx: Context, _args: ArgsOf<'mcp'>): Promise<Outcome> {
  let server: typeof import('./server.js');
  try {
    server = await import('./server.js');
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes(PACKAGE))
      throw new HandoffError(
        `handoff mcp needs ${PACKAGE}, an optional peer dependency: npm install ${PACKAGE}@2 where git-handoff is installed (add -g for a global install)`,
      );
    throw error;
  }
  // Nothing but the protocol may reach stdout.
  await server.serve({ ...ctx, stdout: (text: string) => ctx.stderr(text.replace(/\n$/, '')) });
}
