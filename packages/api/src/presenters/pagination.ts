/**
 * A list answer's `pagination`: `page` from 1 (null for a page asked by cursor), `size` is the
 * page size (limit), and `next_cursor` the position after the page's last row when more may follow.
 */
import type { PageRequest } from "../db/driver/recordReads.ts";

export interface Pagination {
  /** Null for a page asked by cursor. */
  page: number | null;
  size: number;
  pages: number;
  count: number;
  next_cursor: string | null;
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
