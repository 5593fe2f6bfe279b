// Id source: the only importer of `ulid`. Monotonic, so ids made by one process in the
// same millisecond still sort in creation order; lowercase to keep file names
// unambiguous on case-insensitive file systems.
import { monotonicFactory } from 'ulid';

// Made on the first id, not at load: making it reaches for the platform's crypto, which
// costs milliseconds that the read-only commands and hooks (which load this) never need.
let next: ReturnType<typeof monotonicFactory> | undefined;

export function newId(nowMs: number): string {
  next ??= monotonicFactory();
  return next(nowMs).toLowerCase();
}
