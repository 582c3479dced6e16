/** Where a list's page starts: `page` from 1, or a `cursor` instead (then the page starts after it). */
import type { ListPosition } from "../../lib/cursor.ts";

export interface PageRequest {
  /** Absent: the first page (or the page after `cursor`). */
  page?: number;
  limit: number;
  /** Read from `?cursor=`: the page starts after this position, whatever its depth. */
  cursor?: ListPosition;
}

export function offsetOf({ page, limit, cursor }: PageRequest): number {
  return cursor ? 0 : ((page ?? 1) - 1) * limit;
}
