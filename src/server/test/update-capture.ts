import type { CompiledQuery, Kysely, KyselyPlugin } from 'kysely';
import type { Database } from '../store/schema.ts';

/**
 * A handle on `db` that records every UPDATE it is asked to run, compiled as the database
 * receives it: for asking the database about the very statements code sends (a plan, a count).
 */
export function captureUpdates(db: Kysely<Database>): { db: Kysely<Database>; updates: CompiledQuery[] } {
  const updates: CompiledQuery[] = [];
  const executor = db.getExecutor();
  const capture: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (node.kind === 'UpdateQueryNode') updates.push(executor.compileQuery(node, { queryId: 'capture' }));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: db.withPlugin(capture), updates };
}
