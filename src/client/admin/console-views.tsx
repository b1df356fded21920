import type { ComponentType } from 'react';
import { roleAllows, type OperatorRole } from '../../shared/admin/roles.ts';
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
  /**
   * The least role shown this view. Only a convenience: the server refuses what the role may not
   * read or do (each route's requireRole), whatever the console shows.
   */
  role: OperatorRole;
}

export const consoleViews: ConsoleView[] = [
  { path: adminPaths.subscribers, label: 'Subscribers', Component: SubscribersView, role: 'sender' },
  { path: adminPaths.audience, label: 'Audience', Component: AudienceView, role: 'viewer' },
  { path: adminPaths.broadcast, label: 'Broadcast', Component: BroadcastView, role: 'viewer' },
  { path: adminPaths.sessions, label: 'Sessions', Component: SessionsView, role: 'viewer' },
  { path: adminPaths.audit, label: 'Audit log', Component: AuditView, role: 'sender' },
];

/** The views an operator with `role` is shown, in order. */
export const viewsFor = (role: OperatorRole): ConsoleView[] => consoleViews.filter((v) => roleAllows(role, v.role));

/** Where /admin itself lands: the first view the operator is shown. */
export const homeViewFor = (role: OperatorRole): string => viewsFor(role)[0]?.path ?? adminPaths.sessions;
