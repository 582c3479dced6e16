import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  freePort,
  httpAnswers,
  killAllProcesses,
  listeningAddresses,
  portAnswers,
  runToEnd,
  startProcess,
} from "./processes.ts";

afterAll(killAllProcesses);

const node = (script: string, name = "script") =>
  startProcess({ name, command: process.execPath, args: ["-e", script] });

/** Whether a process with this id still exists. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("startProcess", () => {
  it("resolves waitForLine with the line once the process prints it", async () => {
    const child = node(
      `console.log("starting"); setTimeout(() => console.log("ready on 42"), 200); setInterval(() => {}, 1000);`,
    );
    expect(await child.waitForLine(/ready on \d+/, 5_000)).toBe("ready on 42");
    expect(child.tail()).toContain("starting");
    await child.stop();
  });

  it("rejects a wait with the output tail when the process exits first", async () => {
    const child = node(`console.error("cannot bind: address already in use"); process.exit(3);`);
    await expect(child.waitForLine(/^ready$/, 5_000)).rejects.toThrow(/address already in use/);
    expect(await child.exited).toEqual({ code: 3, signal: null });
  });

  it("waits until a check passes, for a server that needs time to listen", async () => {
    const port = await freePort();
    const child = node(
      `setTimeout(() => require("node:http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1"), 300);`,
    );
    await child.waitUntil("answering", () => httpAnswers(`http://127.0.0.1:${port}/`), 5_000);
    expect(await portAnswers(port)).toBe(true);
    await child.stop();
    expect(await portAnswers(port)).toBe(false);
  });

  it("stops the whole process group, killing what ignores the signal after the grace period", async () => {
    // A parent that ignores SIGTERM, with a grandchild that does too.
    const child = node(
      `process.on("SIGTERM", () => {});
       const grandchild = require("node:child_process").spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: "ignore" });
       console.log("grandchild " + grandchild.pid);
       setInterval(() => {}, 1000);`,
    );
    const grandchild = Number((await child.waitForLine(/^grandchild \d+/, 5_000)).split(" ")[1]);
    const result = await child.stop(300);
    expect(result.forced).toBe(true);
    expect(result.signal).toBe("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(grandchild)).toBe(false);
  });

  it("ends a stall: a paused process answers nothing until resumed", async () => {
    const port = await freePort();
    const child = node(
      `require("node:http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1", () => console.log("up"));`,
    );
    await child.waitForLine(/^up$/, 5_000);
    child.pause();
    expect(await httpAnswers(`http://127.0.0.1:${port}/`)).toBe(false);
    child.resume();
    expect(await httpAnswers(`http://127.0.0.1:${port}/`)).toBe(true);
    await child.stop();
  });

  it("passes a child's message on, over a channel of its own", async () => {
    const child = startProcess({
      name: "reporter",
      command: process.execPath,
      args: ["-e", `process.send({ url: "http://127.0.0.1:1" }); setInterval(() => {}, 1000);`],
      ipc: true,
      discardStdout: true,
    });
    expect(await child.nextMessage(5_000)).toEqual({ url: "http://127.0.0.1:1" });
    await child.stop();
  });

  it("sends a child a message over its channel and reads the answer", async () => {
    const child = startProcess({
      name: "echoer",
      command: process.execPath,
      args: ["-e", `process.on("message", (m) => process.send({ heard: m }));`],
      ipc: true,
      discardStdout: true,
    });
    child.send("memory");
    expect(await child.nextMessage(5_000)).toEqual({ heard: "memory" });
    await child.stop();
  });
});

describe("a parent killed with SIGKILL", () => {
  it("takes the processes it started down with it: each is asked to stop with its own signal", async () => {
    // A parent (in a group of its own) that starts a child the way pnpm start does, then is
    // killed with its whole group: no exit handler of its own runs.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "devkit-orphan-"));
    const stopped = path.join(dir, "stopped");
    const child = `process.on("SIGINT", () => { require("node:fs").writeFileSync(${JSON.stringify(stopped)}, "SIGINT"); process.exit(0); }); console.log("ready"); setInterval(() => {}, 1000);`;
    const parent = node(
      `const { startProcess } = await import(${JSON.stringify(path.join(import.meta.dirname, "processes.ts"))});
       const child = startProcess({ name: "child", command: process.execPath, args: ["-e", ${JSON.stringify(child)}], stopSignal: "SIGINT" });
       await child.waitForLine(/^ready$/, 10_000);
       console.log("child " + child.pid);
       setInterval(() => {}, 1000);`,
      "parent",
    );
    const pid = Number((await parent.waitForLine(/^child \d+/, 10_000)).split(" ")[1]);
    expect(alive(pid)).toBe(true);
    process.kill(-parent.pid, "SIGKILL");
    await parent.exited;
    const deadline = Date.now() + 15_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(pid)).toBe(false);
    expect(fs.readFileSync(stopped, "utf8")).toBe("SIGINT");
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("runToEnd", () => {
  it("answers the exit code and everything printed, and kills a command past its time", async () => {
    const done = await runToEnd({
      name: "echo",
      command: process.execPath,
      args: ["-e", `console.log("one"); console.error("two"); process.stdout.write("three")`],
      timeoutMs: 5_000,
    });
    expect(done.code).toBe(0);
    expect(done.output.trim().split("\n").sort()).toEqual(["one", "three", "two"]);
    const stuck = await runToEnd({
      name: "stuck",
      command: process.execPath,
      args: ["-e", "setInterval(() => {}, 1000)"],
      timeoutMs: 300,
    });
    expect(stuck.signal).toBe("SIGTERM");
  });
});

describe("listeningAddresses", () => {
  it("tells which address a server listens on", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    expect(listeningAddresses(port)).toEqual(["127.0.0.1"]);
    await new Promise((resolve) => server.close(resolve));
    expect(listeningAddresses(port)).toEqual([]);

    const everywhere = net.createServer();
    await new Promise<void>((resolve) => everywhere.listen(0, "0.0.0.0", resolve));
    const open = (everywhere.address() as net.AddressInfo).port;
    expect(listeningAddresses(open)).toEqual(["0.0.0.0"]);
    await new Promise((resolve) => everywhere.close(resolve));
  });
});
