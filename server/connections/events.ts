import { type EventRenderer, snapshotOf } from '../events';
import type { ConnectionService } from './service';
import { type ConnectionRow, connectionOf } from './sql/rows';

/** Connection events' data: the connection as its routes answer it (never its credentials), as the change left it. */
export function connectionEventRenderer(connections: ConnectionService): EventRenderer {
  // The snapshot is a connection row as JSON (./sql/rows.ts, connectionSnapshot): connectionOf takes its times as text.
  return { permission: 'suppliers.view', render: (events) => connections.present(events.map((e) => connectionOf(snapshotOf<ConnectionRow>(e)))) };
}
