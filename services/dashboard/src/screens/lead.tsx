import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Link, useParams } from 'wouter-preact';
import type { Schema } from '../api/client';
import { apiErrorText } from '../api/errors';
import { ErrorMessage, Screen } from '../components';
import '../ui/screens.css';
import { useApi } from '../session';
import { deferralInWords, formatDateTime, labelInWords } from '../ui/format';

type LeadDetail = Schema<'LeadDetail'>;
type Activity = LeadDetail['activities'][number];

/** The submission fields in the order of docs/intake.md, "Fields", with their names in words. */
const FIELD_NAMES: readonly [string, string][] = [
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['phone', 'Phone'],
  ['email', 'Email'],
  ['date_of_birth', 'Date of birth'],
  ['gender', 'Gender'],
  ['marital_status', 'Marital status'],
  ['credit_rating', 'Credit rating'],
  ['current_residence_address', 'Address'],
  ['current_residence_city', 'City'],
  ['current_residence_state', 'State'],
  ['current_residence_zip', 'ZIP'],
  ['current_insurance_carrier', 'Insurance carrier'],
  ['current_insurance_coverage', 'Insurance coverage'],
];
const CONSENT_FIELDS = new Set(['tcpa_opt_in_token', 'tcpa_opt_in_url']);
const PROVIDERS: Record<string, string> = { trustedform: 'TrustedForm', jornaya: 'Jornaya LeadiD' };
const PLAY_STATUS: Record<string, string> = {
  active: 'Active',
  completed: 'Completed',
  stopped: 'Stopped',
};

function Facts({ label, rows }: { label: string; rows: [string, ComponentChildren][] }) {
  return (
    <dl class="lead-facts" aria-label={label}>
      {rows.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value === '' || value === null || value === undefined ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What an activity's data says, in words: a deferral's wait, a reply's text. */
function ActivityDetails({ activity }: { activity: Activity }) {
  const data = activity.data as Record<string, unknown>;
  if (activity.activity_label === 'contact_deferred') {
    const deferral = deferralInWords(data, activity.occurred_at);
    return (
      <>
        <p class="deferral">{deferral.summary}</p>
        {deferral.reason ? <p class="help">Why: {deferral.reason}</p> : null}
      </>
    );
  }
  if (typeof data.body === 'string') return <p class="quote">“{data.body}”</p>;
  return null;
}

/** The element id of an activity in the timeline: `/leads/<id>#activity-<activity id>` opens it. */
export function activityAnchor(activityId: string): string {
  return `activity-${activityId}`;
}

/**
 * The activity the address's fragment names (a link from the do-not-contact list to
 * the STOP reply that put a phone there): scrolled to, focused and marked, once the
 * lead has loaded. After the screen's own focus on its heading, which would scroll
 * back to the top.
 */
function useLinkedActivity(): string | undefined {
  const [linked] = useState(() => {
    // Activity ids are plain letters and digits: nothing to decode.
    const hash = window.location.hash.slice(1);
    return hash.startsWith('activity-') ? hash : undefined;
  });
  useEffect(() => {
    if (!linked) return;
    const timer = setTimeout(() => {
      const item = document.getElementById(linked);
      item?.focus();
      item?.scrollIntoView({ block: 'center' });
    }, 0);
    return () => clearTimeout(timer);
  }, [linked]);
  return linked;
}

function Timeline({ activities }: { activities: Activity[] }) {
  const linked = useLinkedActivity();
  if (activities.length === 0) {
    return <p>Nothing has happened to this lead yet: its playbook has not started.</p>;
  }
  return (
    <ol class="timeline" aria-label="Activity timeline, oldest first">
      {activities.map((activity) => {
        const anchor = activityAnchor(activity.id);
        const isLinked = anchor === linked;
        return (
          <li
            key={activity.id}
            id={anchor}
            data-label={activity.activity_label}
            tabIndex={isLinked ? -1 : undefined}
            aria-current={isLinked ? 'true' : undefined}
            class={isLinked ? 'linked' : undefined}
          >
            <time dateTime={activity.occurred_at}>{formatDateTime(activity.occurred_at)}</time>
            <span class={`tag tag-${activity.activity_type}`}>
              {activity.activity_type === 'outcome' ? 'Outcome' : 'Event'}
            </span>
            <strong>{labelInWords(activity.activity_label)}</strong>
            {activity.activity_note ? <p class="note">{activity.activity_note}</p> : null}
            <ActivityDetails activity={activity} />
          </li>
        );
      })}
    </ol>
  );
}

function LeadView({ lead }: { lead: LeadDetail }) {
  const known = new Set(FIELD_NAMES.map(([name]) => name));
  const otherFields = Object.keys(lead.fields)
    .filter((name) => !known.has(name) && !CONSENT_FIELDS.has(name))
    .sort();
  const extra = Object.entries(lead.extra);
  return (
    <>
      <section aria-labelledby="lead-summary">
        <h2 id="lead-summary">Summary</h2>
        <Facts
          label="Summary"
          rows={[
            ['Lead id', <code key="id">{lead.id}</code>],
            ['Source', lead.marketing_source.name],
            ['Playbook', lead.playbook.name],
            ['Received', formatDateTime(lead.consent.received_at)],
            ['Outcome', lead.outcome ? labelInWords(lead.outcome) : 'None yet'],
            ['Opted out', lead.opted_out ? 'Yes' : 'No'],
            [
              'Play',
              lead.play
                ? `${PLAY_STATUS[lead.play.status] ?? lead.play.status}, next step ${lead.play.current_step + 1}${
                    lead.play.next_run_at ? ` due ${formatDateTime(lead.play.next_run_at)}` : ''
                  }`
                : 'Not enrolled yet',
            ],
            ['External id', lead.external_id ?? ''],
          ]}
        />
      </section>
      <section aria-labelledby="lead-fields">
        <h2 id="lead-fields">Fields</h2>
        <Facts
          label="Fields"
          rows={[
            ...FIELD_NAMES.map(([name, words]): [string, ComponentChildren] => [
              words,
              lead.fields[name] ?? '',
            ]),
            ...otherFields.map((name): [string, ComponentChildren] => [name, lead.fields[name]]),
          ]}
        />
        {extra.length > 0 ? (
          <>
            <h3>Extra fields from the seller</h3>
            <Facts
              label="Extra fields"
              rows={extra.map(([name, value]): [string, ComponentChildren] => [
                name,
                value === null ? 'null' : String(value),
              ])}
            />
          </>
        ) : null}
      </section>
      <section aria-labelledby="lead-consent">
        <h2 id="lead-consent">Consent evidence</h2>
        <Facts
          label="Consent evidence"
          rows={[
            ['Token', <code key="token">{lead.consent.tcpa_opt_in_token}</code>],
            [
              'Provider',
              lead.consent.provider
                ? (PROVIDERS[lead.consent.provider] ?? lead.consent.provider)
                : 'Not recognised',
            ],
            ['Consent page URL', lead.consent.tcpa_opt_in_url],
            ['IP address', lead.consent.ip ?? ''],
            ['User agent', lead.consent.user_agent ?? ''],
            ['Received', formatDateTime(lead.consent.received_at)],
          ]}
        />
      </section>
      <section aria-labelledby="lead-duplicates">
        <h2 id="lead-duplicates">Duplicates</h2>
        {lead.duplicates.length === 0 ? (
          <p>No later submission of this phone.</p>
        ) : (
          <table class="data-table">
            <caption class="visually-hidden">Later submissions of this phone, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Source</th>
                <th scope="col">External id</th>
              </tr>
            </thead>
            <tbody>
              {lead.duplicates.map((duplicate) => (
                <tr key={`${duplicate.received_at}-${duplicate.marketing_source.id}`}>
                  <td>{formatDateTime(duplicate.received_at)}</td>
                  <td>{duplicate.marketing_source.name}</td>
                  <td>{duplicate.external_id ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="lead-timeline">
        <h2 id="lead-timeline">Timeline</h2>
        <Timeline activities={lead.activities} />
      </section>
    </>
  );
}

type State =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'loaded'; lead: LeadDetail };

/** A lead's page (/leads/:id): fields, consent evidence, duplicates, timeline. */
export function LeadScreen() {
  const api = useApi();
  const { id } = useParams<{ id: string }>();
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    setState({ kind: 'loading' });
    api
      .GET('/leads/{id}', { params: { path: { id } } })
      .then(({ data, error, response }) => {
        if (!live) return;
        if (data) setState({ kind: 'loaded', lead: data });
        else if (response.status === 404) {
          setState({ kind: 'failed', message: 'There is no lead with this id in your account.' });
        } else setState({ kind: 'failed', message: apiErrorText(error, response) });
      })
      .catch((cause: unknown) => {
        if (live) setState({ kind: 'failed', message: apiErrorText(cause) });
      });
    return () => {
      live = false;
    };
  }, [api, id]);

  const title =
    state.kind === 'loaded'
      ? [state.lead.fields.first_name, state.lead.fields.last_name].filter(Boolean).join(' ') ||
        'Lead'
      : 'Lead';
  return (
    <Screen title={title}>
      <p>
        <Link href="/leads">Back to all leads</Link>
      </p>
      {state.kind === 'loading' ? (
        <p aria-live="polite">Loading the lead…</p>
      ) : state.kind === 'failed' ? (
        <ErrorMessage>{state.message}</ErrorMessage>
      ) : (
        <LeadView lead={state.lead} />
      )}
    </Screen>
  );
}
