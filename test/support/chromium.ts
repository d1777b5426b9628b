// Headless Chromium for tests that need a real browser: /usr/bin/chromium, else `chromium` on
// PATH. Without it those tests are skipped with a visible message, unless REQUIRE_CHROMIUM=1
// (as CI sets it) makes that an error.
import { findExecutable } from './executables.js';

export const CHROMIUM = findExecutable('chromium');
export const REQUIRE_CHROMIUM = process.env.REQUIRE_CHROMIUM === '1';

export const CHROMIUM_LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Prints the skip message for `what` when Chromium is missing and not required. */
export function announceChromiumSkip(what: string): void {
  if (!CHROMIUM && !REQUIRE_CHROMIUM) {
    process.stderr.write(
      `\n*** ${what} SKIPPED: no Chromium at /usr/bin/chromium or on PATH (set REQUIRE_CHROMIUM=1 to make ` +
        `this an error) ***\n\n`,
    );
  }
}
