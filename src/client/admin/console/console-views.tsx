import type { ComponentType } from 'react';
import { consoleViewPaths, consoleViewPath, type ConsoleViewKey } from '../../../shared/admin/console-views.ts';
import { roleAllows, type OperatorRole } from '../../../shared/admin/roles.ts';
import { AllowlistView } from '../allowlist/allowlist-view.tsx';
import { AudienceView } from '../analytics/audience-view.tsx';
import { AuditView } from '../audit/audit-view.tsx';
import { BroadcastView } from '../broadcast/broadcast-view.tsx';
import { SessionsView } from '../operators/sessions-view.tsx';
import { SubscribersView } from '../subscribers/subscribers-view.tsx';
import { SuppressionsView } from '../mail/suppressions-view.tsx';
import { ReferralsView } from '../referrals/referrals-view.tsx';

interface ViewEntry {
  label: string;
  /**
   * The least role shown this view. Only a convenience: the server refuses what the role may not
   * read or do (each route's contract), whatever the console shows.
   */
  role: OperatorRole;
  Component: ComponentType;
}

// The views, in the order the navigation shows them: one line each. Each key is a view's path in
// adminPaths (src/shared/paths.ts, read by src/shared/admin/console-views.ts); a path without a
// line here, or a line without a path, does not compile.
const entries: Record<ConsoleViewKey, ViewEntry> = {
  subscribers: { label: 'Subscribers', role: 'sender', Component: SubscribersView },
  audience: { label: 'Audience', role: 'viewer', Component: AudienceView },
  broadcast: { label: 'Broadcast', role: 'viewer', Component: BroadcastView },
  sessions: { label: 'Sessions', role: 'viewer', Component: SessionsView },
  suppressions: { label: 'Suppressions', role: 'sender', Component: SuppressionsView },
  allowlist: { label: 'Allowlist', role: 'sender', Component: AllowlistView },
  referrals: { label: 'Referrals', role: 'viewer', Component: ReferralsView },
  audit: { label: 'Audit log', role: 'sender', Component: AuditView },
};

export interface ConsoleView extends ViewEntry {
  path: string;
}

export const consoleViews: ConsoleView[] = (Object.keys(entries) as ConsoleViewKey[]).map((key) => ({
  path: consoleViewPaths[key],
  ...entries[key],
}));

/** The views an operator with `role` is shown, in order. */
export const viewsFor = (role: OperatorRole): ConsoleView[] => consoleViews.filter((v) => roleAllows(role, v.role));

/** Where /admin itself lands: the first view the operator is shown. */
export const homeViewFor = (role: OperatorRole): string => viewsFor(role)[0]?.path ?? consoleViewPath('sessions');
