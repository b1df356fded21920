import type { AppMetrics } from '../../plugins/metrics.ts';

interface MailMetrics {
  /** `kind` is the outbox kind (confirmation, broadcast, …): a name from our code. */
  sent(kind: string): void;
  /** One failed attempt (it is retried later unless the server refused for good). */
  failed(kind: string): void;
}

declare module '../../plugins/metrics.ts' {
  interface FeatureMetrics {
    mail: MailMetrics;
  }
}

/** The mail plugin's counters, on the app's registry. */
export function provideMailMetrics(metrics: AppMetrics): void {
  const sent = metrics.counter({
    name: 'dh_mail_sent_total',
    help: 'Emails accepted by the mail server, by kind.',
    labelNames: ['kind'],
  });
  const failed = metrics.counter({
    name: 'dh_mail_failed_total',
    help: 'Attempts to send an email that failed, by kind (most are retried later).',
    labelNames: ['kind'],
  });
  metrics.provide('mail', { sent: (kind) => sent.inc({ kind }), failed: (kind) => failed.inc({ kind }) });
}
