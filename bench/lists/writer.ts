/**
 * A steady load of writes beside list reads: `POST /claims` of one collectible at a fixed rate,
 * each by a new email (the API creates the holder), so every write changes both lists.
 *
 * Open loop: the n-th claim is due n/rate seconds after the start whether earlier ones were
 * answered or not, and its latency counts from when it was due. A server that falls behind so
 * shows it in the latency and the achieved rate, not in a writer that politely slows down.
 */
import { randomBytes } from "node:crypto";
import { call } from "../lib/apiProcess.ts";
import { type Percentiles, percentiles } from "../lib/stats.ts";

export interface WriteResult {
  /** Asked rate, claims per second. */
  rate: number;
  sent: number;
  accepted: number;
  /** Accepted claims per second, from the first due time to the last answer. */
  acceptedPerSecond: number;
  /** From due to answered, accepted claims only. */
  latencyMs: Percentiles;
  /** The first answers other than 201/202 (any makes the measurement invalid). */
  rejected: { status: number; body: string }[];
}

export interface Writer {
  /** Sends no more, waits for every answer, and tells what happened. */
  stop(): Promise<WriteResult>;
}

export function startWriter(apiUrl: string, collectibleId: string, rate: number): Writer {
  const run = randomBytes(4).toString("hex");
  const latencies: number[] = [];
  const rejected: { status: number; body: string }[] = [];
  const pending = new Set<Promise<void>>();
  const start = performance.now();
  let sent = 0;
  let lastAnswer = start;

  const send = (due: number) => {
    const request = call(apiUrl, "POST", "/claims", {
      collectible_id: collectibleId,
      email: `writer-${run}-${sent}@bench.example`,
    })
      .catch((error: Error) => ({ status: 0, body: error.message }))
      .then(({ status, body }) => {
        lastAnswer = performance.now();
        if (status === 201 || status === 202) latencies.push(lastAnswer - due);
        else if (rejected.length < 5) rejected.push({ status, body: body.slice(0, 300) });
      });
    const tracked = request.finally(() => pending.delete(tracked));
    pending.add(tracked);
    sent++;
  };
  // Timers fire late on a busy machine: each tick sends every claim that has come due.
  const timer = setInterval(() => {
    const now = performance.now();
    while (start + (sent * 1000) / rate <= now) send(start + (sent * 1000) / rate);
  }, 2);

  return {
    async stop() {
      clearInterval(timer);
      while (pending.size > 0) await Promise.all(pending);
      return {
        rate,
        sent,
        accepted: latencies.length,
        acceptedPerSecond: latencies.length / ((lastAnswer - start) / 1000),
        latencyMs: percentiles(latencies),
        rejected,
      };
    },
  };
}
