/**
 * Statements prepared once per database handle and kept by their name: a hot query is then
 * built (by Drizzle) and planned (by PostgreSQL, per connection) once, and afterwards only run
 * with its values. The name is also the prepared statement's name on PostgreSQL (unless the
 * statement is built without one), so one name must always stand for one query text.
 */
import type { Queryable } from "./client.ts";

const prepared = new WeakMap<Queryable, Map<string, unknown>>();

/** The statement `name` on `q`, built by `prepare(name)` the first time it is asked for. */
export function preparedOnce<Statement>(
  q: Queryable,
  name: string,
  prepare: (name: string) => Statement,
): Statement {
  const byName = prepared.get(q) ?? new Map<string, unknown>();
  prepared.set(q, byName);
  if (!byName.has(name)) byName.set(name, prepare(name));
  return byName.get(name) as Statement;
}
