#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * The .NET part of `npm test`: `dotnet test` of dotnet/tests (restore and build once, then every test), its
 * counts from the TRX log written to dist/dotnet-results.json as { passed, failed, skipped }. Exits non-zero
 * when a test failed, when nothing ran, or when there is no `dotnet` at all.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const dist = path.join(root, 'dist');
const resultsFile = path.join(dist, 'dotnet-results.json');
const trxDir = path.join(dist, 'dotnet-test-results');

function write(counts) {
  fs.mkdirSync(dist, { recursive: true });
  fs.writeFileSync(resultsFile, JSON.stringify(counts) + '\n');
  return counts;
}

/** Counters of a TRX file: xunit's skipped tests are "notExecuted". */
function countsOf(trx) {
  const tag = /<Counters\b([^>]*)\/>/.exec(trx);
  if (!tag) return null;
  const n = (name) => Number((new RegExp(`\\b${name}="(\\d+)"`).exec(tag[1]) ?? [])[1] ?? 0);
  return { passed: n('passed'), failed: n('failed') + n('error') + n('timeout') + n('aborted'), skipped: n('notExecuted') };
}

function main() {
  const version = spawnSync('dotnet', ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    write({ passed: 0, failed: 1, skipped: 0 });
    process.stderr.write('The .NET SDK (`dotnet`, 10.x) is not installed, so the .NET client tests cannot run: install it and run npm test again.\n');
    return 1;
  }
  fs.rmSync(trxDir, { recursive: true, force: true });
  const started = Date.now();
  const run = spawnSync(
    'dotnet',
    // Release: the pack test then finds the library's net10.0 build up to date and compiles only the other targets.
    ['test', path.join(root, 'dotnet/tests/StoreSuppliers.Client.Tests'), '-c', 'Release', '--nologo', '-v', 'quiet', '--logger', 'trx;LogFileName=dotnet.trx', '--logger', 'console;verbosity=normal', '--results-directory', trxDir],
    { cwd: root, stdio: 'inherit', env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' } },
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  const trx = path.join(trxDir, 'dotnet.trx');
  const counts = (fs.existsSync(trx) && countsOf(fs.readFileSync(trx, 'utf8'))) || { passed: 0, failed: 1, skipped: 0 };
  write(counts);
  process.stdout.write(`dotnet test: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped in ${seconds}s (restore, build and tests)\n`);
  return run.status === 0 && counts.failed === 0 && counts.passed > 0 ? 0 : 1;
}

process.exit(main());
