/** Start-up failures caused by the machine, not the code: each becomes one sentence saying why and what to do. */
import net from 'node:net';

export class EnvironmentError extends Error {}

/** The sentence for a listen error on `port`, which the environment variable `variable` sets; other errors as they are. */
export function listenFailure(err: unknown, variable: string, port: number, what: string): unknown {
  const code = (err as { code?: unknown })?.code;
  if (code === 'EADDRINUSE')
    return new EnvironmentError(`Port ${port} is already in use, so ${what} cannot listen on it: set ${variable} to a free port, or stop what holds ${port}.`);
  if (code === 'EACCES')
    return new EnvironmentError(
      `Port ${port} needs privileges this process does not have, so ${what} cannot listen on it: set ${variable} to a port above 1023.`,
    );
  return err;
}

/** Resolves when nothing listens on `port` of `host`; rejects with the listen error otherwise. */
export function probePort(port: number, host = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(port, host, () => srv.close(() => resolve()));
  });
}
