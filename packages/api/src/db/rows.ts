/** `db.execute()` answers `{ rows }` on both node-postgres and PGlite; this reads them typed. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
