import type { Logger } from 'pino';
import type { SandboxState } from './state';
import type { TimerBag } from './timers';

/** What route modules share for one running sandbox. */
export interface SandboxRuntime {
  state: SandboxState;
  log: Logger;
  /** Latency sleeps and hung creates; all cancelled on close. */
  requestTimers: TimerBag;
  createHangMs: number;
  control: boolean;
}
