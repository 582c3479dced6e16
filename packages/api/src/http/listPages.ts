/**
 * List answers kept as the JSON bytes they were sent as, each with the database snapshot its page
 * was read at (db/snapshot.ts). A request for the same list, filters, page and scope answers
 * the kept bytes while the snapshot is unchanged: no database read, no presenting, no
 * serialising. Any write anywhere changes the snapshot, so a kept answer is never older than
 * the request: an answer is made from data committed before the request arrived or after.
 *
 * Clients that poll the first page of a list are the common case this serves; under writes it
 * costs one snapshot read per request and a miss.
 */

interface Kept {
  snapshot: string;
  bytes: Buffer;
}

/** How many answers made once are remembered (key and snapshot), in case one is asked again. */
const ASKED_ONCE = 256;

export class ListPages {
  readonly #kept = new Map<string, Kept>();
  #bytes = 0;
  /** The snapshot each answer not kept was last made at. */
  readonly #askedOnce = new Map<string, string>();

  constructor(
    /** The most answer bytes kept. */
    private readonly maxBytes = 8 * 1024 * 1024,
  ) {}

  /** The answer kept for `key` at `snapshot`, if any. */
  get(key: string, snapshot: string): Buffer | undefined {
    const kept = this.#kept.get(key);
    if (!kept) return undefined;
    if (kept.snapshot !== snapshot) {
      this.#forget(key, kept);
      return undefined;
    }
    // Most recently used last: the first entries are the ones to drop.
    this.#kept.delete(key);
    this.#kept.set(key, kept);
    return kept.bytes;
  }

  /**
   * Offers `bytes`, the answer for `key` made from the data of `snapshot`. It is kept when the same answer was made before at the same snapshot: an answer
   * asked once is not worth its memory (a client walking a list asks each page once, and under
   * writes the snapshot moves on before the answer is asked again).
   */
  offer(key: string, snapshot: string, bytes: Buffer): void {
    const known = this.#kept.get(key);
    // Requests that missed together offer the same answer: the first kept stays.
    if (known?.snapshot === snapshot) return;
    if (known) this.#forget(key, known);
    if (this.#askedOnce.get(key) !== snapshot) {
      if (this.#askedOnce.size >= ASKED_ONCE) this.#askedOnce.clear();
      this.#askedOnce.set(key, snapshot);
      return;
    }
    this.#askedOnce.delete(key);
    // An answer that would push out most others is not worth keeping.
    if (bytes.length > this.maxBytes / 8) return;
    this.#kept.set(key, { snapshot, bytes });
    this.#bytes += bytes.length;
    for (const [oldest, kept] of this.#kept) {
      if (this.#bytes <= this.maxBytes) break;
      this.#forget(oldest, kept);
    }
  }

  #forget(key: string, kept: Kept): void {
    this.#kept.delete(key);
    this.#bytes -= kept.bytes.length;
  }
}
