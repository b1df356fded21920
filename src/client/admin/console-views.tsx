import type { ComponentType } from 'react';
import { adminPaths } from '../../shared/paths.ts';
import { AuditView } from './views/audit-view.tsx';
import { BroadcastView } from './views/broadcast-view.tsx';
import { ComingView } from './views/coming-view.tsx';
import { SessionsView } from './views/sessions-view.tsx';

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
  // Next: SubscribersView (list, search, detail, export, erase).
  { path: adminPaths.subscribers, label: 'Subscribers', Component: () => <ComingView title="Subscribers" /> },
  // Next: AudienceView (visitors, sign-ups, conversion, chart).
  { path: adminPaths.audience, label: 'Audience', Component: () => <ComingView title="Audience" /> },
  { path: adminPaths.broadcast, label: 'Broadcast', Component: BroadcastView },
  { path: adminPaths.sessions, label: 'Sessions', Component: SessionsView },
  { path: adminPaths.audit, label: 'Audit log', Component: AuditView },
];

/** Where /admin itself lands. */
export const homeView = adminPaths.subscribers;
