/**
 * The API loads sharp (and with it libvips, some 29 MiB of RSS) with the first image it stores,
 * not at start: an API that only reads never holds it.
 */
import fs from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { apiProcessesPerFile, jsonOf } from "../test/apiProcess.ts";

const ADMIN_KEY = "ck_test_sharponfirstimagesharpon01";

const { start, call } = apiProcessesPerFile({ name: "sharp", apiKey: ADMIN_KEY });

const holdsLibvips = (pid: number) =>
  fs.readFileSync(`/proc/${pid}/maps`, "utf8").includes("libvips");

describe("the API process", () => {
  it("holds no libvips until it stores an image, then stores it", async () => {
    const api = await start();
    expect((await call(api.url, "GET", "/organizations")).status).toBe(200);
    expect((await call(api.url, "POST", "/organizations", { name: "No logo" })).status).toBe(201);
    expect(holdsLibvips(api.process.pid)).toBe(false);

    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: "#336699" },
    })
      .png()
      .toBuffer();
    const created = await call(api.url, "POST", "/organizations", {
      name: "Logo",
      logo: `data:image/png;base64,${png.toString("base64")}`,
    });
    expect(created.status).toBe(201);
    expect(Object.keys((await jsonOf(created)).data.logo)).toContain("thumb");
    expect(holdsLibvips(api.process.pid)).toBe(true);
    await api.process.stop();
  }, 120_000);
});
