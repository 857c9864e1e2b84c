import { Link } from 'wouter-preact';
import { Screen } from '../components';
import { HOME_PATH } from '../routes';

export function NotFoundScreen() {
  return (
    <Screen title="Page not found">
      <p>
        There is no dashboard page at this address. <Link href={HOME_PATH}>Go to the start</Link>.
      </p>
    </Screen>
  );
}
