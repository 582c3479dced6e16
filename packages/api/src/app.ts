/**
 * Builds the Express app from its dependencies. Nothing here listens or reads the environment:
 * `index.ts` does that, and tests build as many apps as they like.
 */
import express, { type Express } from "express";
import pLimit from "p-limit";
import type { AppDeps, RouteDeps } from "./deps.ts";
import { mountEndpoints } from "./http/mountEndpoints.ts";
import { undocumented } from "./http/responseAudit.ts";
import { createMetrics } from "./metrics.ts";
import { errorHandler, notFoundHandler } from "./middleware/errorHandler.ts";
import { refuseMalformedQuery } from "./middleware/queryEncoding.ts";
import { requestLogger } from "./middleware/requestLogger.ts";
import { docsRouter } from "./routes/docs.ts";
import { endpoints, openApiDocument } from "./routes/endpoints.ts";

export type { AppDeps, ChainServices, ReadinessCheck } from "./deps.ts";

/**
 * Claim transactions at once. Claims of one collectible queue on its row lock anyway, and a few
 * keep the database busy while leaving room for the relayer's and readers' queries.
 */
const CLAIM_TRANSACTIONS = 4;

/** What the handlers get, made from the app's dependencies (also for work outside requests). */
export function routeDepsOf(appDeps: AppDeps): RouteDeps {
  const deps: RouteDeps = {
    ...appDeps,
    claimTransactions: pLimit(CLAIM_TRANSACTIONS),
    openApiDocument,
    metrics: createMetrics(appDeps),
  };
  return deps;
}

export function createApp(appDeps: AppDeps): Express {
  const deps = routeDepsOf(appDeps);
  const app = express();
  app.disable("x-powered-by");
  // Conditional answers are declared where they make sense (images), not hashed for every body.
  app.disable("etag");
  // Ids in paths are matched exactly; `/Organizations` is not `/organizations`.
  app.set("case sensitive routing", true);
  app.set("strict routing", false);
  // The client address (per-address rate limit) is the peer's unless proxies are trusted.
  app.set("trust proxy", trustProxy(deps.config.TRUST_PROXY));

  app.use(requestLogger(deps.logger));
  app.use(deps.metrics.observe);
  const audit = deps.auditResponse;
  if (audit) {
    app.use((_req, res, next) => {
      res.once("finish", () => {
        const spec = res.locals.endpoint;
        if (spec) audit(undocumented(spec, res.statusCode, res.getHeaderNames()));
      });
      next();
    });
  }
  app.use((_req, res, next) => {
    res.set("X-Content-Type-Options", "nosniff");
    next();
  });
  app.use(refuseMalformedQuery);

  app.use(docsRouter());
  app.use(mountEndpoints(endpoints, deps));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}

/** TRUST_PROXY as Express reads it: a hop count, or addresses and subnets. */
function trustProxy(value: string | undefined): number | string[] | false {
  if (!value) return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(",").map((part) => part.trim());
}
