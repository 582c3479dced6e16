/**
 * `pnpm start` keeps everything across Ctrl-C and a second start, on non-default ports while
 * something else listens on the default ones, and `pnpm start --fresh` wipes it and says what.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmed, confirmedCollectible } from "./confirmations.ts";
import { apiOf, killStacks, startStack } from "./localStack.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-restart-"));
const squatters: net.Server[] = [];

beforeAll(async () => {
  // Something else on the default ports: pnpm start must not need them.
  for (const port of [3000, 8545, 42069]) {
    const server = net.createServer();
    await new Promise<void>((resolve) => {
      server.once("error", () => resolve()); // already taken by someone else: as good
      server.listen(port, "127.0.0.1", () => resolve());
    });
    squatters.push(server);
  }
});
afterAll(() => {
  killStacks();
  for (const server of squatters) server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("pnpm start on non-default ports", () => {
  it("keeps every object, key and wallet across Ctrl-C and a second start; --fresh wipes them", async () => {
    const first = await startStack({ dataDir });
    expect(first.lines.join("\n")).toContain("starting fresh");
    const key = first.printedKey();
    expect(key).toBeDefined();
    let api = apiOf(first, key as string);
    const { org, collectible } = await confirmedCollectible(api, "Keeps", "Kept", 5);
    const user = (await api("POST", "/users", { organization_id: org.id, email: "k@e2e.example" }))
      .body.data;
    const claim = await api("POST", "/claims", {
      collectible_id: collectible.id,
      holder_id: user.id,
    });
    await confirmed(api, `/claims/${claim.body.data.id}`);
    await first.stop();

    const second = await startStack({ dataDir });
    const said = second.lines.join("\n");
    expect(said).toContain("resuming the local chain and data");
    expect(said).not.toContain("did not stop cleanly");
    expect(second.printedKey()).toBeUndefined();
    api = apiOf(second, key as string);
    expect((await api("GET", `/organizations/${org.id}`)).body.data.wallet_address).toBe(
      org.wallet_address,
    );
    expect((await api("GET", `/users/${user.id}`)).body.data.wallet_address).toBe(
      user.wallet_address,
    );
    expect((await api("GET", `/claims/${claim.body.data.id}`)).body.data).toMatchObject({
      status: "confirmed",
      edition: 1,
    });
    const again = await api("POST", "/claims", {
      collectible_id: collectible.id,
      email: "second@e2e.example",
    });
    expect(await confirmed(api, `/claims/${again.body.data.id}`)).toMatchObject({ edition: 2 });
    expect((await api("GET", `/collectibles/${collectible.id}`)).body.data.claimed_count).toBe(2);
    await second.stop();

    const fresh = await startStack({ dataDir, args: ["--fresh"] });
    const wiped = fresh.lines.join("\n");
    expect(wiped).toContain("--fresh: removed the local chain");
    expect(wiped).toContain("--fresh: removed the API's database, mnemonic, API keys and images");
    expect(fresh.printedKey()).not.toBe(key);
    expect((await apiOf(fresh, key as string)("GET", "/organizations")).status).toBe(401);
    await fresh.stop();
  });
});
