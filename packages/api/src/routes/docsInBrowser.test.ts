/**
 * What a reader of /docs relies on, checked in headless Chromium against the real app over HTTP:
 * the page shows every tag and every operation of the document /openapi.json serves, loads
 * nothing from anywhere but the API itself (self-hosted machines may be offline), and logs no
 * errors. A full-page screenshot is kept in test-results/docs.png (cached by turbo with the run).
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../test/browser.ts";
import { startTestApp, type TestApp } from "../test/testApp.ts";

const SCREENSHOT = path.resolve(import.meta.dirname, "../../test-results/docs.png");
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

interface Operation {
  method: string;
  path: string;
  /** What the page must show for it: its summary, else its operationId. */
  label: string;
}

/** The operations of an OpenAPI document by tag (untagged ones under "default", as Swagger UI). */
function operationsByTag(document: {
  paths: Record<
    string,
    Record<string, { tags?: string[]; summary?: string; operationId?: string }>
  >;
}): Map<string, Operation[]> {
  const byTag = new Map<string, Operation[]>();
  for (const [urlPath, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      const label = operation.summary ?? operation.operationId ?? `${method} ${urlPath}`;
      for (const tag of operation.tags?.length ? operation.tags : ["default"]) {
        byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path: urlPath, label }]);
      }
    }
  }
  return byTag;
}

/** The little of the DOM read here (this package compiles without the DOM's types). */
interface PageElement {
  innerText: string;
  parentElement: PageElement | null;
  src?: string;
  href?: string;
}
interface PageDocument {
  querySelectorAll(selector: string): Iterable<PageElement>;
}

/** Every heading's visible text, with the visible text of the section holding it. */
function headingSections(page: Page): Promise<{ heading: string; section: string }[]> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as { document: PageDocument };
    // innerText, not textContent: only what is rendered visible counts as shown.
    return [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((heading) => ({
      // biome-ignore lint/performance/useDomNodeTextContent: the visible text is what is checked.
      heading: heading.innerText,
      // biome-ignore lint/performance/useDomNodeTextContent: the visible text is what is checked.
      section: heading.parentElement?.innerText ?? "",
    }));
  });
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

let app: TestApp;
let browser: Browser | undefined;
let expected: Map<string, Operation[]>;
let sections: { heading: string; section: string }[] = [];
/** Requests to anywhere but the API's origin (refused, so an offline machine cannot hang). */
const foreignRequests: string[] = [];
const errors: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  const served = await app.call("GET", "/openapi.json", { key: null });
  expect(served.status).toBe(200);
  expected = operationsByTag(served.body);
  expect(expected.size).toBeGreaterThan(0);

  browser = await launchChromium();
  const page = await browser.newPage();
  const origin = new URL(app.url).origin;
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    const url = request.url();
    if (url.startsWith("data:") || new URL(url).origin === origin) {
      void request.continue();
    } else {
      foreignRequests.push(`${request.method()} ${url}`);
      void request.abort();
    }
  });
  page.on("console", (message) => {
    if (message.type() === "error") {
      errors.push(`console.error: ${message.text()} (${message.location().url ?? "?"})`);
    }
  });
  page.on("pageerror", (error) => {
    errors.push(`uncaught: ${error instanceof Error ? error.message : String(error)}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on("requestfailed", (request) => {
    const url = request.url();
    if (new URL(url).origin === origin) {
      errors.push(`request failed: ${url} (${request.failure()?.errorText})`);
    }
  });

  const response = await page.goto(`${app.url}/docs`, { waitUntil: "networkidle0" });
  expect(response?.status()).toBe(200);
  // The renderer builds the page from /openapi.json after it loads: wait until a heading of every
  // tag is there. On a timeout the tests below name what is missing.
  await page
    .waitForFunction(
      (tags: string[]) => {
        const { document } = globalThis as unknown as { document: PageDocument };
        const headings = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((heading) =>
          // biome-ignore lint/performance/useDomNodeTextContent: the visible text is what is checked.
          heading.innerText.trim(),
        );
        return tags.every((tag) => headings.some((text) => text.startsWith(tag)));
      },
      { timeout: 15_000 },
      [...expected.keys()],
    )
    .catch(() => undefined);
  sections = await headingSections(page);
  // What the page references to load, requested or not (a Content-Security-Policy may block a
  // CDN script before any request leaves).
  const referenced = await page.evaluate(() => {
    const { document } = globalThis as unknown as { document: PageDocument };
    const selector = "script[src], link[href], img[src], iframe[src], source[src]";
    return [...document.querySelectorAll(selector)].map((element) => element.src || element.href);
  });
  for (const url of referenced) {
    if (url && !url.startsWith("data:") && new URL(url).origin !== origin) {
      foreignRequests.push(`referenced by the page: ${url}`);
    }
  }
  fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT as `${string}.png`, fullPage: true });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("GET /docs in a real browser (headless Chromium)", () => {
  it("shows a heading for every tag of /openapi.json, with each of its operations under it", () => {
    const missing: string[] = [];
    for (const [tag, operations] of expected) {
      // The tag's heading: its first line is the tag's name (a description may follow).
      const found = sections.find(({ heading }) => squash(heading.split("\n")[0] ?? "") === tag);
      if (!found) {
        missing.push(`tag heading "${tag}"`);
        continue;
      }
      const shown = squash(found.section);
      for (const operation of operations) {
        if (!shown.includes(squash(operation.label))) {
          missing.push(
            `${operation.method.toUpperCase()} ${operation.path} ("${operation.label}")`,
          );
        }
      }
    }
    expect(missing, "not visible on /docs").toEqual([]);
  });

  it("loads nothing from outside the API's own origin (no CDN)", () => {
    expect(foreignRequests).toEqual([]);
  });

  it("logs no console errors and every request it makes succeeds", () => {
    expect(errors).toEqual([]);
  });
});
