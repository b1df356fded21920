// `npm run audit:verify`: walks the audit log's hash chain on DATABASE_URL and names the first
// broken link in words (a missing, edited or reordered row, or rows cut from the end), and any
// guard trigger that is missing. Exit code 0 when the log verifies, 1 when it does not, 2 when it
// could not be checked. Read-only: it never creates a database nor applies a migration.
import { verifyAuditChain } from '../src/server/features/audit/index.ts';
import { EnvError, loadEnv } from '../src/server/env.ts';
import { errorText } from '../src/server/lib/log-safe.ts';
import { MissingStoreError, openStore, type Store } from '../src/server/store/database.ts';

async function main(): Promise<number> {
  let store: Store | undefined;
  try {
    const env = loadEnv();
    store = await openStore(env.DATABASE_URL, { create: false, longStatements: true });
    console.log(`Verifying the audit log of ${store.description}.`);
    const report = await verifyAuditChain(store.db);
    if (report.ok) {
      console.log(
        `Chain verified: ${report.rows} row${report.rows === 1 ? '' : 's'}, every link holds, and the guard triggers are in place.`,
      );
      return 0;
    }
    console.error(`The audit log does NOT verify (${report.rows} row${report.rows === 1 ? '' : 's'} read):`);
    for (const p of report.problems) console.error(`  - ${p}`);
    return 1;
  } catch (error) {
    if (error instanceof EnvError || error instanceof MissingStoreError) console.error(error.message);
    else console.error(`The audit log could not be checked: ${errorText(error)}`);
    return 2;
  } finally {
    await store?.close();
  }
}

process.exitCode = await main();
