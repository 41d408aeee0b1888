import { EventTriggers1764547200004 } from './1764547200004-EventTriggers';
import { undoing } from './sql-migration';

/**
 * No trigger writes an event: the catalogue (an import job finished, a link's sync failed) and the connections (a
 * circuit opened, health changed) write theirs through the outbox step in the statement of the change, like every
 * other domain. This drops the triggers of migration EventTriggers; `down` brings them back.
 */
export const EventsWrittenInCode1764806400332 = undoing('EventsWrittenInCode1764806400332', EventTriggers1764547200004);
