/**
 * How the API starts PGlite: PostgreSQL's own defaults for the embedded database, but a 32 MB
 * buffer pool. The default, 128 MB, is WebAssembly memory the process holds from the start:
 * PGlite alone on the list benchmark's 100,000 claims took 299 MiB RSS once open, 191 MiB with
 * 32 MB. Pages it does not hold are read from the data folder through the operating system's
 * cache: 1,000 pages of claims took 4% more CPU (with 16 MB, 32% more).
 */
import { PGlite } from "@electric-sql/pglite";

export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"];
