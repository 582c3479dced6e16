/**
 * GET /health: the process answers (liveness). GET /ready: the dependencies answer (readiness).
 * A failing critical check (the database) answers 503; a failing optional one (chain, indexer)
 * answers 200 with status "degraded", naming what is down.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { Router } from "express";
import type { AppDeps, ReadinessCheck } from "../deps.ts";
import { z } from "../openapi/zod.ts";
import { ErrorResponse } from "./shared.ts";

const CHECK_TIMEOUT_MS = 2000;

export const CheckResult = z
  .strictObject({
    name: z.string().openapi({ example: "database" }),
    status: z.enum(["up", "down"]),
    critical: z.boolean(),
    latency_ms: z.number().int().min(0),
    message: z.string().optional().openapi({ description: "Why it is down" }),
  })
  .openapi("CheckResult");

export const Health = z
  .strictObject({ data: z.strictObject({ status: z.literal("ok") }) })
  .openapi("Health");

export const Readiness = z
  .strictObject({
    data: z.strictObject({
      status: z.enum(["ready", "degraded"]),
      checks: z.array(CheckResult),
    }),
  })
  .openapi("Readiness");

async function runCheck({ name, critical, check }: ReadinessCheck) {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return { name, status: "up" as const, critical, latency_ms: elapsed(started) };
  } catch (error) {
    // The check's own message names the problem (a refused connection, a timeout); it is about
    // our dependency, never about a client's data.
    const message = error instanceof Error ? error.message.split("\n")[0] : "unreachable";
    return { name, status: "down" as const, critical, latency_ms: elapsed(started), message };
  } finally {
    clearTimeout(timer);
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

export function healthRouter(deps: AppDeps): Router {
  const router = Router();
  router.get("/health", (_req, res) => {
    res.json({ data: { status: "ok" } });
  });
  router.get("/ready", async (_req, res) => {
    const checks = await Promise.all(deps.readiness.map(runCheck));
    const down = checks.filter((check) => check.status === "down");
    res.set("Cache-Control", "no-store");
    if (down.some((check) => check.critical)) {
      const names = down.map((check) => check.name).join(", ");
      res.status(503).json({
        error: { code: "not_ready", message: `Unavailable: ${names} down`, details: checks },
      });
      return;
    }
    res.json({ data: { status: down.length > 0 ? "degraded" : "ready", checks } });
  });
  return router;
}

export function registerHealthOpenApi(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/health",
    tags: ["Operations"],
    summary: "Liveness: the process answers",
    responses: {
      200: { description: "Alive", content: { "application/json": { schema: Health } } },
    },
  });
  registry.registerPath({
    method: "get",
    path: "/ready",
    tags: ["Operations"],
    summary: "Readiness: database, and chain and indexer when configured",
    responses: {
      200: {
        description: "Ready, or degraded when an optional dependency is down",
        content: { "application/json": { schema: Readiness } },
      },
      503: {
        description: "A critical dependency (the database) is down; details list every check",
        content: { "application/json": { schema: ErrorResponse } },
      },
    },
  });
}
