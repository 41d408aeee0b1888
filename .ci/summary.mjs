#!/usr/bin/env node
/**
 * CI's summary line, counted from every results file `.ci/run` lists (RESULT_FILES, one per line):
 *   - jest JSON files (`jest --json --outputFile`): each test by its status; a suite that failed before running
 *     any test counts as one failure;
 *   - anything else shaped { passed, failed, skipped } (the n8n end-to-end runs, the .NET results).
 * A file that is missing or unreadable counts as a failure: a run that did not happen is not a pass. A skipped or
 * todo test counts as a failure unless it is on ALLOWED_SKIPS (one `<test file> > <full test name>` per line).
 * Prints what it counted against, then `N passed, N failed` (and the allowed skips); exits 1 on any failure.
 */
import fs from 'node:fs';
import path from 'node:path';

const lines = (text) =>
  (text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
const files = lines(process.env.RESULT_FILES);
const allowed = new Set(lines(process.env.ALLOWED_SKIPS));
const root = process.cwd();

let passed = 0;
let failed = 0;
let skippedAllowed = 0;
const problems = [];

for (const file of files) {
  let r;
  try {
    r = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    failed += 1;
    problems.push(`${file}: missing or unreadable (${err.code ?? err.message}), counted as a failure`);
    continue;
  }
  if (Array.isArray(r.testResults)) {
    for (const suite of r.testResults) {
      const rel = path.relative(root, suite.name);
      const results = suite.assertionResults ?? [];
      if (suite.status === 'failed' && results.length === 0) {
        failed += 1;
        problems.push(`${rel}: the suite failed before any test ran`);
      }
      for (const t of results) {
        if (t.status === 'passed') passed += 1;
        else if (t.status === 'failed') failed += 1;
        else if (allowed.has(`${rel} > ${t.fullName}`)) skippedAllowed += 1;
        else {
          failed += 1;
          problems.push(`${rel} > ${t.fullName}: ${t.status}, and not on the allow-list in .ci/run`);
        }
      }
    }
  } else if (Number.isInteger(r.passed) && Number.isInteger(r.failed)) {
    passed += r.passed;
    failed += r.failed;
    if (r.skipped) {
      failed += r.skipped;
      problems.push(`${file}: ${r.skipped} skipped, counted as failures`);
    }
  } else {
    failed += 1;
    problems.push(`${file}: neither jest results nor { passed, failed }`);
  }
}

process.stdout.write(`Counted: ${files.join(', ')}\n`);
for (const p of problems) process.stdout.write(`  ${p}\n`);
process.stdout.write(`${passed} passed, ${failed} failed${skippedAllowed ? `, ${skippedAllowed} skipped (allowed)` : ''}\n`);
process.exit(failed === 0 && files.length > 0 ? 0 : 1);
