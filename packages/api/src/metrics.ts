/**
 * GET /metrics in the Prometheus text format (prom-client), behind an admin key like key
 * management. Everything is wired here: requests are counted and timed by the endpoint that
 * answered (its path template, never the raw path), and the rest is read when Prometheus
 * scrapes, from what the service already keeps: the relayer's backlog and the webhook queue from
 * the database, transactions in flight from the relayer's sender, the indexer's lag from the
 * chain and the indexer, and the connection pool from the driver. Each app has its own registry.
 */
import type { RequestHandler } from "express";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { confirmedNotFinal } from "./db/finality.ts";
import { poolConnections, relayerBacklog, webhookQueue } from "./db/metrics.ts";
import type { AppDeps, MetricsService } from "./deps.ts";

const PREFIX = "collectibles_";
/** A scrape's reads of the chain and the indexer give up after this: a stalled part is absent. */
const READ_TIMEOUT_MS = 1_000;

type MetricsDeps = Pick<AppDeps, "db" | "chain" | "logger">;

/**
 * The metrics of one app, made on its first request: route dependencies made for work outside
 * requests (the webhook sender's) never start prom-client's default collectors.
 */
export function createMetrics(deps: MetricsDeps): MetricsService {
  let made: ReturnType<typeof makeMetrics> | undefined;
  const metrics = () => {
    made ??= makeMetrics(deps);
    return made;
  };
  return {
    observe: (req, res, next) => metrics().observe(req, res, next),
    contentType: Registry.PROMETHEUS_CONTENT_TYPE,
    scrape: () => metrics().registry.metrics(),
  };
}

function makeMetrics(deps: MetricsDeps) {
  const registers = [new Registry()];
  const [registry] = registers as [Registry];
  collectDefaultMetrics({ register: registry });

  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: "HTTP requests answered, by method, route (the endpoint's path template) and status",
    labelNames,
    registers,
  });
  const duration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "Time from a request's arrival to its answer's end, by method, route and status",
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });

  const warn = (what: string) => (error: unknown) =>
    deps.logger.warn({ err: error }, `metrics: could not read ${what}`);

  /**
   * Two gauges by one label, both set from the rows of one query: the first gauge's collect reads
   * them, and the second's, which prom-client runs next in the same scrape, uses that read.
   */
  const gaugePairFromRows = <Row>(
    label: string,
    what: string,
    [first, second]: [GaugeText, GaugeText],
    read: () => Promise<Row[]>,
    valuesOf: (row: Row) => [labelValue: string, first: number, second: number],
  ) => {
    let latest: Promise<Row[] | undefined> | undefined;
    const readRows = () =>
      read().catch((error) => {
        warn(what)(error);
        return undefined;
      });
    const fill = (gauge: Gauge, rows: Row[] | undefined, which: 1 | 2) => {
      gauge.reset();
      for (const row of rows ?? []) {
        const values = valuesOf(row);
        gauge.set({ [label]: values[0] }, values[which]);
      }
    };
    for (const [text, which] of [
      [first, 1],
      [second, 2],
    ] as const) {
      new Gauge({
        ...text,
        name: PREFIX + text.name,
        labelNames: [label],
        registers,
        async collect() {
          if (which === 1 || !latest) latest = readRows();
          fill(this, await latest, which);
        },
      });
    }
  };

  gaugePairFromRows(
    "kind",
    "the relayer backlog",
    [
      {
        name: "relayer_pending",
        help: "Collectibles and claims accepted and not yet confirmed (the relayer's backlog), by kind",
      },
      {
        name: "relayer_oldest_pending_seconds",
        help: "Age of the oldest pending collectible or claim, by kind (0 when none is pending)",
      },
    ],
    () => relayerBacklog(deps.db),
    ({ kind, pending, oldestSeconds }) => [kind, pending, oldestSeconds],
  );
  new Gauge({
    name: `${PREFIX}relayer_transactions_in_flight`,
    help: "Transactions this process's relayer has sent and not yet seen mined",
    registers,
    collect() {
      this.set(deps.chain?.client.transactionsInFlight?.() ?? 0);
    },
  });
  new Gauge({
    name: `${PREFIX}relayer_max_fee_per_gas_gwei`,
    help: "The highest max fee per gas a transaction in flight offers (0 when none is in flight)",
    registers,
    collect() {
      this.set(gwei(deps.chain?.client.highestFeeInFlight?.() ?? 0n));
    },
  });
  if (deps.chain?.client.maxFeePerGas !== undefined) {
    const cap = gwei(deps.chain.client.maxFeePerGas);
    new Gauge({
      name: `${PREFIX}relayer_fee_cap_gwei`,
      help: "MAX_FEE_PER_GAS_GWEI: the relayer never offers more; a transaction there is stuck",
      registers,
      collect() {
        this.set(cap);
      },
    });
  }
  if (deps.chain?.indexer) {
    const { client, indexer } = deps.chain;
    new Gauge({
      name: `${PREFIX}indexer_lag_blocks`,
      help: "Blocks the indexer is behind the chain's head (absent while either does not answer)",
      registers,
      async collect() {
        this.reset();
        const [head, indexed] = await Promise.all([
          within(client.blockNumber()),
          within(indexer.indexedBlock()),
        ]);
        if (typeof head === "bigint" && typeof indexed === "bigint") {
          this.set(Number(head - indexed));
        }
      },
    });
  }

  new Gauge({
    name: `${PREFIX}confirmed_not_final`,
    help: "Collectibles and claims confirmed whose block is not final yet (a reorg can take them back), by kind",
    labelNames: ["kind"],
    registers,
    async collect() {
      this.reset();
      const open = await confirmedNotFinal(deps.db).catch(warn("the objects not final"));
      if (open) {
        this.set({ kind: "collectible" }, open.collectibles);
        this.set({ kind: "claim" }, open.claims);
      }
    },
  });
  new Gauge({
    name: `${PREFIX}last_reorg_depth_blocks`,
    help: "Blocks replaced by the last reorg that took back mined objects since start (0: none seen)",
    registers,
    collect() {
      this.set(deps.chain?.lastReorg()?.depth ?? 0);
    },
  });

  gaugePairFromRows(
    "status",
    "the webhook queue",
    [
      {
        name: "webhook_messages",
        help: "Webhook messages by status: pending is the queue still to deliver, failed gave up",
      },
      {
        name: "webhook_attempts",
        help: "Delivery attempts made on the webhook messages of each status",
      },
    ],
    () => webhookQueue(deps.db),
    ({ status, messages, attempts }) => [status, messages, attempts],
  );

  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: "The database connection pool: total open, idle, and requests waiting for a connection",
    labelNames: ["state"],
    registers,
    collect() {
      const { total, idle, waiting } = poolConnections(deps.db);
      this.set({ state: "total" }, total);
      this.set({ state: "idle" }, idle);
      this.set({ state: "waiting" }, waiting);
    },
  });

  const observe: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      // Requests no endpoint answered (unknown paths, /docs) share one label.
      const route = res.locals.endpoint?.path ?? "other";
      const labels = { method: req.method, route, status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };

  return { observe, registry };
}

/** A gauge's name (after the prefix) and help. */
interface GaugeText {
  name: string;
  help: string;
}

const gwei = (wei: bigint) => Number(wei) / 1e9;

function within<T>(promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, READ_TIMEOUT_MS, undefined);
  });
  return Promise.race([promise.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}
