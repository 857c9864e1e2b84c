import { Screen } from '../components';

/** Leads: the account's leads (to be built). */
export function LeadsScreen() {
  return <Screen title="Leads" />;
}
