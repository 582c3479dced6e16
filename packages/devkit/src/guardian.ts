/**
 * Child process groups die with the process that started them, however it dies. Each child runs
 * in a group of its own (so that stopping it stops what it started), which means a SIGKILL of the
 * parent, or of the parent's whole group (a terminal closing, a supervisor giving up), reaches
 * none of them, and no exit handler runs to stop them: the chain, the indexer and the API would
 * run on as orphans, on the data folder and the ports.
 *
 * So the first child also starts a guardian: a small shell in a group of its own (a kill of the
 * parent's group spares it) reading a pipe from the parent, on which the parent names each group
 * it starts and each that ended. The kernel closes the parent's end of the pipe whenever the
 * parent dies; the guardian then reads end-of-file, asks every group still listed to stop with
 * its own signal (anvil writes its state on SIGINT, Ponder releases its lock), and kills what is
 * left of them after a grace period. It costs one `sh` (about a megabyte) per parent process.
 */
import { type ChildProcess, spawn } from "node:child_process";

/** How long the groups get to stop on their own, in tenths of a second, before SIGKILL. */
const GRACE_TENTHS = 100;

// Lines are `add <pgid> <SIGNAL>` and `del <pgid>`; signals by name without "SIG".
const SCRIPT = `
trap '' INT TERM HUP
groups=""
while read -r op pid signal; do
  case "$op" in
    add) groups="$groups $pid:$signal" ;;
    del) kept=""; for g in $groups; do [ "\${g%%:*}" = "$pid" ] || kept="$kept $g"; done; groups=$kept ;;
  esac
done
for g in $groups; do
  kill -s CONT -- "-\${g%%:*}" 2>/dev/null
  kill -s "\${g#*:}" -- "-\${g%%:*}" 2>/dev/null
done
tries=0
while [ -n "$groups" ] && [ "$tries" -lt ${GRACE_TENTHS} ]; do
  sleep 0.1
  tries=$((tries + 1))
  left=""
  for g in $groups; do kill -s 0 -- "-\${g%%:*}" 2>/dev/null && left="$left $g"; done
  groups=$left
done
for g in $groups; do kill -s KILL -- "-\${g%%:*}" 2>/dev/null; done
`;

let guardian: ChildProcess | undefined;

function tell(line: string): void {
  if (!guardian) {
    guardian = spawn("sh", ["-c", SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
    // It must never keep this process alive, nor fail it if it was killed.
    guardian.unref();
    guardian.stdin?.on("error", () => {});
    (guardian.stdin as { unref?(): void } | null)?.unref?.();
  }
  guardian.stdin?.write(`${line}\n`);
}

/** The group `pgid` is stopped with `signal` (then killed) when this process dies. */
export function guardGroup(pgid: number, signal: NodeJS.Signals): void {
  tell(`add ${pgid} ${signal.replace(/^SIG/, "")}`);
}

/** The group `pgid` ended: its number may be another group's later. */
export function releaseGroup(pgid: number): void {
  tell(`del ${pgid}`);
}

/** The guardian's pid, once there is one: a later start waits while it stops what is left. */
export function guardianPid(): number | undefined {
  return guardian?.pid;
}
