import type { FunctionComponent } from 'preact';
import { DeliveryLogScreen } from './screens/deliveries';
import { DoNotContactScreen } from './screens/do-not-contact';
import { LeadScreen } from './screens/lead';
import { LeadsScreen } from './screens/leads';
import { MarketingSourceScreen } from './screens/marketing-source';
import { MarketingSourcesScreen } from './screens/marketing-sources';
import { PlaybookScreen, PlaybooksScreen } from './screens/playbooks';
import { SettingsIntegrationsScreen } from './screens/settings-integrations';

/** Where the api serves the dashboard; every route below is under it. */
export const DASHBOARD_BASE = '/dashboard';

/** A screen: its path under /dashboard, its link text, the navigation group it sits in. */
export interface ScreenRoute {
  path: string;
  label: string;
  group?: string;
  component: FunctionComponent;
  /** Routed but not linked in the navigation (a page reached from a screen, e.g. /playbooks/:id). */
  hidden?: boolean;
}

/**
 * The app's screens, in navigation order: add a screen here and it is routed and
 * linked (docs/dashboard.md, "Adding a screen").
 */
export const SCREENS: readonly ScreenRoute[] = [
  {
    path: '/integrations/marketing-sources',
    label: 'Marketing Sources',
    group: 'Integrations',
    component: MarketingSourcesScreen,
  },
  {
    path: '/integrations/marketing-sources/:id',
    label: 'Marketing source',
    hidden: true,
    component: MarketingSourceScreen,
  },
  { path: '/playbooks', label: 'Playbooks', component: PlaybooksScreen },
  { path: '/leads', label: 'Leads', component: LeadsScreen },
  // Beside Leads: whom the plays may contact is a question about leads, not a setting.
  { path: '/do-not-contact', label: 'Do not contact', component: DoNotContactScreen },
  { path: '/playbooks/:id', label: 'Playbook', component: PlaybookScreen, hidden: true },
  {
    path: '/subscriptions/:id/deliveries',
    label: 'Delivery log',
    component: DeliveryLogScreen,
    hidden: true,
  },
  { path: '/leads/:id', label: 'Lead', hidden: true, component: LeadScreen },
  {
    path: '/settings/integrations',
    label: 'Integrations',
    group: 'Settings',
    component: SettingsIntegrationsScreen,
  },
];

/** Where `/dashboard` itself leads. */
export const HOME_PATH = SCREENS[0]!.path;

/** The API reference page, served by the api (not a dashboard route). */
export const API_REFERENCE_URL = '/api/v1/docs';
