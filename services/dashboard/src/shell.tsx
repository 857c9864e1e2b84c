import type { ComponentChildren } from 'preact';
import { Link, useRoute } from 'wouter-preact';
import { API_REFERENCE_URL, SCREENS, type ScreenRoute } from './routes';
import { useSession } from './session';

function NavLink({ screen }: { screen: ScreenRoute }) {
  const [active] = useRoute(screen.path);
  return (
    <Link href={screen.path} aria-current={active ? 'page' : undefined}>
      {screen.label}
    </Link>
  );
}

type NavEntry = { screen: ScreenRoute } | { group: string; members: ScreenRoute[] };

/** SCREENS in order, those of a group together where its first one is. */
function navEntries(): NavEntry[] {
  const entries: NavEntry[] = [];
  for (const screen of SCREENS) {
    if (screen.nav === false) continue;
    if (!screen.group) {
      entries.push({ screen });
      continue;
    }
    const group = entries.find((entry) => 'group' in entry && entry.group === screen.group);
    if (group && 'members' in group) group.members.push(screen);
    else entries.push({ group: screen.group, members: [screen] });
  }
  return entries;
}

/** The navigation: screens grouped as SCREENS says, then the API reference. */
function Navigation() {
  return (
    <nav aria-label="Dashboard">
      <ul>
        {navEntries().map((entry) =>
          'screen' in entry ? (
            <li key={entry.screen.path}>
              <NavLink screen={entry.screen} />
            </li>
          ) : (
            <li key={entry.group}>
              <span class="nav-group">{entry.group}</span>
              <ul aria-label={entry.group}>
                {entry.members.map((member) => (
                  <li key={member.path}>
                    <NavLink screen={member} />
                  </li>
                ))}
              </ul>
            </li>
          ),
        )}
        <li>
          <a href={API_REFERENCE_URL}>API reference</a>
        </li>
      </ul>
    </nav>
  );
}

/** The signed-in frame: the account, Sign out, the navigation, the screen. */
export function Shell({ children }: { children: ComponentChildren }) {
  const { account, signOut } = useSession();
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">leadhook</span>
        <span class="account">
          Signed in as <strong data-testid="account-name">{account.name}</strong>
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <div class="body">
        <Navigation />
        <main id="main">{children}</main>
      </div>
    </div>
  );
}
