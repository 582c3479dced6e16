/**
 * Headless Chromium for tests that open a page as a user does: Debian's `chromium` package driven
 * through puppeteer-core (which never downloads a browser of its own). `.ci/run` installs it.
 */
import fs from "node:fs";
import puppeteer, { type Browser } from "puppeteer-core";

/** Where Debian (and other distributions) put the browser. */
const CHROMIUM_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/**
 * Launches headless Chromium. Throws, naming what to install, when it is missing: a browser test
 * fails rather than skips, so a machine without Chromium cannot pass it unseen.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = CHROMIUM_PATHS.find((file) => fs.existsSync(file));
  if (!executablePath) {
    throw new Error(
      `Chromium is not installed (looked for ${CHROMIUM_PATHS.join(", ")}): this test opens ` +
        "pages in a real browser. Install it with `apt-get install -y chromium` (.ci/run does).",
    );
  }
  return puppeteer.launch({
    executablePath,
    headless: true,
    // Tests run as root in CI containers, where Chromium's sandbox cannot start; /dev/shm is
    // often tiny there.
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
    defaultViewport: { width: 1400, height: 1000 },
  });
}
