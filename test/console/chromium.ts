/** Finds Debian's Chromium for the browser test, installing it with apt when running as root; never a browser download. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { leakScanTest } from '../support/harness';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

const found = () => CANDIDATES.find((p) => fs.existsSync(p));

export type ChromiumLookup = { path: string } | { skip: string };

/** CI=true (as .ci/run sets it): the browser suite must run, so a missing or broken Chromium fails it. */
export const BROWSER_REQUIRED = ['true', '1'].includes(process.env.CI ?? '');

export function findChromium(): ChromiumLookup {
  // CHROMIUM_PATH names the one browser to use, and nothing else is looked for.
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) return fs.existsSync(chosen) ? { path: chosen } : { skip: `CHROMIUM_PATH is ${chosen}, which does not exist.` };
  const have = found();
  if (have) return { path: have };
  if (process.platform !== 'linux' || !fs.existsSync('/usr/bin/apt-get'))
    return { skip: "Chromium is not installed and this machine has no apt-get to install Debian's chromium package." };
  if (process.getuid?.() !== 0)
    return { skip: 'Chromium is not installed and installing it needs root: run `apt-get install -y chromium` (or set CHROMIUM_PATH).' };
  process.stderr.write("Browser test: installing Debian's chromium package (apt-get), once per machine...\n");
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    execFileSync('apt-get', ['install', '-y', 'chromium'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    return {
      skip: `Chromium is not installed and \`apt-get install -y chromium\` failed: ${String((err as { stderr?: Buffer }).stderr ?? err).slice(0, 400)}`,
    };
  }
  const now = found();
  return now ? { path: now } : { skip: 'apt-get installed chromium but no chromium executable was found.' };
}

/** Flags for a quiet, offline headless Chromium: no GPU, no sandbox (root in CI), nothing fetched in the background. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The policy every browser test file follows: outside CI a missing Chromium skips the suite, said out loud; under CI
 * (`BROWSER_REQUIRED`) the suite runs and its set-up fails, naming why.
 */
export function browserSuite() {
  const lookup = findChromium();
  if ('skip' in lookup && !BROWSER_REQUIRED) process.stderr.write(`\nBrowser test SKIPPED: ${lookup.skip}\n\n`);
  return {
    describe: 'path' in lookup || BROWSER_REQUIRED ? describe : describe.skip,
    /** The Chromium to launch, for the suite's set-up; throws (so the suite fails) when there is none. */
    chromium(): string {
      if ('skip' in lookup) throw new Error(`CI=true needs the browser suite to run, and there is no Chromium to run it: ${lookup.skip}`);
      return lookup.path;
    },
    /** After the suite: the leak scan when it ran, a visibly skipped test when it did not. */
    end(): void {
      if ('path' in lookup) leakScanTest();
      else if (!BROWSER_REQUIRED) test.skip(`browser test skipped: ${lookup.skip}`, () => undefined);
    },
  };
}
