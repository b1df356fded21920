// Runs once before the Vitest run: say plainly when the PostgreSQL half of the store tests will be
// skipped, so a green run on a laptop is not mistaken for a PostgreSQL-tested one.
export default function setup(): void {
  if (process.env.TEST_POSTGRES_URL) {
    console.log(`PostgreSQL store tests run against ${process.env.TEST_POSTGRES_URL.replace(/\/\/[^@]*@/, '//…@')}`);
  } else {
    console.log(
      'PostgreSQL store tests are SKIPPED: TEST_POSTGRES_URL is not set (CI sets it; e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm test).',
    );
  }
}
