import { Redirect, Route, Router, Switch } from 'wouter-preact';
import { DASHBOARD_BASE, HOME_PATH, SCREENS } from './routes';
import { NotFoundScreen } from './screens/not-found';
import { SessionProvider, useSessionControl } from './session';
import { Shell } from './shell';
import { SignInScreen } from './sign-in';

function Screens() {
  const { state, signIn } = useSessionControl();
  if (state.kind === 'checking') {
    return (
      <main id="main" class="sign-in" aria-busy="true">
        <p>Checking your API key…</p>
      </main>
    );
  }
  if (state.kind === 'signed-out') {
    return <SignInScreen signIn={signIn} initialError={state.error} />;
  }
  return (
    <Shell>
      <Switch>
        <Route path="/">
          <Redirect to={HOME_PATH} replace />
        </Route>
        {SCREENS.map((screen) => (
          <Route key={screen.path} path={screen.path} component={screen.component} />
        ))}
        <Route component={NotFoundScreen} />
      </Switch>
    </Shell>
  );
}

/** The dashboard: path routing under /dashboard, every screen behind sign in. */
export function App() {
  return (
    <SessionProvider>
      <Router base={DASHBOARD_BASE}>
        <Screens />
      </Router>
    </SessionProvider>
  );
}
