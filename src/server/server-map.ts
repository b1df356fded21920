import type { FastifyInstance } from 'fastify';
import { localeSegment, locales, translatedLocales } from '../shared/locales.ts';

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
    `Plugins (in registration order)\n\n${onePerLocale(tree)}\n`,
    `Background jobs (started in this order, stopped in reverse): ${app.jobs.names().join(', ')}\n`,
    `Routes\n\n${oneLocaleTree(app.printRoutes({ commonPrefix: false }))}`,
  ].join('\n');
}

// The map shows each locale's plugins and routes once, under `<locale>`, so a locale added by its
// folder and its registry line leaves the README's copy as it is.

/** A plugin registered once per locale, listed once: `oneClickUnsubscribe (one per locale)`. */
function onePerLocale(tree: string): string {
  const lines = tree.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    let run = 1;
    while (lines[i + run] === line) run++;
    if (run === locales.length) {
      out.push(`${line} (one per locale)`);
      i += run - 1;
    } else out.push(line);
  }
  return out.join('\n');
}

/** Each translated locale's route tree (`/es/…`) as one tree under `<locale>`, listed once. */
function oneLocaleTree(routes: string): string {
  const segments = new Set(translatedLocales.map(localeSegment));
  const lines = routes.split('\n');
  const out: string[] = [];
  let shown = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const head = /^(.*?)([├└]── )(\S+)( \(.*)$/.exec(line);
    if (!head || !segments.has(head[3] ?? '')) {
      out.push(line);
      continue;
    }
    const [, indent = '', branch = '', , rest = ''] = head;
    // The tree's lines below this one, up to its next sibling.
    let end = i + 1;
    while (
      end < lines.length &&
      (lines[end] ?? '').startsWith(indent) &&
      /^[│ ] {3}/.test((lines[end] ?? '').slice(indent.length))
    )
      end++;
    if (!shown || branch.startsWith('└')) out.push(`${indent}${branch}<locale>${rest}`, ...lines.slice(i + 1, end));
    shown = true;
    i = end - 1;
  }
  return out.join('\n');
}
