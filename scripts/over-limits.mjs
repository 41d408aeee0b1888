#!/usr/bin/env node
// Files over their line limits, counted as test/platform/layout.test.ts counts them: every .ts file under server/,
// and the .ts/.cjs/.mjs/.js files of client/src (its generated types excepted), client/scripts, nodes and console/src;
// a file's lines are its newlines; a route file (…routes.ts) may hold 200, any other 250.
//   node scripts/over-limits.mjs              the files as they are
//   node scripts/over-limits.mjs --formatted  each file as Prettier would write it (.prettierrc.json), in memory
//   --width N                                 with --formatted: at print width N instead of the config's
//   --near N                                  also the files within N lines of their limit
// Exits 1 when a file is over, so a script or CI step can use it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const formatted = args.includes('--formatted');
const near = args.includes('--near') ? Number(args[args.indexOf('--near') + 1]) : 0;
const width = args.includes('--width') ? { printWidth: Number(args[args.indexOf('--width') + 1]) } : {};

const walk = (dir) => fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => path.posix.join(dir, f.split(path.sep).join('/')));
const server = walk('server').filter((f) => f.endsWith('.ts'));
const others = ['client/src', 'client/scripts', 'nodes', 'console/src'].flatMap((dir) =>
  walk(dir).filter((f) => /\.(ts|cjs|mjs|js)$/.test(f) && !path.posix.relative(dir, f).startsWith('generated')),
);

const limitOf = (file) => (/(^|\/)[\w-]*routes\.ts$/.test(file) ? 200 : 250);
const prettier = formatted ? await import('prettier') : null;

const rows = [];
for (const file of [...server, ...others]) {
  const abs = path.join(ROOT, file);
  let text = fs.readFileSync(abs, 'utf8');
  if (prettier) {
    const options = await prettier.resolveConfig(abs);
    text = await prettier.format(text, { ...options, ...width, filepath: abs });
  }
  const lines = text.split('\n').length - 1;
  const limit = limitOf(file);
  if (lines > limit - near) rows.push({ file, lines, limit });
}
rows.sort((a, b) => b.lines - b.limit - (a.lines - a.limit));
for (const r of rows) console.log(`${r.lines > r.limit ? 'over' : 'near'}  ${String(r.lines).padStart(4)} / ${r.limit}  ${r.file}`);
const over = rows.filter((r) => r.lines > r.limit).length;
console.log(`${over} file(s) over their limit${formatted ? ' once formatted' : ''}`);
process.exit(over ? 1 : 0);
