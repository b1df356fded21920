import { describe, expect, it } from 'vitest';
import { subscribersContract, subscribersCsvContract } from '../../shared/admin/contracts.ts';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { csrfContract } from '../../shared/csrf-contract.ts';
import { contractSchema } from './register-contract.ts';

describe('a contract as Fastify registers it', () => {
  it('checks a JSON reply against its schema', () => {
    expect(contractSchema(subscribersContract).response).toEqual({
      200: subscribersContract.reply,
      '4xx': apiErrorSchema,
      '5xx': apiErrorSchema,
    });
  });

  it('gives a file or an empty answer no 2xx schema, and its errors the one shape', () => {
    for (const contract of [subscribersCsvContract, csrfContract]) {
      expect(contractSchema(contract).response).toEqual({ '4xx': apiErrorSchema, '5xx': apiErrorSchema });
    }
    expect(contractSchema(subscribersCsvContract)).toMatchObject({ body: subscribersCsvContract.body });
  });
});
