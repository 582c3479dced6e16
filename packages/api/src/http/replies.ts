/** Answers several endpoints share. */
import { type PageRequest, paginationOf } from "../db/pagination.ts";

/** A page of a list: `{ pagination, data }`, each row presented. */
export function pageReply<Row, Item>(
  page: PageRequest,
  { rows, count }: { rows: Row[]; count: number },
  present: (row: Row) => Item,
) {
  return {
    status: 200 as const,
    body: { pagination: paginationOf(page, count), data: rows.map(present) },
  };
}

/** What DELETE answers: the record stays (inactive), the client is told it is gone. */
export function deletedReply(id: string) {
  return { status: 200 as const, body: { data: { id, deleted: true as const } } };
}
