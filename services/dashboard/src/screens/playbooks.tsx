import { Screen } from '../components';

/** Playbooks: the account's playbooks (to be built). */
export function PlaybooksScreen() {
  return <Screen title="Playbooks" />;
}
