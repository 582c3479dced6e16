/**
 * The PostgreSQL server of an e2e run, for the stacks started with a DATABASE_URL of their own:
 * TEST_DATABASE_URL's (a role allowed to CREATE DATABASE), or, when it is unset, a throw-away
 * server from npm started once for the run. Each test creates its databases on it. The default
 * stacks need none of this: `pnpm start` runs its own PostgreSQL in its data folder.
 */
export { default } from "@collectibles/devkit/postgres-setup";
