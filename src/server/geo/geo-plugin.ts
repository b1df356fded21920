import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { GeoLookup } from './geo-lookup.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where a client address is, from the local databases (and a remote service if configured). */
    geo: GeoLookup;
  }
}

/** The geo databases are opened once by the caller (they take half a second) and closed by it. */
export const geoPlugin = fp(
  async (app: FastifyInstance, opts: { geo: GeoLookup }) => {
    app.decorate('geo', opts.geo);
  },
  { name: 'dh-geo', fastify: '5.x' },
);
