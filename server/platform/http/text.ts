import { errors, ErrorDetail } from '../errors';
import type { JsonSchema } from './route';

/** The longest free text any field takes unless its schema says less (product descriptions say more). */
const DEFAULT_MAX_TEXT = 2000;
/** Deeper than any request body the API defines; deeper input is refused before anything walks it. */
const MAX_DEPTH = 32;
const MAX_DETAILS = 20;

// A NUL or an unpaired surrogate: Postgres cannot store either in text or jsonb, and neither is real text.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What in `s` cannot be stored as text, or null when all of it can. */
function unstorable(s: string): string | null {
  const m = UNSTORABLE.exec(s);
  if (!m) return null;
  return m[0] === '\u0000' ? 'a NUL character' : 'an unpaired surrogate';
}

function pointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The shared string rule, applied to every string and every key of a request's params, query or body whatever
 * its schema says: no NUL, no unpaired surrogates, nesting no deeper than MAX_DEPTH. Throws 400 validationFailed.
 */
export function checkText(where: string, value: unknown): void {
  const found: ErrorDetail[] = [];
  const walk = (v: unknown, at: string, depth: number): void => {
    if (found.length >= MAX_DETAILS) return;
    if (typeof v === 'string') {
      const why = unstorable(v);
      if (why) found.push({ field: at, message: `must not contain ${why}` });
      return;
    }
    if (!v || typeof v !== 'object') return;
    if (depth >= MAX_DEPTH) {
      found.push({ field: at, message: `is nested deeper than ${MAX_DEPTH} levels` });
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${at}/${i}`, depth + 1));
      return;
    }
    for (const key of Object.keys(v)) {
      const why = unstorable(key);
      if (why) {
        found.push({ field: at, message: `has a field name containing ${why}` });
        continue;
      }
      walk((v as Record<string, unknown>)[key], `${at}/${pointer(key)}`, depth + 1);
    }
  };
  walk(value, where, 0);
  if (found.length) throw errors.validationFailed(found);
}

/**
 * A copy of a request schema in which every string without its own bound gets DEFAULT_MAX_TEXT, so every free-text
 * field has a maximum length; used for validation and for the OpenAPI document alike.
 */
export function boundStrings(schema: JsonSchema): JsonSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      // Property names and enum/const/default values are data, not schemas.
      if (k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'definitions') {
        out[k] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([name, s]) => [name, visit(s)]));
      } else if (k === 'enum' || k === 'const' || k === 'default' || k === 'examples') {
        out[k] = v;
      } else {
        out[k] = visit(v);
      }
    }
    const type = out.type;
    const isString = type === 'string' || (Array.isArray(type) && type.includes('string'));
    if (isString && out.maxLength === undefined && out.enum === undefined && out.const === undefined) out.maxLength = DEFAULT_MAX_TEXT;
    return out;
  };
  return visit(schema) as JsonSchema;
}
