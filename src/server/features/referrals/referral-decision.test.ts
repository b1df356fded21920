import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import { describe, expect, it } from 'vitest';
import { decideInvite, type InviteFacts } from './referral-decision.ts';
import { isDisposableDomain } from './disposable.ts';

const caps = { perReferrerDaily: 20, perNetworkDaily: 3 };
const fine: InviteFacts = {
  invitedNetworks: ['net-b', 'net-b'],
  referrerNetworks: ['net-a', null],
  invitedEmail: 'bob@example.com',
  referrerEmail: 'ada@example.com',
  countedTodayForReferrer: 0,
  countedTodayFromNetwork: 0,
};

describe('whether an invite counts', () => {
  it('counts a friend from another network, mailbox and a lasting domain, under the caps', () => {
    expect(decideInvite(fine, caps)).toBe('counted');
  });

  it('refuses one network: at sign-up or at confirmation, against the code’s or the referrer’s own sign-up network', () => {
    expect(decideInvite({ ...fine, invitedNetworks: ['net-a', 'net-b'] }, caps)).toBe('same_network');
    expect(decideInvite({ ...fine, invitedNetworks: ['net-b', 'net-a'] }, caps)).toBe('same_network');
    expect(decideInvite({ ...fine, referrerNetworks: [null, 'net-b'] }, caps)).toBe('same_network');
    // Unknown networks are no match.
    expect(decideInvite({ ...fine, invitedNetworks: [null, null], referrerNetworks: [null, null] }, caps)).toBe(
      'counted',
    );
  });

  it('refuses the referrer’s own mailbox', () => {
    expect(decideInvite({ ...fine, invitedEmail: 'ADA+2@example.com' }, caps)).toBe('same_mailbox');
  });

  it('refuses a disposable domain from the package’s list, and its subdomains', () => {
    const listed = disposableEmailBlocklist();
    expect(listed.length).toBeGreaterThan(1000);
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('x.mailinator.com')).toBe(true);
    expect(isDisposableDomain('example.com')).toBe(false);
    expect(isDisposableDomain('gmail.com')).toBe(false);
    for (const domain of listed.slice(0, 50)) expect(isDisposableDomain(domain.toUpperCase())).toBe(true);
    expect(decideInvite({ ...fine, invitedEmail: 'bob@mailinator.com' }, caps)).toBe('disposable');
  });

  it('caps a referrer’s day and a network’s day', () => {
    expect(decideInvite({ ...fine, countedTodayForReferrer: 19 }, caps)).toBe('counted');
    expect(decideInvite({ ...fine, countedTodayForReferrer: 20 }, caps)).toBe('capped');
    expect(decideInvite({ ...fine, countedTodayFromNetwork: 2 }, caps)).toBe('counted');
    expect(decideInvite({ ...fine, countedTodayFromNetwork: 3 }, caps)).toBe('capped');
    expect(decideInvite(fine, { perReferrerDaily: 0, perNetworkDaily: 3 })).toBe('capped');
  });

  it('gives the first reason in order: network, mailbox, disposable, cap', () => {
    const all = {
      ...fine,
      invitedNetworks: ['net-a'],
      invitedEmail: 'ada+x@example.com',
      countedTodayForReferrer: 99,
    };
    expect(decideInvite(all, caps)).toBe('same_network');
    expect(decideInvite({ ...all, invitedNetworks: [] }, caps)).toBe('same_mailbox');
  });
});
