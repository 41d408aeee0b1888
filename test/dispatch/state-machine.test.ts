import { assertMove, canMove, ImpossibleMoveError, MOVES, partStatusOf, PROGRESS_RANK, SUPPLIER_ORDER_STATUSES } from '../../server/dispatch/state-machine';
import { cleanReviewMessage, REVIEW_REASONS } from '../../server/dispatch/review-reasons';
import { REROUTE_REASONS, REVIEW_REASON_LIST, REVIEW_REASON_WORDS } from '../../server/platform/vocabulary/review-reasons';
import { REROUTE_MESSAGE_LIMIT, rerouteMessage } from '../../server/dispatch/reroute-message';

describe('supplier order state machine', () => {
  test('every status has an entry, and every move names known statuses', () => {
    expect(Object.keys(MOVES).sort()).toEqual([...SUPPLIER_ORDER_STATUSES].sort());
    for (const targets of Object.values(MOVES)) for (const t of targets) expect(SUPPLIER_ORDER_STATUSES).toContain(t);
  });

  test('walks every pair: allowed moves pass, every other move throws', () => {
    let allowed = 0;
    for (const from of SUPPLIER_ORDER_STATUSES) {
      for (const to of SUPPLIER_ORDER_STATUSES) {
        if (from === to) continue;
        if (MOVES[from].includes(to)) {
          expect(() => assertMove(from, to)).not.toThrow();
          allowed++;
        } else {
          expect(() => assertMove(from, to)).toThrow(ImpossibleMoveError);
          expect(canMove(from, to)).toBe(false);
        }
      }
    }
    expect(allowed).toBe(Object.values(MOVES).reduce((n, t) => n + t.length, 0));
  });

  test('final statuses go nowhere; a paused order only goes back to the queue or is cancelled', () => {
    expect(MOVES.delivered).toEqual([]);
    expect(MOVES.cancelled).toEqual([]);
    expect([...MOVES.needsReview].sort()).toEqual(['cancelled', 'queued']);
    expect(canMove('shipped', 'confirmed')).toBe(false);
    expect(canMove('delivered', 'shipped')).toBe(false);
    expect(canMove('needsReview', 'submitted')).toBe(false);
  });

  test("the supplier's progress only moves forward", () => {
    const forward = ['submitted', 'confirmed', 'processing', 'shipped', 'delivered'] as const;
    for (let i = 1; i < forward.length; i++) {
      expect(PROGRESS_RANK[forward[i]]).toBeGreaterThan(PROGRESS_RANK[forward[i - 1]]);
      expect(canMove(forward[i], forward[i - 1])).toBe(false);
    }
  });

  test('order part status follows the supplier order', () => {
    expect(partStatusOf('queued')).toBe('pending');
    expect(partStatusOf('needsReview')).toBe('pending');
    expect(partStatusOf('confirmed')).toBe('processing');
    expect(partStatusOf('shipped')).toBe('shipped');
    expect(partStatusOf('cancelled')).toBe('cancelled');
  });
});

describe('review reasons', () => {
  test('retryable as the spec sets it', () => {
    expect(
      Object.entries(REVIEW_REASONS)
        .filter(([, r]) => r.retryable)
        .map(([k]) => k)
        .sort(),
    ).toEqual(['connectionUnhealthy', 'exchangeRateUnavailable', 'supplierRefused']);
    // The count is the vocabulary's: each reason has its words, and the reroutable ones are among them.
    const count = REVIEW_REASON_LIST.length;
    expect(Object.keys(REVIEW_REASONS)).toHaveLength(count);
    expect(Object.keys(REVIEW_REASON_WORDS)).toHaveLength(count);
    expect(REROUTE_REASONS.every((r) => REVIEW_REASON_LIST.includes(r))).toBe(true);
  });
  test('messages lose e-mail addresses, phone numbers, tokens and street addresses', () => {
    const cleaned = cleanReviewMessage(
      'Refused for Ada (ada@example.com, +44 20 7946 0958) at 221 Baker Street: token sbx_live_abcdefgh12345 and 0123456789abcdef0123456789abcdef01; variant SBX-P00012-V1',
    );
    expect(cleaned).not.toMatch(/ada@|7946|Baker Street|sbx_live_abc|0123456789abcdef/);
    expect(cleaned).toContain('SBX-P00012-V1');
    expect(cleaned).toContain('[email]');
    expect(cleaned).toContain('[phone]');
    expect(cleaned).toContain('[address]');
  });
  test('money and percentages stay whole: no ceiling of $10 or more reads as a phone number', () => {
    const words =
      'it costs $78.24, above the ceiling of $71.72 (10% above the recorded cost of $65.20); CA$1,204.00 (125% above €1,000.50); call +44 20 7946 0958';
    const cleaned = cleanReviewMessage(words);
    expect(cleaned).toBe(
      'it costs $78.24, above the ceiling of $71.72 (10% above the recorded cost of $65.20); CA$1,204.00 (125% above €1,000.50); call [phone]',
    );
  });
  test('the pause message after a reroute names every alternate tried while they fit, then points to the history', () => {
    const tried = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        connectionId: 'c',
        position: i,
        supplierKey: 'cj',
        why: `it costs $${78 + i}.24, above the ceiling of $71.72 (10% above the recorded cost of $65.20)`,
      }));
    const five = rerouteMessage('The supplier has 0 of variant V1.', 'Not rerouted: no alternate could take the part.', tried(5));
    expect(five).toMatch(/Alternates tried: 1\. cj: it costs \$78\.24, above the ceiling of \$71\.72 \(10% above .* 5\. cj: it costs \$82\.24, .*\)\.$/);
    const many = rerouteMessage('Paused.', 'Not rerouted: no alternate could take the part.', tried(40));
    expect(many.length).toBeLessThanOrEqual(REROUTE_MESSAGE_LIMIT);
    expect(many).toMatch(/\. And \d+ more: see the history \(rerouteFailed\)\.$/);
  });
});
