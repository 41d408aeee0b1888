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

export function createLogger(level: string, name = 'store-suppliers'): Logger {
  return pino({
    name,
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: redactPaths, censor: '[redacted]' },
  });
}
