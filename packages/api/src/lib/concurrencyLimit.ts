/**
 * Lets at most `limit` tasks run at once; the others wait in arrival order. Claim transactions
 * pass through one, so a burst of requests queues here, in the process, instead of in front of
 * the database connections, where the relayer's queries would otherwise wait behind all of them.
 */
export class ConcurrencyLimit {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running < this.limit) this.#running += 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so nothing can overtake it.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}
