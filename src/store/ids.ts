// Id source: the only importer of `ulid`. Monotonic, so ids made by one process in the
// same millisecond still sort in creation order; lowercase to keep file names
// unambiguous on case-insensitive file systems.
import { monotonicFactory } from 'ulid';

const next = monotonicFactory();

export function newId(nowMs: number): string {
  return next(nowMs).toLowerCase();
}
