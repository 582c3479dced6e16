// Ponder requires an API file; the baseline serves only Ponder's own routes.
import { Hono } from "hono";

export default new Hono();
