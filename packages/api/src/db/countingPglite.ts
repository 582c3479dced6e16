/**
 * PGlite that counts the statements it runs, so the API can tell that nothing changed its data
 * without asking it (db/snapshot.ts). Every statement, from `query()`, `exec()`, transactions or
 * the wire protocol, goes through `execProtocolRawSync` (PGlite 0.5, pinned exactly).
 */
import { PGlite } from "@electric-sql/pglite";

export class CountingPGlite extends PGlite {
  #statements = 0;
  #counting = true;

  /** Statements run so far, except those started through `uncounted`. */
  get statements(): number {
    return this.#statements;
  }

  override execProtocolRawSync(message: Uint8Array): Uint8Array {
    if (this.#counting) this.#statements += 1;
    return super.execProtocolRawSync(message);
  }

  /**
   * Runs `start`, whose statement is not counted: only a select that changes nothing may run
   * here. PGlite runs a message synchronously when `execProtocolStream` is called, so the
   * message is inside `start` even though its answer arrives later.
   */
  uncounted<T>(start: () => T): T {
    this.#counting = false;
    try {
      return start();
    } finally {
      this.#counting = true;
    }
  }
}
