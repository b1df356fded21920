import type { FastifyInstance } from 'fastify';

/**
 * The server's map as the README shows it: the plugin tree (infrastructure, then features), the
 * background jobs and the route table of a ready app. One function for `npm run server-map` and
 * for the test that holds the README's copy to it, so the two cannot drift apart.
 */
export function serverMap(app: FastifyInstance): string {
  // avvio lists a "bound _after" step after every registration, and each plugin's load time:
  // noise in a map, and the time differs at every run.
  const tree = app
    .printPlugins()
    .split('\n')
    .filter((line) => !line.includes('bound _after'))
    .map((line) => line.replace(/ \d+ ms$/, '').replace('─┬', '──'))
    .join('\n');
  return [
    `Plugins (in registration order)\n\n${tree}\n`,
    `Background jobs (started in this order, stopped in reverse): ${app.jobs.names().join(', ')}\n`,
    `Routes\n\n${app.printRoutes({ commonPrefix: false })}`,
  ].join('\n');
}
