/**
 * How a sandbox runs as a program of its own (its main.ts): it listens, says where, and stops on SIGTERM or SIGINT
 * (the tests' supplier-format servers, test/fakes/, run the same way).
 * Started by the service (a child process with an IPC channel), it says where in one message, `{ ready: { baseUrl } }`
 * or `{ failed: { message, code } }`, and stops when the service goes, however the service ends. Started by hand
 * (`npm run sandbox-supplier`), it prints one JSON line on stdout instead, or one sentence on stderr.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  baseUrl: string;
  port: number;
  close(): Promise<void>;
}

/** Listens on `host:port` (0: a free port); `close`, once, runs `cleanup` first and also drops keep-alive and hung sockets. */
export async function serve(server: http.Server, port: number, host: string, cleanup: () => void): Promise<Listening> {
  // As the service's: an idle keep-alive socket outlives its clients' own idle limits, so a client never sends on a
  // socket the server is closing that instant (it would read "other side closed" with the request unanswered).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    port: actualPort,
    close() {
      closing ??= new Promise<void>((resolve) => {
        cleanup();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** A non-negative integer environment variable, or `fallback` when unset. */
export function intEnv(name: string, fallback?: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

/** Runs a sandbox program: `start` listens, and answers with `banner`, the JSON line printed when started by hand. */
export function runProgram(what: string, start: () => Promise<Pick<Listening, 'baseUrl' | 'close'> & { banner: object }>): void {
  const send = process.send?.bind(process);
  start().then(
    (running) => {
      let stopping = false;
      const stop = (): void => {
        if (stopping) return;
        stopping = true;
        running.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      if (send) {
        // The channel closes when the service ends, even by SIGKILL: the sandbox never outlives it.
        process.once('disconnect', stop);
        send({ ready: { baseUrl: running.baseUrl } });
      } else {
        process.stdout.write(`${JSON.stringify(running.banner)}\n`);
      }
    },
    (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      if (!send) {
        process.stderr.write(`${what} failed to start: ${message}\n`);
        process.exit(1);
      }
      // The service turns a listen error into its own sentence (the variable to change), so only it speaks.
      const code = (err as { code?: unknown } | null)?.code;
      send({ failed: { message, code: typeof code === 'string' ? code : null } }, () => process.exit(1));
    },
  );
}
