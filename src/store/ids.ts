// Id source: the only importer of `ulid`. Monotonic, so ids made by one process in the
// same millisecond still sort in creation order; lowercase to keep file names
// unambiguous on case-insensitive file systems.
//
// ulid imports node:crypto when it loads, and the read-only commands and hooks (whose
// chunk holds this module) make no id: so ulid stays out of the bundle (EXTERNAL in
// scripts/bundle.js) and is required at the first id. A require, not an import(): ids are
// made synchronously.
import type * as Ulid from 'ulid';

let next: ReturnType<typeof Ulid.monotonicFactory> | undefined;

// ulid's own random source is globalThis.crypto, whose first read builds node's Web Crypto
// (bench/team.js, `new`); node:crypto's randomBytes draws from the same generator, a byte
// per character as ulid draws them.
const randomByte = () => process.getBuiltinModule('node:crypto').randomBytes(1)[0]! / 256;

export function newId(nowMs: number): string {
  next ??= (
    process.getBuiltinModule('node:module').createRequire(import.meta.url)('ulid') as typeof Ulid
  ).monotonicFactory(randomByte);
  return next(nowMs).toLowerCase();
}
