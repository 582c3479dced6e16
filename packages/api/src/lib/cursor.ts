/**
 * List cursors: the position of a list's last row in its order, (created_at, id), given to the
 * client as an opaque string (base64url of `<ISO time>|<uuid>`) and read back from `?cursor=`.
 */
export interface ListPosition {
  /** ISO 8601, as the row's `created_at` is shown. */
  createdAt: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor({ createdAt, id }: ListPosition): string {
  return Buffer.from(`${createdAt}|${id}`).toString("base64url");
}

/** The position a cursor names, or undefined when it is not one this API gave. */
export function decodeCursor(cursor: string): ListPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  const [time, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (rest.length > 0 || !time || !id || !UUID.test(id)) return undefined;
  const createdAt = new Date(time);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== time) return undefined;
  return { createdAt: time, id };
}

/** The event feed's cursor: base64url of `event:<position>`, the last event a reader has. */
export function encodeEventCursor(position: number): string {
  return Buffer.from(`event:${position}`).toString("base64url");
}

/** The position an event cursor names, or undefined when it is not one this API gave. */
export function decodeEventCursor(cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return undefined;
  const match = /^event:(0|[1-9]\d{0,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return match ? Number(match[1]) : undefined;
}
