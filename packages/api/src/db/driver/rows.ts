/** `db.execute()` answers `{ rows }` (node-postgres); this reads them typed. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
