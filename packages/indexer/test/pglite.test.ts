import { defineIndexerSuite } from "./indexerSuite.ts";

defineIndexerSuite("pglite");
