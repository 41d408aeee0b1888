import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { errors, ErrorDetail } from '../errors';
import type { JsonSchema } from './route';
import { boundStrings, checkText } from './text';

// Bodies are taken as sent; params and query arrive as strings and are coerced to the schema's types.
const bodyAjv = addFormats(new Ajv({ allErrors: true, strict: false, removeAdditional: false }));
const textAjv = addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: 'array', useDefaults: true }));
bodyAjv.opts.useDefaults = true;

function toDetails(where: string, list: ErrorObject[] | null | undefined): ErrorDetail[] {
  return (list ?? []).map((e) => {
    let field = `${where}${e.instancePath}`;
    let message = e.message ?? 'is not valid';
    if (e.keyword === 'additionalProperties') {
      field = `${field}/${(e.params as { additionalProperty: string }).additionalProperty}`;
      message = 'is not a known field';
    } else if (e.keyword === 'required') {
      field = `${field}/${(e.params as { missingProperty: string }).missingProperty}`;
      message = 'is required';
    }
    return { field, message };
  });
}

type Where = 'params' | 'query' | 'body';

/**
 * A route's validators, each compiled on its first use: a process compiles the routes it is asked, not all of them
 * as it starts (compiling every schema was a fifth of the service's start-up CPU). `compileAll` compiles them now;
 * test/platform/route-schemas.test.ts does so for every route of the table.
 */
export function compileValidators(schemas: { params?: JsonSchema; query?: JsonSchema; body?: JsonSchema }) {
  const compiled: Partial<Record<Where, ValidateFunction | null>> = {};
  const validatorOf = (where: Where): ValidateFunction | null => {
    if (compiled[where] !== undefined) return compiled[where]!;
    const schema = schemas[where];
    return (compiled[where] = schema ? (where === 'body' ? bodyAjv : textAjv).compile(boundStrings(schema)) : null);
  };
  const validate = (where: Where, value: unknown): void => {
    checkText(where, value);
    const fn = validatorOf(where);
    if (!fn) {
      if (where === 'body' && value !== undefined && !(typeof value === 'object' && value !== null && Object.keys(value).length === 0)) {
        throw errors.validationFailed([{ field: 'body', message: 'this route takes no body' }]);
      }
      if (where === 'query' && value && Object.keys(value as object).length) {
        throw errors.validationFailed(Object.keys(value as object).map((k) => ({ field: `query/${k}`, message: 'is not a known field' })));
      }
      return;
    }
    if (!fn(value)) throw errors.validationFailed(toDetails(where, fn.errors));
  };
  return Object.assign(validate, { compileAll: (): void => void (['params', 'query', 'body'] as const).forEach(validatorOf) });
}
