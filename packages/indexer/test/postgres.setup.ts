/**
 * The PostgreSQL server of a test run: TEST_DATABASE_URL's (a role allowed to CREATE DATABASE),
 * or, when it is unset, a throw-away server from npm started once for the run. Each test file
 * creates databases of its own on it.
 */
export { default } from "@collectibles/devkit/postgres-setup";
