// `npm run outbox:last`: the links in the newest email the server wrote to the outbox folder
// (SMTP_URL unset), printed to this terminal. The server itself never logs them: a link in an
// email is a live token, and the log is no place for it.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';

const dir = path.resolve(process.env.OUTBOX_DIR || 'data/outbox');
const names = await readdir(dir).catch(() => [] as string[]);
const emails = await Promise.all(
  names
    .filter((n) => n.endsWith('.eml'))
    .map(async (n) => ({ file: path.join(dir, n), at: (await stat(path.join(dir, n))).mtimeMs })),
);
// File names start with the time they were written; the modification time breaks any tie.
const newest = emails.sort((a, b) => a.at - b.at || a.file.localeCompare(b.file)).at(-1);
if (!newest) {
  console.error(`No email in ${dir} yet. Sign up on the page first (the server writes one .eml file per email).`);
  process.exitCode = 1;
} else {
  const mail = await simpleParser(await readFile(newest.file));
  const links = [...new Set((mail.text ?? '').match(/https?:\/\/[^\s<>"')]+/g) ?? [])];
  console.log(`${path.relative(process.cwd(), newest.file)}\n  subject: ${mail.subject ?? ''}`);
  for (const link of links) console.log(`  ${link}`);
}
