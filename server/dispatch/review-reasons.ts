// The review reasons, their flags and their words live in the vocabulary (one module for the service, the console and the node).
import type { SupplierError } from '../suppliers/errors';
import type { ReviewReason } from '../platform/vocabulary/review-reasons';
export { REVIEW_REASONS, type ReviewReason } from '../platform/vocabulary/review-reasons';

/** Money and percentages as the service writes them ("$71.72", "CA$1,204.00", "10%"): kept whole by the cleaning. */
const MONEY_OR_PERCENT = /(?:[A-Z]{0,3}[$€£¥₹]\s?\d[\d,]*(?:\.\d+)?)|(?:\d+(?:\.\d+)?\s?%)/g;

/**
 * The supplier's words with anything sensitive taken out: e-mail addresses, phone numbers, long tokens and street
 * addresses. Amounts of money and percentages stay as they are (a phone number is not written "$71.72 (10%").
 * Only for words a supplier wrote: the service's own messages are not cleaned.
 */
export function cleanReviewMessage(message: string): string {
  const kept: string[] = [];
  const masked = message.replace(MONEY_OR_PERCENT, (m) => `\u0000${kept.push(m) - 1}\u0000`);
  return masked
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '[email]')
    .replace(/\b(?:sk|pk|whsec|ssk|sst|tok|sbx_live|sbx_test|sbx_at)_[\w-]{6,}/gi, '[token]')
    .replace(/\b[A-Za-z0-9_-]{32,}\b/g, '[token]')
    .replace(/\+?\d[\d\s().-]{7,}\d/g, '[phone]')
    .replace(
      /\b\d{1,5}\s+(?:[A-Z][\w'-]*\s){0,4}(?:street|st|avenue|ave|road|rd|lane|ln|drive|dr|boulevard|blvd|way|court|ct|place|pl|square|sq|terrace|close)\b\.?/gi,
      '[address]',
    )
    .replace(/\u0000(\d+)\u0000/g, (_, i: string) => kept[Number(i)])
    .slice(0, 500);
}

/** Supplier answers that pause an order for a person, by error kind. */
export function reasonFor(err: SupplierError): ReviewReason | null {
  switch (err.kind) {
    case 'insufficientBalance':
    case 'variantUnavailable':
    case 'destinationUnsupported':
      return err.kind;
    case 'refused':
    case 'credentialsRejected':
    case 'notSupported':
      return 'supplierRefused';
    // Nothing can be ordered on that supplier account (the gateway switched the connection off): a person acts.
    case 'accountUnusable':
      return 'connectionMissing';
    default:
      return null;
  }
}
