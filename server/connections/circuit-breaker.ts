import type { DataSource } from 'typeorm';
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
  async admit(connectionId: string, openUntil: Date | null): Promise<boolean> {
    if (!openUntil) return true;
    if (openUntil.getTime() > Date.now()) return false;
    return sql.claimTrialCall(this.db, connectionId, this.settings.cooldownSeconds);
  }

  async recordSuccess(connectionId: string): Promise<void> {
    await sql.closeCircuit(this.db, connectionId);
  }

  async recordFailure(connectionId: string): Promise<void> {
    await sql.countFailure(this.db, connectionId, this.settings.failureThreshold, this.settings.cooldownSeconds);
  }
}
