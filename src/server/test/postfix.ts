import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { accepts, freePort, systemUser } from './dovecot.ts';

// A real Postfix for one test: its own config_directory, queue and data folders in a temp folder,
// SMTP on 127.0.0.1 at a free port, relaying everything to a stand-in receiving server the test
// runs (`relayPort`), and delivering mail for `bounceDomain` — the DSNs it writes to our VERP
// senders — straight into a Dovecot user's Maildir (its `virtual` agent), the mailbox the app reads.
// Its queue gives up after a few seconds, so a 4xx answer becomes an "expired" DSN within a test.
// Postfix must be started as root (it drops to its `postfix` user); .ci/run installs `postfix`.

export const POSTFIX = ['/usr/sbin/postfix', '/usr/local/sbin/postfix'].find((p) => existsSync(p)) ?? null;
const MASTER = '/usr/lib/postfix/sbin/master';
/** Whether this process may start Postfix: installed, and running as root. */
export const CAN_RUN_POSTFIX = POSTFIX !== null && existsSync(MASTER) && process.getuid?.() === 0;

const run = promisify(execFile);

export interface TestPostfix {
  /** smtp://127.0.0.1:port, for smtpMailer: Postfix takes mail from 127.0.0.1 without a password. */
  url: string;
  port: number;
  /** Postfix's own log so far (for a failing test's message). */
  log(): string;
  /** Asks the queue manager to try every deferred email now (`postfix flush`, i.e. `postqueue -f`). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPostfix(opts: {
  /** The stand-in receiving server every email is relayed to. */
  relayPort: number;
  /** Mail to this domain (the VERP senders', and a feedback loop's) is delivered into `maildir`. */
  bounceDomain: string;
  /** The Dovecot user's home (its Maildir is Maildir/ in it) and the owner of its mail. */
  home: string;
  mailOwner: { uid: number; gid: number };
  /** How long a 4xx-deferred email is retried before it bounces as expired. */
  queueLifetime?: string;
}): Promise<TestPostfix> {
  if (!POSTFIX) throw new Error('postfix is not installed (apt-get install postfix)');
  if (process.getuid?.() !== 0) throw new Error('postfix has to be started as root');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-postfix-'));
  chmodSync(dir, 0o755);
  const [conf, queue, data] = ['conf', 'queue', 'data'].map((d) => path.join(dir, d)) as [string, string, string];
  for (const d of [conf, queue, data]) mkdirSync(d, { mode: 0o755 });
  // Postfix keeps its lock and caches here, as its own user.
  const pf = systemUser('postfix');
  chownSync(data, pf.uid, pf.gid);
  const port = await freePort();
  const lifetime = opts.queueLifetime ?? '3s';
  const logFile = path.join(dir, 'postfix.log');
  writeFileSync(
    path.join(conf, 'main.cf'),
    `compatibility_level = 3.6
queue_directory = ${queue}
data_directory = ${data}
mail_owner = postfix
setgid_group = postdrop
maillog_file = ${logFile}
maillog_file_prefixes = ${dir}
myhostname = mta.dh-test.example
mydomain = dh-test.example
myorigin = $myhostname
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_recipient_restrictions = permit_mynetworks, reject
# Everything else goes to the stand-in receiver, by address: no DNS at all.
relayhost = [127.0.0.1]:${opts.relayPort}
smtp_dns_support_level = disabled
smtp_tls_security_level = none
smtpd_tls_security_level = none
# VERP: bounces+<signed id>@ is delivered like bounces@ (the same Maildir either way).
recipient_delimiter = +
virtual_mailbox_domains = ${opts.bounceDomain}
virtual_mailbox_base = ${path.dirname(opts.home)}
virtual_mailbox_maps = static:${path.basename(opts.home)}/Maildir/
virtual_uid_maps = static:${opts.mailOwner.uid}
virtual_gid_maps = static:${opts.mailOwner.gid}
virtual_minimum_uid = 1
# A 4xx is retried every second and given up after ${lifetime}: "delayed", then "expired", in a test's time.
maximal_queue_lifetime = ${lifetime}
bounce_queue_lifetime = ${lifetime}
delay_warning_time = 1s
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 1s
`,
  );
  // Only the services this needs, none chrooted (the queue is a temp folder), SMTP on our port.
  writeFileSync(
    path.join(conf, 'master.cf'),
    [
      `127.0.0.1:${port} inet n - n - - smtpd`,
      'pickup unix n - n 60 1 pickup',
      'cleanup unix n - n - 0 cleanup',
      'qmgr unix n - n 300 1 qmgr',
      'rewrite unix - - n - - trivial-rewrite',
      'bounce unix - - n - 0 bounce',
      'defer unix - - n - 0 bounce',
      'trace unix - - n - 0 bounce',
      'verify unix - - n - 1 verify',
      'flush unix n - n 1000? 0 flush',
      'proxymap unix - - n - - proxymap',
      'smtp unix - - n - - smtp',
      'relay unix - - n - - smtp',
      'showq unix n - n - - showq',
      'error unix - - n - - error',
      'retry unix - - n - - error',
      'discard unix - - n - - discard',
      'virtual unix - n n - - virtual',
      'anvil unix - - n - 1 anvil',
      'scache unix - - n - 1 scache',
      'postlog unix-dgram n - n - 1 postlogd',
      '',
    ].join('\n'),
  );
  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  // The master runs in the foreground as this test's child (`-d`), as Dovecot does (-F), so the
  // test owns its lifetime; `postfix check` makes the queue's folders first.
  await run(POSTFIX, ['-c', conf, 'check'], { timeout: 30_000 });
  const child: ChildProcess = spawn(MASTER, ['-c', conf, '-d'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  const stopIt = async () => {
    if (exited) return;
    const gone = new Promise((r) => child.once('exit', r));
    // SIGTERM: the master stops its services and exits.
    child.kill('SIGTERM');
    await gone;
  };
  const deadline = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (exited || Date.now() > deadline) {
      await stopIt().catch(() => child.kill('SIGKILL'));
      const said = `${output}${log()}`;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`postfix did not start: ${said}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    log,
    async flush() {
      // A failed flush (the master between services) is the next scan's to make up.
      await run(POSTFIX, ['-c', conf, 'flush'], { timeout: 10_000 }).catch(() => undefined);
    },
    async stop() {
      await stopIt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
