/**
 * Readiness: every dependency check run at once, each bounded in time. A failing critical check
 * (the database) makes the API unready; a failing optional one (chain, indexer) only degraded.
 */
import { errorLine } from "../db/driver/pgError.ts";
import type { ReadinessCheck } from "../deps.ts";

const CHECK_TIMEOUT_MS = 2000;

export interface CheckResult {
  name: string;
  status: "up" | "down";
  critical: boolean;
  latency_ms: number;
  message?: string;
}

export interface Readiness {
  status: "ready" | "degraded" | "unavailable";
  checks: CheckResult[];
}

export async function checkReadiness(checks: readonly ReadinessCheck[]): Promise<Readiness> {
  const results = await Promise.all(checks.map(runCheck));
  const down = results.filter((check) => check.status === "down");
  const status = down.some((check) => check.critical)
    ? "unavailable"
    : down.length > 0
      ? "degraded"
      : "ready";
  return { status, checks: results };
}

async function runCheck({ name, critical, check }: ReadinessCheck): Promise<CheckResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let timer: NodeJS.Timeout | undefined;
  try {
    const report = await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    const message = typeof report === "string" ? { message: report } : {};
    return { name, status: "up", critical, latency_ms: elapsed(), ...message };
  } catch (error) {
    // The check's own message names the problem (a refused connection, a timeout); it is about
    // our dependency, never about a client's data, and never shows a statement.
    const message = error instanceof Error ? errorLine(error) : "unreachable";
    return { name, status: "down", critical, latency_ms: elapsed(), message };
  } finally {
    clearTimeout(timer);
  }
}
