import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { bounceMailboxJob, type BounceMailboxOptions } from '../features/mail/bounce-mailbox.ts';

// A real Dovecot IMAP server for one test: its own config in a temp folder, one passwd-file user,
// plain IMAP on 127.0.0.1 at a free port, mail in a temp Maildir. Started and stopped by the test,
// as two-instances.ts does with nginx. .ci/run installs dovecot-imapd.

export const DOVECOT = ['/usr/sbin/dovecot', '/usr/local/sbin/dovecot'].find((p) => existsSync(p)) ?? null;

export interface TestDovecot {
  /** imap://user:password@127.0.0.1:port/INBOX */
  url: string;
  user: string;
  password: string;
  port: number;
  /** The user's home (its Maildir is `Maildir/` in it) and the owner of its mail, for a local MTA to deliver into. */
  home: string;
  mailOwner: { uid: number; gid: number };
  /** One IMAP session as that user, logged out after `fn`. */
  imap<T>(fn: (c: ImapFlow) => Promise<T>): Promise<T>;
  /** Marks every message in the INBOX read (an empty mailbox too), so a test counts only what it delivers. */
  markAllSeen(): Promise<void>;
  stop(): Promise<void>;
}

/** A port on 127.0.0.1 nothing listens on now, for a server this test starts. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** Whether something on 127.0.0.1 takes connections at `port` (a server started and ready). */
export const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** A system user's uid and gid, from /etc/passwd: the user a root-started server drops to. */
export const systemUser = (name: string): { uid: number; gid: number } => {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  const [uid, gid] = line?.split(':').slice(2, 4).map(Number) ?? [];
  if (uid === undefined || gid === undefined || !Number.isFinite(uid))
    throw new Error(`the ${name} system user is missing`);
  return { uid, gid };
};

export async function startDovecot(): Promise<TestDovecot> {
  if (!DOVECOT) throw new Error('dovecot is not installed (apt-get install dovecot-imapd)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-dovecot-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const user = 'bounces';
  const password = randomBytes(12).toString('hex');
  const root = process.getuid?.() === 0;
  // As root, Dovecot drops to its own users; otherwise everything runs as whoever runs the test.
  const me = os.userInfo().username;
  const mailUid = root ? 'dovecot' : String(process.getuid?.());
  const mailGid = root ? 'dovecot' : String(process.getgid?.());
  const home = path.join(dir, 'home', user);
  mkdirSync(home, { recursive: true });
  let mailOwner = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  if (root) {
    mailOwner = systemUser('dovecot');
    chownSync(path.join(dir, 'home'), mailOwner.uid, mailOwner.gid);
    chownSync(home, mailOwner.uid, mailOwner.gid);
  }
  writeFileSync(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}::::::\n`, { mode: 0o644 });
  const conf = `
protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = dh-test-${path.basename(dir)}
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
first_valid_uid = 1
default_internal_user = ${root ? 'dovecot' : me}
default_internal_group = ${root ? 'dovecot' : me}
default_login_user = ${root ? 'dovenull' : me}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailUid} gid=${mailGid} home=${home}
}
`;
  writeFileSync(path.join(dir, 'dovecot.conf'), conf);
  const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', path.join(dir, 'dovecot.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 15_000;
  while (!(await accepts(port))) {
    const log = existsSync(path.join(dir, 'dovecot.log')) ? readFileSync(path.join(dir, 'dovecot.log'), 'utf8') : '';
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`dovecot did not start: ${output}${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const imap = <T>(fn: (c: ImapFlow) => Promise<T>) => imapSession({ port, user, password }, fn);
  return {
    url: `imap://${user}:${password}@127.0.0.1:${port}/INBOX`,
    user,
    password,
    port,
    home,
    mailOwner,
    imap,
    markAllSeen: () =>
      imap(async (c) => {
        const lock = await c.getMailboxLock('INBOX');
        try {
          await c.messageFlagsAdd('1:*', ['\\Seen']).catch(() => undefined);
        } finally {
          lock.release();
        }
      }),
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function imapSession<T>(
  at: { port: number; user: string; password: string },
  fn: (c: ImapFlow) => Promise<T>,
): Promise<T> {
  const c = new ImapFlow({
    host: '127.0.0.1',
    port: at.port,
    secure: false,
    doSTARTTLS: false,
    auth: { user: at.user, pass: at.password },
    logger: false,
  });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.logout();
  }
}

/**
 * Runs `fn` while the app's bounce-mailbox job watches the mailbox, its poll an hour away so that
 * only IMAP IDLE can explain a verdict within seconds: connected, and done with the read it asks
 * for on connecting, before `fn` delivers anything. Resolves to the errors the job reported.
 */
export async function whileWatchingByIdle(opts: BounceMailboxOptions, fn: () => Promise<void>): Promise<unknown[]> {
  const errors: unknown[] = [];
  const job = bounceMailboxJob({ ...opts, pollMs: 60 * 60_000, onError: (e) => errors.push(e) });
  job.start();
  try {
    await job.watcher.ready();
    await job.runOnce();
    await fn();
  } finally {
    await job.stop();
  }
  return errors;
}
