import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import { describe, expect, it } from 'vitest';
import { decideInvite, type InviteFacts } from './referral-decision.ts';
import { isDisposableDomain } from './disposable.ts';
import { isLargePublicProvider, siteOf } from './invite-domains.ts';

const caps = { perReferrerDaily: 20, perNetworkDaily: 3, perPrivateDomain: 5 };
const fine: InviteFacts = {
  invitedNetworks: ['net-b', 'net-b'],
  referrerNetworks: ['net-a', null],
  invitedEmail: 'bob@example.com',
  referrerEmail: 'ada@example.com',
  mailboxCounted: false,
  countedAtDomain: 0,
  countedTodayForReferrer: 0,
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

  it('refuses the referrer’s own mailbox, and a mailbox that counted for them already', () => {
    expect(decideInvite({ ...fine, invitedEmail: 'ADA+2@example.com' }, caps)).toBe('same_mailbox');
    expect(decideInvite({ ...fine, mailboxCounted: true }, caps)).toBe('same_mailbox');
  });

  it('stops counting at one private domain past the threshold, never at a large public provider', () => {
    expect(decideInvite({ ...fine, invitedEmail: 'e@farm.example', countedAtDomain: 4 }, caps)).toBe('counted');
    expect(decideInvite({ ...fine, invitedEmail: 'e@farm.example', countedAtDomain: 5 }, caps)).toBe('one_domain');
    for (const domain of [
      'gmail.com',
      'googlemail.com',
      'outlook.com',
      'hotmail.co.uk',
      'yahoo.fr',
      'gmx.de',
      'qq.com',
    ])
      expect(decideInvite({ ...fine, invitedEmail: `e@${domain}`, countedAtDomain: 500 }, caps), domain).toBe(
        'counted',
      );
    expect(
      decideInvite({ ...fine, invitedEmail: 'e@farm.example', countedAtDomain: 0 }, { ...caps, perPrivateDomain: 0 }),
    ).toBe('one_domain');
  });

  it('reads a farm’s subdomains as one domain, and knows the large providers from small ones', () => {
    expect(siteOf('a1.farm.co.uk')).toBe('farm.co.uk');
    expect(siteOf('x.y.duckdns.org')).toBe('duckdns.org');
    expect(isLargePublicProvider('mail.yahoo.co.jp')).toBe(true);
    expect(isLargePublicProvider('example.org')).toBe(false);
    // An alias service (one person, any number of addresses) is not a large provider.
    expect(isLargePublicProvider('33mail.com')).toBe(false);
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

  it('caps a referrer’s day (the network’s day is taken in the store)', () => {
    expect(decideInvite({ ...fine, countedTodayForReferrer: 19 }, caps)).toBe('counted');
    expect(decideInvite({ ...fine, countedTodayForReferrer: 20 }, caps)).toBe('capped');
    expect(decideInvite(fine, { ...caps, perReferrerDaily: 0 })).toBe('capped');
  });

  it('gives the first reason in order: network, mailbox, disposable, one domain, cap', () => {
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
