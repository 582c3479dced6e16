/**
 * HTTP routes the indexer serves besides Ponder's own `/health`, `/ready`, `/status` and
 * `/metrics`: read-only SQL over HTTP at `/sql/*`, the one way other processes read the tables
 * (`@ponder/client`).
 */
import { db } from "ponder:api";
import schema from "ponder:schema";
import { Hono } from "hono";
import { client } from "ponder";

const app = new Hono();

app.use("/sql/*", client({ db, schema }));

export default app;
