import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { auditContract, subscribersContract, subscribersCsvContract } from '../../shared/admin/contracts.ts';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { csrfContract } from '../../shared/csrf-contract.ts';
import { contractSchema, registerContract } from './register-contract.ts';

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

  it('takes no guard for a console route (its contract names the role), and any hook for another', () => {
    // What the compiler says is the test (npm run typecheck); registering needs no server started.
    const app = Fastify();
    const hook = async () => undefined;
    expect(() => {
      // @ts-expect-error: a console contract's guard comes from its role, never from the route.
      registerContract(app, auditContract, { onRequest: hook }, async () => ({
        entries: [],
        nextCursor: null,
        actors: [],
      }));
      registerContract(app, csrfContract, { onRequest: hook }, async (_request, reply) => reply.code(204).send());
    }).not.toThrow();
  });
});
