// @ts-check
// Functions of a bundled module compiled with the module, so that node's compile cache
// keeps them. V8 compiles a function when it is first called, and node's compile cache
// (Node 22 and later) keeps what V8 compiled when the module was: every run compiled each
// function of the hot chunk it called again, about 3 ms of a session start on Node 24.
// A function in parentheses is compiled with the code around it (V8 takes it for one
// about to be called), so its code is in the cache. Node 20 has no compile cache: there
// the module costs about 1 ms more to compile each run.
//
// Each top-level `function f(...) {...}` becomes `var f = (function f(...) {...});`,
// moved to where the imports end: a declaration is usable from the module's start, and
// so is the variable, since nothing runs before it. Only plain ES modules as esbuild
// writes them: every statement before the last import is an import or esbuild's banner,
// and no other module may run before this one ends (see bundle.js), since a function
// declaration is usable by a module it imports while it loads, and the variable is not.
// acorn because it is the plain, well-kept JavaScript parser (no dependencies); the
// build is the only place it is used.
import { parse } from 'acorn';

/** @param {string} code an ES module as esbuild writes it; returns it with its top-level functions compiled eagerly */
export function eagerFunctions(code) {
  const statements = parse(code, { ecmaVersion: 'latest', sourceType: 'module' }).body;
  const lastImport = statements.findLastIndex((s) => s.type === 'ImportDeclaration');
  for (const s of statements.slice(0, Math.max(lastImport, 0))) {
    const banner =
      s.type === 'VariableDeclaration' &&
      s.declarations.length === 1 &&
      s.declarations[0].id.type === 'Identifier' &&
      s.declarations[0].id.name === 'require';
    if (s.type !== 'ImportDeclaration' && !banner)
      throw new Error(
        `eagerFunctions: a statement before the imports end, at ${s.start}: not a module as esbuild writes it`,
      );
  }
  const functions = statements.filter((s) => s.type === 'FunctionDeclaration');
  if (functions.length === 0) return code;
  const at = lastImport < 0 ? 0 : statements[lastImport].end;
  const moved = functions.map((f) => `var ${f.id.name} = (${code.slice(f.start, f.end)});`);
  let rest = '';
  let from = at;
  for (const f of functions) {
    if (f.start < at) throw new Error(`eagerFunctions: function ${f.id.name} before the imports end`);
    rest += code.slice(from, f.start);
    from = f.end;
  }
  rest += code.slice(from);
  return `${code.slice(0, at)}\n${moved.join('\n')}\n${rest}`;
}
