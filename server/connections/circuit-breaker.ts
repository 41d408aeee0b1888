import type { DataSource } from 'typeorm';
import type { StoreConnection } from './sql/connections';
import * as sql from './sql/health';

interface CircuitSettings {
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
  async admit(conn: StoreConnection, openUntil: Date | null): Promise<boolean> {
    if (!openUntil) return true;
    if (openUntil.getTime() > Date.now()) return false;
    return sql.claimTrialCall(this.db, conn, this.settings.cooldownSeconds);
  }

  async recordSuccess(conn: StoreConnection): Promise<void> {
    await sql.closeCircuit(this.db, conn);
  }

  async recordFailure(conn: StoreConnection): Promise<void> {
    await sql.countFailure(this.db, conn, this.settings.failureThreshold, this.settings.cooldownSeconds);
  }
}
