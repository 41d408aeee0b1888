import type { DataSource } from 'typeorm';
import { sqlRows } from '../platform/db';

export interface CircuitSettings {
  failureThreshold: number;
  cooldownSeconds: number;
}

/**
 * A per-connection circuit breaker kept in the connection row, so every process sees the same state.
 * Closed: calls pass. Open: calls are refused until `circuit_open_until`. After that one probe is let
 * through (claimed by a conditional update, so only one process gets it); its result closes or reopens.
 */
export class CircuitBreaker {
  constructor(
    private readonly db: DataSource,
    private readonly settings: CircuitSettings,
  ) {}

  /** True when a call may go to the supplier now. */
  async admit(connectionId: string, openUntil: Date | null): Promise<boolean> {
    if (!openUntil) return true;
    if (openUntil.getTime() > Date.now()) return false;
    const claimed = await sqlRows(
      this.db,
      `UPDATE supplier_connections SET circuit_open_until = now() + make_interval(secs => $2)
        WHERE id = $1 AND circuit_open_until IS NOT NULL AND circuit_open_until <= now() RETURNING id`,
      [connectionId, this.settings.cooldownSeconds],
    );
    return claimed.length > 0;
  }

  async recordSuccess(connectionId: string): Promise<void> {
    await this.db.query(
      `UPDATE supplier_connections SET consecutive_failures = 0, circuit_open_until = NULL
        WHERE id = $1 AND (consecutive_failures <> 0 OR circuit_open_until IS NOT NULL)`,
      [connectionId],
    );
  }

  async recordFailure(connectionId: string): Promise<void> {
    await this.db.query(
      `UPDATE supplier_connections
          SET consecutive_failures = consecutive_failures + 1,
              circuit_open_until = CASE WHEN consecutive_failures + 1 >= $2 THEN now() + make_interval(secs => $3) ELSE circuit_open_until END
        WHERE id = $1`,
      [connectionId, this.settings.failureThreshold, this.settings.cooldownSeconds],
    );
  }
}
