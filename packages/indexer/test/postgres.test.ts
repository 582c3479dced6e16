// Needs PostgreSQL at TEST_DATABASE_URL (default: the server scripts/ci-postgres.sh starts). It fails,
// never skips, when the server is unreachable: a green run always covers both databases.
import { defineIndexerSuite } from "./indexerSuite.ts";

defineIndexerSuite("postgres");
