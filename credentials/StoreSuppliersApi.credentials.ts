import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

/** The key a Developer account creates in Store Suppliers, and the address of the service it belongs to. */
export class StoreSuppliersApi implements ICredentialType {
  name = 'storeSuppliersApi';

  displayName = 'Store Suppliers API';

  icon = { light: 'file:../nodes/StoreSuppliers/storeSuppliers.svg', dark: 'file:../nodes/StoreSuppliers/storeSuppliers.dark.svg' } as const;

  documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-store-suppliers#credential';

  properties: INodeProperties[] = [
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      description: 'An API key of a Developer account (it starts with ssk_). The calls cost the same credits as the same actions in the dashboard.',
    },
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: 'http://127.0.0.1:3000',
      placeholder: 'e.g. https://suppliers.example.com',
      required: true,
      description: 'The address of the Store Suppliers service, without /api',
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: {
      headers: {
        'X-API-Key': '={{$credentials.apiKey}}',
      },
    },
  };

  /**
   * Describes the calling key. HTTP errors are read as answers (ignoreHttpStatusErrors) so that the rules
   * below, which n8n applies to answers, give the message: an answer that is the service's
   * `unauthenticated` error is a wrong or revoked key; any other answer that does not describe a key
   * (another server's 404 page, another API) is a wrong Base URL. No answer at all is n8n's own
   * connection error.
   */
  test: ICredentialTestRequest = {
    request: {
      baseURL: '={{$credentials.baseUrl}}',
      url: '/api/api-key/current',
      method: 'GET',
      ignoreHttpStatusErrors: true,
    },
    rules: [
      {
        type: 'responseSuccessBody',
        properties: {
          key: 'error.code',
          value: 'unauthenticated',
          message: 'The API key was not accepted: it is unknown or revoked (401 unauthenticated). Copy the key again from your Developer settings.',
        },
      },
      {
        type: 'responseSuccessBody',
        properties: {
          key: 'error.code',
          value: 'developerAccountRequired',
          message: 'API keys belong to Developer accounts: upgrade the account that owns the key (free), then test again.',
        },
      },
      {
        type: 'responseSuccessBody',
        properties: {
          key: 'result.key.id',
          value: undefined,
          message:
            'No Store Suppliers API answers at this Base URL (GET /api/api-key/current did not describe a key). Use the address of the service itself, without /api.',
        },
      },
    ],
  };
}
