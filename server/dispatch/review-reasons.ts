// The review reasons, their flags and their words live in the vocabulary (one module for the service, the console and the node).
export { REVIEW_REASONS, type ReviewReason } from '../platform/vocabulary/review-reasons';

/**
 * The supplier's words with anything sensitive taken out: e-mail addresses, phone numbers,
 * long tokens and street addresses.
 */
export function cleanReviewMessage(message: string): string {
  return message
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '[email]')
    .replace(/\b(?:sk|pk|whsec|ssk|sst|tok|sbx_live|sbx_test|sbx_at)_[\w-]{6,}/gi, '[token]')
    .replace(/\b[A-Za-z0-9_-]{32,}\b/g, '[token]')
    .replace(/\+?\d[\d\s().-]{7,}\d/g, '[phone]')
    .replace(/\b\d{1,5}\s+(?:[A-Z][\w'-]*\s){0,4}(?:street|st|avenue|ave|road|rd|lane|ln|drive|dr|boulevard|blvd|way|court|ct|place|pl|square|sq|terrace|close)\b\.?/gi, '[address]')
    .slice(0, 500);
}
