import type { RerouteTry } from './supplier-order';

/** Room for the pause's message after a reroute: five alternates with their prices fit well within it. */
export const REROUTE_MESSAGE_LIMIT = 2000;

/**
 * The pause's message after a reroute: the service's own words (the pause before it was cleaned when written), so
 * not cleaned again. Each alternate tried, named by supplier and place in the list (a connection id would read as a
 * token); those that do not fit are counted, pointing to the history, which names them all.
 */
export function rerouteMessage(before: string | null, message: string, tried: RerouteTry[]): string {
  const head = `${before ?? ''} ${message}`.trim();
  const lines = tried.map((t, i) => `${i + 1}. ${t.supplierKey}: ${t.why}`);
  for (let n = lines.length; ; n--) {
    const more = n < lines.length ? ` ${n ? 'And' : 'Alternates tried:'} ${lines.length - n} more: see the history (rerouteFailed).` : '';
    const shown = lines.slice(0, n).join(' ');
    const text = `${head}${n ? ` Alternates tried: ${shown}${shown.endsWith('.') ? '' : '.'}` : ''}${more}`;
    if (text.length <= REROUTE_MESSAGE_LIMIT || n === 0) return text.slice(0, REROUTE_MESSAGE_LIMIT);
  }
}
