/**
 * Lets short waits on other processes go ahead of heavy work in this process: while work run
 * through `run` is in flight, `turn()` waits for it (at most `maxWaitMs`).
 *
 * Why: on PGlite a burst of POST /claims keeps the API's event loop busy, each turn running a
 * claim group (its transaction never returns to the event loop) and the requests around it, some
 * 100 ms. Each call the relayer makes to the chain or the indexer needs two or three turns before
 * its answer is handled, and a round makes some thirty of them one after the other (gas
 * estimates, fees and a broadcast per batch, receipts, the indexer): a round of 800 claims took
 * about 6 s, and claims went out mostly after the burst. A group that waits for the call in
 * flight also holds back the requests that would follow its answers, so the answer is handled at
 * once. `turn()` also waits for the call the relayer makes straight after an answer: waiting for
 * the call in flight alone left the relayer about one call per group. The bound, a few local
 * chain round trips, caps what a group loses when the relayer always waits on something, or on
 * a slow chain.
 */
export class Precedence {
  #inFlight = 0;
  #waiting: (() => void)[] = [];

  constructor(private readonly maxWaitMs: number) {}

  /** Runs `work`; while it is in flight, `turn()` waits. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.#inFlight += 1;
    try {
      return await work();
    } finally {
      this.#inFlight -= 1;
      if (this.#inFlight === 0) for (const resolve of this.#waiting.splice(0)) resolve();
    }
  }

  /** Resolves when no work run through `run` is in flight, or after `maxWaitMs` at most. */
  async turn(): Promise<void> {
    const deadline = Date.now() + this.maxWaitMs;
    while (this.#inFlight > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          // Gone from the list once called: a turn that timed out leaves nothing behind.
          const at = this.#waiting.indexOf(done);
          if (at >= 0) this.#waiting.splice(at, 1);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.#waiting.push(done);
      });
      // The relayer makes its next call as soon as it has handled an answer, in the same turn of
      // the event loop: look again after that turn, so that call goes first too.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
