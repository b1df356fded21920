import { siteContent } from '../../../content/site-content.ts';
import type { SiteContent } from '../../shared/content-schema.ts';

// The build validated this file (scripts/check-content.ts); the browser only reads it.
export const content: SiteContent = siteContent;

export const presaleLabel = (c: SiteContent): string =>
  c.presaleDate === null
    ? 'Coming Soon'
    : new Date(`${c.presaleDate}T00:00:00Z`).toLocaleDateString('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      });
