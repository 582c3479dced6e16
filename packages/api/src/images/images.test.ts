import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expect400Naming } from "../test/refusals.ts";
import { startTestApp, type TestApp } from "../test/testApp.ts";
import { sniffImageType } from "./sniffImageType.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function image(width: number, height: number, format: "png" | "jpeg" | "webp" | "gif") {
  return sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } },
  })
    .toFormat(format)
    .toBuffer();
}

const dataUri = (bytes: Buffer, type: string) => `data:${type};base64,${bytes.toString("base64")}`;

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);

/** Fetches every variant of an image field and answers their pixel sizes and headers. */
async function variants(urls: Record<string, string>) {
  const result: Record<string, { width?: number; height?: number; type: string | null }> = {};
  for (const [variant, url] of Object.entries(urls)) {
    const res = await fetch(url);
    expect(res.status, url).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    result[variant] = {
      width: meta.width,
      height: meta.height,
      type: res.headers.get("content-type"),
    };
  }
  return result;
}

describe("organization images", () => {
  it("accepts a logo as a data: URI and serves the original and four sized WebP variants", async () => {
    const png = await image(2000, 1000, "png");
    const res = await t.call("POST", "/organizations", {
      json: { name: "Logo Co", logo: dataUri(png, "image/png") },
    });
    expect(res.status).toBe(201);
    const { logo, cover } = res.body.data;
    expect(cover).toBeNull();
    expect(Object.keys(logo).sort()).toEqual(["large", "medium", "original", "small", "thumb"]);
    expect(logo.large).toMatch(new RegExp(`^${t.url}/images/[0-9a-f-]{36}/large\\.webp$`));
    expect(await variants(logo)).toEqual({
      large: { width: 1024, height: 512, type: "image/webp" },
      medium: { width: 512, height: 256, type: "image/webp" },
      small: { width: 256, height: 128, type: "image/webp" },
      thumb: { width: 128, height: 128, type: "image/webp" },
      original: { width: 2000, height: 1000, type: "image/png" },
    });
    const original = Buffer.from(await (await fetch(logo.original)).arrayBuffer());
    expect(original.equals(png)).toBe(true);
  });

  it("accepts logo and cover as multipart files, never enlarging small images", async () => {
    const form = new FormData();
    form.set("name", "Multipart Co");
    form.set("external_id", "mp-1");
    form.set("logo", new Blob([await image(300, 600, "jpeg")]), "logo.jpg");
    form.set("cover", new Blob([await image(100, 50, "webp")]), "cover.webp");
    const res = await t.call("POST", "/organizations", { body: form });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ name: "Multipart Co", external_id: "mp-1" });
    const logo = await variants(res.body.data.logo);
    expect(logo.large).toMatchObject({ width: 300, height: 600 });
    expect(logo.medium).toMatchObject({ width: 256, height: 512 });
    expect(logo.small).toMatchObject({ width: 128, height: 256 });
    expect(logo.thumb).toMatchObject({ width: 128, height: 128 });
    expect(logo.original).toMatchObject({ width: 300, height: 600, type: "image/jpeg" });
    const cover = await variants(res.body.data.cover);
    expect(cover.large).toMatchObject({ width: 100, height: 50 });
    expect(cover.original).toMatchObject({ type: "image/webp" });
  });

  it("accepts GIF images", async () => {
    const res = await t.call("POST", "/organizations", {
      json: { name: "Gif Co", cover: dataUri(await image(64, 64, "gif"), "image/gif") },
    });
    expect(res.status).toBe(201);
    expect((await variants(res.body.data.cover)).original?.type).toBe("image/gif");
  });

  it("answers 400 for SVG, whatever type it claims, as data: URI or file", async () => {
    for (const type of ["image/svg+xml", "image/png"]) {
      const res = await t.call("POST", "/organizations", {
        json: { name: "Svg Co", logo: dataUri(SVG, type) },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("unsupported_image_type");
      expect(res.body.error.details[0].field).toBe("logo");
    }
    const form = new FormData();
    form.set("name", "Svg Co");
    form.set("cover", new Blob([SVG], { type: "image/png" }), "cover.png");
    const res = await t.call("POST", "/organizations", { body: form });
    expect400Naming(res, "cover");
  });

  it("answers 400 for a corrupt image with a valid signature", async () => {
    const png = await image(50, 50, "png");
    const corrupt = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]);
    const res = await t.call("POST", "/organizations", {
      json: { name: "Broken", logo: dataUri(corrupt, "image/png") },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_image");
  });

  it("answers 400 for an image of more than 40 megapixels (a decompression bomb)", async () => {
    const bomb = await sharp({
      create: { width: 8000, height: 6000, channels: 3, background: "#000" },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(500_000);
    const res = await t.call("POST", "/organizations", {
      json: { name: "Bomb", logo: dataUri(bomb, "image/png") },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_image", details: [{ field: "logo" }] });
  });

  it("answers 400 for a remote URL, which is never fetched", async () => {
    for (const logo of ["https://example.com/logo.png", "http://127.0.0.1/logo.png"]) {
      const res = await t.call("POST", "/organizations", { json: { name: "Remote", logo } });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0]).toMatchObject({ field: "logo", code: "invalid_data_uri" });
    }
    const notBase64 = await t.call("POST", "/organizations", {
      json: { name: "Remote", logo: "data:image/png,rawbytes" },
    });
    expect(notBase64.status).toBe(400);
  });

  it("answers 413 for an image over MAX_IMAGE_BYTES, as data: URI or file", async () => {
    const server = await t.startSibling({ env: { MAX_IMAGE_BYTES: "2048" } });
    const big = await sharp({
      create: {
        width: 40,
        height: 40,
        channels: 3,
        background: "#000",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(2048);
    const json = await server.call("POST", "/organizations", {
      json: { name: "Big", logo: dataUri(big, "image/png") },
    });
    expect(json.status).toBe(413);
    expect(json.body.error).toMatchObject({
      code: "image_too_large",
      details: [expect.objectContaining({ field: "logo" })],
    });
    const form = new FormData();
    form.set("name", "Big");
    form.set("logo", new Blob([big]), "big.png");
    const multipart = await server.call("POST", "/organizations", { body: form });
    expect(multipart.status).toBe(413);
    expect(multipart.body.error.details[0].field).toBe("logo");
  });

  it("answers 400 for an unexpected file field or an image sent twice", async () => {
    const png = await image(20, 20, "png");
    const unexpected = new FormData();
    unexpected.set("name", "Extra");
    unexpected.set("avatar", new Blob([png]), "a.png");
    const res = await t.call("POST", "/organizations", { body: unexpected });
    expect400Naming(res, "avatar");

    const twice = new FormData();
    twice.set("name", "Twice");
    twice.set("logo", new Blob([png]), "a.png");
    twice.set("logo", dataUri(png, "image/png"));
    twice.append("logo", new Blob([png]), "b.png");
    const second = await t.call("POST", "/organizations", { body: twice });
    expect(second.status).toBe(400);
  });

  it("replaces and removes images with PATCH, deleting the old files", async () => {
    const created = await t.call("POST", "/organizations", {
      json: { name: "Changing", logo: dataUri(await image(40, 40, "png"), "image/png") },
    });
    const oldLogo = created.body.data.logo;
    const replaced = await t.call("PATCH", `/organizations/${created.body.data.id}`, {
      json: { logo: dataUri(await image(80, 40, "jpeg"), "image/jpeg") },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.logo.original).not.toBe(oldLogo.original);
    expect((await variants(replaced.body.data.logo)).large).toMatchObject({
      width: 80,
      height: 40,
    });
    expect((await fetch(oldLogo.large)).status).toBe(404);

    const removed = await t.call("PATCH", `/organizations/${created.body.data.id}`, {
      json: { logo: null },
    });
    expect(removed.body.data.logo).toBeNull();
    expect((await fetch(replaced.body.data.logo.thumb)).status).toBe(404);
  });

  it("accepts a new cover as a multipart file in PATCH", async () => {
    const created = await t.call("POST", "/organizations", { json: { name: "Patch Form" } });
    const form = new FormData();
    form.set("description", "now with a cover");
    form.set("cover", new Blob([await image(600, 300, "png")]), "cover.png");
    const res = await t.call("PATCH", `/organizations/${created.body.data.id}`, { body: form });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ description: "now with a cover", logo: null });
    expect((await variants(res.body.data.cover)).medium).toMatchObject({ width: 512, height: 256 });
  });

  it("answers 404 JSON for unknown images and paths outside the store", async () => {
    for (const path of [
      "/images/00000000-0000-4000-8000-000000000000/large.webp",
      "/images/..%2F..%2Fetc/passwd",
      "/images/abc/original.svg",
    ]) {
      const res = await t.call("GET", path, { key: null });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toMatch(/not_found/);
    }
  });

  it("uses PUBLIC_URL for image links when it is set", async () => {
    const server = await t.startSibling({ env: { PUBLIC_URL: "https://api.example.com/" } });
    const res = await server.call("POST", "/organizations", {
      json: { name: "Public", logo: dataUri(await image(10, 10, "png"), "image/png") },
    });
    expect(res.body.data.logo.thumb).toMatch(
      /^https:\/\/api\.example\.com\/images\/.+\/thumb\.webp$/,
    );
  });
});

describe("sniffImageType", () => {
  it("recognises PNG, JPEG, WebP and GIF by content and nothing else", async () => {
    expect(sniffImageType(await image(2, 2, "png"))).toBe("png");
    expect(sniffImageType(await image(2, 2, "jpeg"))).toBe("jpeg");
    expect(sniffImageType(await image(2, 2, "webp"))).toBe("webp");
    expect(sniffImageType(await image(2, 2, "gif"))).toBe("gif");
    expect(sniffImageType(SVG)).toBeUndefined();
    expect(sniffImageType(Buffer.from("RIFF0000WAVE"))).toBeUndefined();
    expect(sniffImageType(Buffer.alloc(0))).toBeUndefined();
  });
});
