/**
 * Page arithmetic shared by every list: `page` from 1 (or a `cursor` instead), `size` is the page
 * size (limit), and `next_cursor` the position after the page's last row when more may follow.
 */
import type { ListPosition } from "../lib/cursor.ts";

export interface PageRequest {
  /** Absent: the first page (or the page after `cursor`). */
  page?: number;
  limit: number;
  /** Read from `?cursor=`: the page starts after this position, whatever its depth. */
  cursor?: ListPosition;
}

export interface Pagination {
  /** Null for a page asked by cursor. */
  page: number | null;
  size: number;
  pages: number;
  count: number;
  next_cursor: string | null;
}

export function offsetOf({ page, limit, cursor }: PageRequest): number {
  return cursor ? 0 : ((page ?? 1) - 1) * limit;
}

export function paginationOf(
  { page, limit, cursor }: PageRequest,
  count: number,
  next: string | null,
): Pagination {
  return {
    page: cursor ? null : (page ?? 1),
    size: limit,
    pages: Math.ceil(count / limit),
    count,
    next_cursor: next,
  };
}
