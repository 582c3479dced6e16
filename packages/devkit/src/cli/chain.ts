/**
 * `pnpm chain`: only the local chain (anvil), on CHAIN_PORT (default 8545), chain id 31337, in
 * the foreground until Ctrl-C. With CHAIN_STATE=<file> it continues the chain kept in that file.
 */
import { startLocalChain } from "../localChain.ts";
import { portFrom, stopProcessesYourselfOnSignals } from "../processes.ts";

let port: number;
try {
  port = portFrom(process.env, "CHAIN_PORT", 8545);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
const stateFile = process.env.CHAIN_STATE || undefined;
// Ctrl-C stops the chain below, after its state is saved, instead of killing it at once.
stopProcessesYourselfOnSignals();
const chain = await startLocalChain({ port, stateFile });
process.stdout.write(
  `Local chain (anvil) at ${chain.rpcUrl}, chain id ${chain.chainId}` +
    `${stateFile ? `, state in ${stateFile}` : ", not kept after it stops"}. Ctrl-C stops it.\n`,
);
// The chain's process handle does not hold this one open (a test must never hang on one): this
// does, until Ctrl-C, or until the chain ends by itself, which is a failure.
const keepAlive = setInterval(() => {}, 60_000);
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  // A second Ctrl-C (or pnpm passing the first one on) must not end it before the state is saved.
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void chain.stop().then(() => process.exit(0));
  });
}
void chain.process.exited.then((exit) => {
  if (stopping) return;
  clearInterval(keepAlive);
  process.stderr.write(`the chain exited by itself (${exit.signal ?? exit.code})\n`);
  process.exit(1);
});
