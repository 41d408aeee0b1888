import type { EventRenderer } from '../events/render';
import type { ConnectionService } from './service';
import { ConnectionRow, connectionOf } from './sql';

/** Connection events' data: the connection as its routes answer it (never its credentials), as the change left it. */
export function connectionEventRenderer(connections: ConnectionService): EventRenderer {
  return { permission: 'suppliers.view', render: (events) => connections.present(events.map((e) => connectionOf(e.snapshot as unknown as ConnectionRow))) };
}
