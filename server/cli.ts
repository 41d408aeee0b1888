/**
 * Operator commands against the service's database: `node dist/server/cli.js <command>`. With DATABASE_URL
 * unset they use the embedded database, which must be running (`npm start`).
 *   sync-links                                          queue the hourly product-link sync now
 *   account <email>                                     the account: plan, credits, Developer or not
 *   set-plan <email> <free|starter|pro|business>        change the account's plan (immediate)
 *   grant-credits <email> <amount> --reason "<why>"     grant credits; the reason is kept in the ledger
 *   reseal                                              seal every stored secret again with APP_SECRET (after a rotation)
 *   migrations                                          every migration: applied or pending
 *   revert-migration <name>                             undo the applied migrations back to and including <name>, newest first
 */
import type { DataSource } from 'typeorm';
import { loadConfig } from './platform/config';
import { appliedMigrations } from './platform/db';
import { Secrets } from './platform/crypto';
import { LOOKUP_KEYS_SEALED, openLookupKeys } from './platform/lookup-keys';
import { type ResealCount, resealAll } from './platform/sealed';
import { SEALED } from './keyring';
import { embeddedDatabaseUrl } from './platform/embedded-postgres';
import { startBoss } from './platform/jobs';
import { createLogger, Logger } from './platform/logger';
import { ApiError } from './platform/errors';
import { SYNC_QUEUES } from './catalogue/queues';
import { AccountService } from './identity/accounts';
import { CreditService } from './identity/credits';
import { PLANS, Plan } from './identity/types';
import { OperatorService } from './operator/service';
import { GRANT_LIMIT } from './operator/schemas';
import { QUEUES } from './workers';
import { openDatabase } from './composition';

const USAGE =
  'known: sync-links, account <email>, set-plan <email> <plan>, grant-credits <email> <amount> --reason "<why>", reseal, migrations, revert-migration <name>';

/** Every migration in order, with whether the database has it. */
async function migrations(db: DataSource): Promise<Array<{ name: string; applied: boolean }>> {
  await db.initialize();
  try {
    const applied = new Set(await appliedMigrations(db));
    return db.migrations.map((m) => ({ name: m.name ?? m.constructor.name, applied: applied.has(m.name ?? '') }));
  } finally {
    await db.destroy();
  }
}

/**
 * Undoes the applied migrations newest first, down to and including `name` (each in its own transaction, or none
 * when it builds indexes CONCURRENTLY, as they ran); the service must be stopped, or be the release before them.
 */
async function revertTo(db: DataSource, name: string): Promise<string[]> {
  await db.initialize();
  try {
    const applied = await appliedMigrations(db);
    const upTo = applied.indexOf(name);
    if (upTo < 0) throw new Error(`"${name}" is not an applied migration`);
    for (let i = 0; i <= upTo; i++) await db.undoLastMigration({ transaction: 'each' });
    return applied.slice(0, upTo + 1);
  } finally {
    await db.destroy();
  }
}

/** `--name value` or `--name=value`; the words left are the command and its arguments. */
function parseArgs(argv: string[]): { words: string[]; options: Record<string, string> } {
  const words: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) words.push(argv[i]);
    else if (m[2] !== undefined) options[m[1]] = m[2];
    else options[m[1]] = argv[++i] ?? '';
  }
  return { words, options };
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function withOperator<T>(db: DataSource, appSecret: string, log: Logger, act: (op: OperatorService) => Promise<T>): Promise<T> {
  await db.initialize();
  try {
    const accounts = new AccountService(db, new Secrets(appSecret), new CreditService(db), 1);
    return await act(new OperatorService(accounts, log));
  } finally {
    await db.destroy();
  }
}

/**
 * Seals every stored secret again with the newest secret of the keyring, and the lookup keys with them: run after
 * APP_SECRET was rotated (the old one in APP_SECRET_PREVIOUS); then the old one can go. Idempotent, and safe while
 * the service runs (each value is replaced only while unchanged).
 */
async function reseal(db: DataSource, ring: string[]): Promise<Record<string, ResealCount>> {
  await db.initialize();
  try {
    await openLookupKeys(db, ring, SEALED);
    return await resealAll(db, new Secrets(ring), [LOOKUP_KEYS_SEALED, ...SEALED]);
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  const { words, options } = parseArgs(process.argv.slice(2));
  const [command, ...args] = words;
  const config = loadConfig(process.env, []);
  const databaseUrl = config.databaseUrl || embeddedDatabaseUrl(config.embeddedPgPort);
  const log = createLogger('warn');
  const operate = <T>(act: (op: OperatorService) => Promise<T>) => withOperator(openDatabase(databaseUrl, 2), config.appSecret, log, act);
  switch (command) {
    case 'sync-links': {
      const boss = await startBoss(databaseUrl, QUEUES, log, { supervise: false, schedule: false, superviseSeconds: 60 });
      try {
        print({ queued: SYNC_QUEUES.all, jobId: await boss.send(SYNC_QUEUES.all, {}) });
      } finally {
        await boss.stop({ graceful: false });
      }
      return;
    }
    case 'account': {
      if (args.length !== 1) throw new Error('Usage: account <email>');
      print(await operate((op) => op.findByEmail(args[0])));
      return;
    }
    case 'set-plan': {
      const [email, plan] = args;
      if (args.length !== 2 || !(PLANS as readonly string[]).includes(plan)) throw new Error(`Usage: set-plan <email> <${PLANS.join('|')}>`);
      print(await operate(async (op) => op.setPlan((await op.findByEmail(email)).id, plan as Plan)));
      return;
    }
    case 'grant-credits': {
      const [email, amountText] = args;
      const amount = Number(amountText);
      const reason = (options.reason ?? '').trim();
      if (args.length !== 2 || !Number.isSafeInteger(amount) || amount < 1 || amount > GRANT_LIMIT || !reason || reason.length > 500) {
        throw new Error(`Usage: grant-credits <email> <1 to ${GRANT_LIMIT}> --reason "<why, up to 500 characters>"`);
      }
      print(await operate(async (op) => op.grantCredits((await op.findByEmail(email)).id, amount, reason, null)));
      return;
    }
    case 'reseal': {
      const report = await reseal(openDatabase(databaseUrl, 2), [config.appSecret, ...config.appSecretsPrevious]);
      print(report);
      // A value no secret opens stays as it was: said, and not a success.
      if (Object.values(report).some((c) => c.unreadable > 0)) process.exitCode = 1;
      return;
    }
    case 'migrations': {
      print(await migrations(openDatabase(databaseUrl, 2)));
      return;
    }
    case 'revert-migration': {
      if (args.length !== 1) throw new Error('Usage: revert-migration <name, as `migrations` lists it>');
      print({ reverted: await revertTo(openDatabase(databaseUrl, 2), args[0]) });
      return;
    }
    default:
      throw new Error(`Unknown command "${command ?? ''}"; ${USAGE}`);
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof ApiError ? err.message : err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
