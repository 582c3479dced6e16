// On TEST_DATABASE_URL's server, else on the throw-away one postgres.setup.ts starts for the run.
import { defineIndexerSuite } from "./indexerSuite.ts";

defineIndexerSuite();
