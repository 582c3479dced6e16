/**
 * Gathers work that arrives while earlier work runs, and runs it together: the first item runs
 * after one turn of the event loop, with whatever arrived in that turn; the items that arrive
 * while a group runs wait and go next as one group (at most `maxSize`). Under load a group grows
 * to what arrives during one run; a lone request waits for no company. Each item still gets its own answer or its own error.
 */
export type Settled<Result> = { ok: true; value: Result } | { ok: false; error: unknown };

interface Waiting<Item, Result> {
  item: Item;
  resolve(value: Result): void;
  reject(error: unknown): void;
}

export class GroupQueue<Item, Result> {
  readonly #waiting: Waiting<Item, Result>[] = [];
  #running = false;

  readonly #runGroup: (items: Item[]) => Promise<Settled<Result>[]>;
  readonly #maxSize: number;

  /** `runGroup` answers one outcome per item, in order; if it throws, every item gets that error. */
  constructor(runGroup: (items: Item[]) => Promise<Settled<Result>[]>, maxSize: number) {
    this.#runGroup = runGroup;
    this.#maxSize = maxSize;
  }

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      if (this.#running) return;
      this.#running = true;
      void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    while (this.#waiting.length > 0) {
      // One turn of the event loop before each group: requests already read from their sockets
      // join it.
      await new Promise((resolve) => setImmediate(resolve));
      const group = this.#waiting.splice(0, this.#maxSize);
      try {
        const outcomes = await this.#runGroup(group.map((waiting) => waiting.item));
        group.forEach((waiting, index) => {
          const outcome = outcomes[index];
          if (!outcome) waiting.reject(new Error("the group answered no outcome for this item"));
          else if (outcome.ok) waiting.resolve(outcome.value);
          else waiting.reject(outcome.error);
        });
      } catch (error) {
        for (const waiting of group) waiting.reject(error);
      }
    }
    this.#running = false;
  }
}
