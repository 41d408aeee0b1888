/**
 * Operator commands against the configured database: `node dist/server/cli.js <command>`.
 *   sync-links   queue the hourly product-link sync now
 */
import { loadConfig } from './platform/config';
import { startBoss } from './platform/jobs';
import { createLogger } from './platform/logger';
import { SYNC_QUEUES } from './catalogue/queues';
import { QUEUES } from './workers';

async function main(): Promise<void> {
  const [command] = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const config = loadConfig(process.env, []);
  if (!config.databaseUrl) throw new Error('Set DATABASE_URL to the service\'s database.');
  const log = createLogger('warn');
  const boss = await startBoss(config.databaseUrl, QUEUES, log, { supervise: false, schedule: false, superviseSeconds: 60 });
  try {
    switch (command) {
      case 'sync-links': {
        const id = await boss.send(SYNC_QUEUES.all, {});
        process.stdout.write(`${JSON.stringify({ queued: SYNC_QUEUES.all, jobId: id })}\n`);
        break;
      }
      default:
        throw new Error(`Unknown command "${command ?? ''}"; known: sync-links`);
    }
  } finally {
    await boss.stop({ graceful: false });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
