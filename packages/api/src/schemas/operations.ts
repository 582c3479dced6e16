/** Liveness and readiness answers (validation, types and the OpenAPI document). */
import { z } from "./zod.ts";

export const CheckResult = z
  .strictObject({
    name: z.string().openapi({ example: "database" }),
    status: z.enum(["up", "down"]),
    critical: z.boolean(),
    latency_ms: z.number().int().min(0),
    message: z.string().optional().openapi({
      description:
        "Why it is down; for `sync`, also when up: chain head, indexed block, block the holders are followed to, and relayer backlog",
    }),
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

export const NotReady = z
  .strictObject({
    error: z.strictObject({
      code: z.literal("not_ready"),
      message: z.string(),
      details: z.array(CheckResult),
    }),
  })
  .openapi("NotReady");
