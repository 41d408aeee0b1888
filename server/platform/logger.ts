import pino from 'pino';

// Secrets never reach a log line: these paths are censored wherever they appear.
const redactPaths = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.apiKey',
  '*.key',
  '*.token',
  '*.credentials',
  '*.secret',
];

export type Logger = pino.Logger;

/** Bytes held before a write to stdout, and the longest a line waits in a quiet process (docs/decisions.md, "Log lines in batches"). */
export const LOG_BUFFER_BYTES = 4096;
export const LOG_FLUSH_MS = 500;

/**
 * stdout in batches: lines gather until LOG_BUFFER_BYTES, then go in one synchronous write (one system call for a
 * dozen access lines instead of one each), or after LOG_FLUSH_MS when fewer came. Synchronous, so a full pipe holds
 * the process back instead of growing a buffer, and whatever waits is written at `exit`, whichever way the process
 * exits on its own (process.exit after a stop, a fatal error or the hard-stop timer). A kill loses what waits.
 */
export function bufferedStdout(): pino.DestinationStream & { flushSync(): void } {
  const dest = pino.destination({ dest: 1, sync: true, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS });
  process.on('exit', () => dest.flushSync());
  return dest;
}

// The ISO time of a line, made once per millisecond: a busy process writes several lines in each.
let isoMs = 0;
let isoField = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    isoField = `,"time":"${new Date(now).toISOString()}"`;
  }
  return isoField;
}

/** The service's logger; `dest` defaults to stdout written line by line (tools and tests), the service passes bufferedStdout(). */
export function createLogger(level: string, name = 'store-suppliers', dest?: pino.DestinationStream): Logger {
  const options = { name, level, base: { pid: process.pid }, timestamp: isoTime, redact: { paths: redactPaths, censor: '[redacted]' } };
  return dest ? pino(options, dest) : pino(options);
}

/**
 * One request's logging: its access line, and a child logger (bound to the request id and, once known, the
 * caller) made on first use, since most requests log nothing else. The access line holds only fields the
 * pipeline sets, none of them secret, so it is written by a child that skips redaction (the costliest step of
 * a log line; every other line keeps it).
 */
export class RequestLog {
  private child: Logger | undefined;
  private readonly bindings: { requestId: string; accountId?: string; apiKeyId?: string; operator?: true };

  constructor(
    private readonly base: Logger,
    private readonly accessLog: Logger,
    requestId: string,
  ) {
    this.bindings = { requestId };
  }

  get log(): Logger {
    return (this.child ??= this.base.child(this.bindings));
  }

  /** The authenticated caller, on this request's lines from now on. */
  identify(accountId: string, apiKeyId: string | undefined): void {
    this.bindings.accountId = accountId;
    this.bindings.apiKeyId = apiKeyId;
    this.child?.setBindings({ accountId, apiKeyId });
  }

  /** The operator's token was taken: this request's lines say so. */
  asOperator(): void {
    this.bindings.operator = true;
    this.child?.setBindings({ operator: true });
  }

  access(method: string, route: string, path: string, status: number, ms: number): void {
    const { requestId, accountId, apiKeyId, operator } = this.bindings;
    this.accessLog.info({ requestId, accountId, apiKeyId, operator, method, route, path, status, ms }, 'request');
  }
}

/** The logger of access lines: `base` without redaction (see RequestLog). */
export function accessLogger(base: Logger): Logger {
  return base.child({}, { redact: [] });
}

/**
 * Warnings that repeat while a fault lasts (a database away fails every poll of every loop) go out at most once per
 * window per kind; the next line of that kind says how many were held back (`heldBack`).
 */
export class Throttle {
  private readonly seen = new Map<string, { at: number; held: number }>();

  constructor(private readonly windowMs = 30_000) {}

  warn(log: Logger, fields: Record<string, unknown>, msg: string, kind = msg): void {
    const now = Date.now();
    const last = this.seen.get(kind);
    if (last && now - last.at < this.windowMs) {
      last.held++;
      return;
    }
    this.seen.set(kind, { at: now, held: 0 });
    log.warn(last?.held ? { ...fields, heldBack: last.held } : fields, msg);
  }
}
