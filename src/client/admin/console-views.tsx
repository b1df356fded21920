import type { ComponentType } from 'react';
import { adminPaths } from '../../shared/paths.ts';
import { AudienceView } from './views/audience-view.tsx';
import { AuditView } from './views/audit-view.tsx';
import { BroadcastView } from './views/broadcast-view.tsx';
import { SessionsView } from './views/sessions-view.tsx';
import { SubscribersView } from './views/subscribers-view.tsx';

/**
 * The console's views, in the order the navigation shows them. A new view is one entry here (its
 * path named in src/shared/paths.ts adminPaths, and served by src/server/admin/console-page.ts).
 */
export interface ConsoleView {
  path: string;
  label: string;
  Component: ComponentType;
}

export const consoleViews: ConsoleView[] = [
  { path: adminPaths.subscribers, label: 'Subscribers', Component: SubscribersView },
  { path: adminPaths.audience, label: 'Audience', Component: AudienceView },
  { path: adminPaths.broadcast, label: 'Broadcast', Component: BroadcastView },
  { path: adminPaths.sessions, label: 'Sessions', Component: SessionsView },
  { path: adminPaths.audit, label: 'Audit log', Component: AuditView },
];

/** Where /admin itself lands. */
export const homeView = adminPaths.subscribers;
