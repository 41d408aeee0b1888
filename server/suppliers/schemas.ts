import { object } from '../platform/http/schemas';

/** The shopper's delivery address (the supplier contract's `Destination`), as store orders take it and supplier orders show it. */
export const destinationSchema = object(
  {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    line1: { type: 'string', minLength: 1, maxLength: 300 },
    line2: { type: 'string', maxLength: 300 },
    city: { type: 'string', minLength: 1, maxLength: 200 },
    region: { type: 'string', maxLength: 200 },
    postalCode: { type: 'string', minLength: 1, maxLength: 40 },
    country: { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' },
    phone: { type: 'string', maxLength: 50 },
    email: { type: 'string', format: 'email', maxLength: 254 },
  },
  ['name', 'line1', 'city', 'postalCode', 'country'],
);
