import { Screen } from '../components';

/** Integrations > Marketing Sources: the account's marketing sources (to be built). */
export function MarketingSourcesScreen() {
  return <Screen title="Marketing Sources" />;
}
