import fs from 'node:fs';

export default async function globalTeardown() {
  const held = globalThis.__STORE_SUPPLIERS_PG__;
  if (!held) return;
  await held.pg.stop().catch(() => undefined);
  fs.rmSync(held.dir, { recursive: true, force: true });
}
