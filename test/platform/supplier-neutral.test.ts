/**
 * Suppliers are reached through the contract alone (docs/decisions.md, "Supplier contract"): checked on the source, so
 * a dispatch or catalogue change that names a supplier, or imports an adapter, fails here.
 */
import fs from 'node:fs';
import path from 'node:path';

const SERVER = path.join(__dirname, '../../server');

function sources(dir: string): Array<{ name: string; text: string }> {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [{ name: path.relative(SERVER, p).split(path.sep).join('/'), text: fs.readFileSync(p, 'utf8') }] : [];
  });
}

const all = sources(SERVER);

test("no dispatch or catalogue file names AliExpress or imports any supplier's adapter", () => {
  const neutral = all.filter((f) => /^(dispatch|catalogue)\//.test(f.name));
  expect(neutral.length).toBeGreaterThan(10);
  expect(neutral.filter((f) => /ali-?express/i.test(f.text)).map((f) => f.name)).toEqual([]);
  expect(neutral.filter((f) => /from '\.\.\/suppliers\/(?!adapter'|errors'|registry')/.test(f.text)).map((f) => f.name)).toEqual([]);
});

test("only the suppliers' registry (server/suppliers/index.ts, which the composition asks for) builds the AliExpress adapter; nothing else outside its folder imports it", () => {
  const importers = all.filter((f) => !f.name.startsWith('suppliers/aliexpress/') && /(suppliers\/|'\.\/)aliexpress\//.test(f.text)).map((f) => f.name);
  expect(importers).toEqual(['suppliers/index.ts']);
});
