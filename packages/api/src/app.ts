/**
 * Builds the Express app from its dependencies. Nothing here listens or reads the environment:
 * `index.ts` does that, and tests build as many apps as they like.
 */
import express, { type Express } from "express";
import { ConcurrencyLimit } from "./db/concurrencyLimit.ts";
import { ListCounts } from "./db/listCounts.ts";
import type { AppDeps, RouteDeps } from "./deps.ts";
import { authenticate } from "./middleware/auth.ts";
import { errorHandler, notFoundHandler } from "./middleware/errorHandler.ts";
import { rateLimitPerKey } from "./middleware/rateLimit.ts";
import { requestLogger } from "./middleware/requestLogger.ts";
import { claimsRouter } from "./routes/claims.ts";
import { collectiblesRouter } from "./routes/collectibles.ts";
import { docsRouter } from "./routes/docs.ts";
import { healthRouter } from "./routes/health.ts";
import { imagesRouter } from "./routes/images.ts";
import { organizationsRouter } from "./routes/organizations.ts";
import { usersRouter } from "./routes/users.ts";

export type { AppDeps, ChainServices, ReadinessCheck } from "./deps.ts";

/** Methods that only read; any other request may change what a list counts. */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Claim transactions at once. Claims of one collectible queue on its row lock anyway, and a few
 * keep the database busy while leaving room for the relayer's and readers' queries.
 */
const CLAIM_TRANSACTIONS = 4;

export function createApp(appDeps: AppDeps): Express {
  const deps: RouteDeps = {
    ...appDeps,
    counts: new ListCounts(),
    claimTransactions: new ConcurrencyLimit(CLAIM_TRANSACTIONS),
  };
  const app = express();
  app.disable("x-powered-by");
  // Ids in paths are matched exactly; `/Organizations` is not `/organizations`.
  app.set("case sensitive routing", true);
  app.set("strict routing", false);

  app.use(requestLogger(deps.logger));
  app.use((req, res, next) => {
    // On "close", which also ends aborted requests: a write may commit before its client leaves.
    if (!READS.has(req.method)) res.once("close", () => deps.counts.invalidate());
    next();
  });
  app.use((_req, res, next) => {
    res.set("X-Content-Type-Options", "nosniff");
    next();
  });

  // Public: operations, documentation, images (their URLs are unguessable).
  app.use(healthRouter(deps));
  app.use(docsRouter());
  app.use(imagesRouter(deps));

  // Everything else needs an API key and counts against its rate limit.
  const guard = [
    authenticate(deps.db),
    rateLimitPerKey({
      max: deps.config.RATE_LIMIT_MAX,
      windowMs: deps.config.RATE_LIMIT_WINDOW_MS,
    }),
  ];
  app.use("/organizations", ...guard, organizationsRouter(deps));
  app.use("/users", ...guard, usersRouter(deps));
  app.use("/collectibles", ...guard, collectiblesRouter(deps));
  app.use("/claims", ...guard, claimsRouter(deps));

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
