/**
 * Headless Chromium for tests that open a page as a user does, driven through puppeteer-core
 * (which never downloads a browser of its own): CHROME_PATH, else the machine's Chrome or
 * Chromium, else on Linux x64 the one inside the npm package `@sparticuz/chromium` (unpacked into
 * the temp folder on first use), so a machine with only Node and npm runs these tests too.
 */
import fs from "node:fs";
import puppeteer, { type Browser } from "puppeteer-core";

/** Where distributions put the browser. */
const SYSTEM_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

async function browserToLaunch(): Promise<{ executablePath: string; args: string[] }> {
  // Tests run as root in CI containers, where Chromium's sandbox cannot start; /dev/shm is
  // often tiny there.
  const args = ["--no-sandbox", "--disable-dev-shm-usage"];
  const installed = process.env.CHROME_PATH || SYSTEM_PATHS.find((file) => fs.existsSync(file));
  if (installed) return { executablePath: installed, args };
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      "No Chrome or Chromium found: install one, or set CHROME_PATH to it (the browser from npm " +
        "is for Linux x64 only). This test opens pages in a real browser.",
    );
  }
  const { default: packaged } = await import("@sparticuz/chromium");
  return { executablePath: await packaged.executablePath(), args: [...packaged.args, ...args] };
}

/** Launches headless Chromium; throws, naming what to install, when there is none. */
export async function launchChromium(): Promise<Browser> {
  const { executablePath, args } = await browserToLaunch();
  return puppeteer.launch({
    executablePath,
    headless: true,
    args,
    defaultViewport: { width: 1400, height: 1000 },
  });
}
