import type { Server } from 'node:http';
import type Koa from 'koa';

/** Listens, and closes gracefully: stops accepting, lets in-flight requests finish. */
export function listen(app: Koa, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, () => resolve(server));
    server.once('error', reject);
    // Longer than any client keeps an idle socket: a client whose event loop was busy must not send on a
    // socket we closed meanwhile ("other side closed"). Shutdown closes idle sockets itself.
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  });
}

export function closeServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
