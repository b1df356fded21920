// Child process started by sinkCeiling() (mail.ts): sends BLAST_COUNT emails of a broadcast's size
// to SINK_URL through the server's own pooled mailer, BLAST_CONNECTIONS at a time, with no outbox
// behind it, and prints how long that took: the most the sink and the pool can carry.
import { smtpMailer } from '../../src/server/features/mail/mailer.ts';

const count = Number(process.env.BLAST_COUNT);
const connections = Number(process.env.BLAST_CONNECTIONS);
const mailer = smtpMailer(String(process.env.SINK_URL), 'Bench <no-reply@bench.example>', connections);
const paragraph = 'Thank you for waiting with us. Read the FAQ before you buy. '.repeat(20);
let next = 0;
const runner = async () => {
  for (let i = next++; i < count; i = next++) {
    await mailer.send({
      to: `ceiling${i}@example.com`,
      subject: 'The presale is live',
      text: paragraph,
      html: `<h1>The presale is live</h1><p>${paragraph}</p>`,
      headers: { 'List-Unsubscribe': '<https://bench.example/unsubscribe?token=x>' },
    });
  }
};
const started = performance.now();
const cpuBefore = process.cpuUsage();
await Promise.all(Array.from({ length: connections }, runner));
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
mailer.close();
// The CPU it took (user + system): a figure the neighbours' load moves far less than the time.
console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000 }));
