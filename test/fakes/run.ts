/** What the local supplier-format servers share: listening on a port, closing once, and running alone from `npm run`. */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens, then answers the origin (`http://host:port`) and a close that runs `before` and ends every connection, once. */
export async function serve(server: http.Server, port: number, host: string, before: () => void): Promise<{ origin: string; port: number; close(): Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    close() {
      closing ??= new Promise<void>((resolve) => {
        before();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** A whole number from the environment, or `fallback` when unset. */
export function intEnv(name: string, fallback?: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

/** Runs a server alone: prints `banner` as one JSON line, closes on SIGTERM or SIGINT, names a failed start. */
export function runAlone(what: string, start: () => Promise<{ banner: unknown; close(): Promise<void> }>): void {
  start()
    .then(({ banner, close }) => {
      process.stdout.write(`${JSON.stringify(banner)}\n`);
      const stop = (): void => {
        close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    })
    .catch((err: unknown) => {
      process.stderr.write(`${what} failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
