import fs from 'node:fs';
import { writeStatements } from './statements-collector.mjs';

export default async function globalTeardown() {
  const template = globalThis.__STORE_SUPPLIERS_TEMPLATE__;
  if (template) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
    await client.connect();
    await client
      .query(`DROP DATABASE IF EXISTS "${template}"`)
      .finally(() => client.end())
      .catch(() => undefined);
  }
  const held = globalThis.__STORE_SUPPLIERS_PG__;
  if (!held) return;
  if (process.env.TEST_STATEMENTS === '1')
    await writeStatements(process.env.TEST_ADMIN_DATABASE_URL).catch((err) => process.stderr.write(`statements not collected: ${err}\n`));
  await held.pg.stop().catch(() => undefined);
  fs.rmSync(held.dir, { recursive: true, force: true });
}
