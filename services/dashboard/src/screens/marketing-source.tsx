import '../ui/sources.css';
import { useEffect, useState } from 'preact/hooks';
import { Link, useParams } from 'wouter-preact';
import type { Schema } from '../api/client';
import { apiErrorText } from '../api/errors';
import { ErrorMessage, Screen } from '../components';
import { useApi } from '../session';
import { DayChart } from '../ui/day-chart';
import { LinkIcon } from '../ui/icons';
import { IntegrationInstructionsDialog } from '../ui/integration-instructions';
import { DEFAULT_PERIOD, type Period, PeriodChooser, periodRange } from '../ui/period';
import {
  formatCount,
  outcomesTotal,
  SOURCE_TYPE_LABELS,
  SOURCES_PATH,
  STATUS_LABELS,
} from '../ui/sources';

type Source = Schema<'MarketingSource'>;
type Stats = Schema<'SourceStats'>;

/** Intake's rejection codes in words (docs/intake.md); another code is shown as it is. */
const REASON_LABELS: Record<string, string> = {
  required: 'Missing or blank',
  invalid: 'Not in the expected format',
  too_long: 'Too long',
  unknown_field: 'Not a field intake accepts',
  too_many_fields: 'Too many fields',
  consent_unrecognised: 'Consent token not recognised',
};

/**
 * One marketing source: its figures per day over the chosen period, as a chart and
 * as a table (GET /marketing_sources/{id} and its /stats).
 */
export function MarketingSourceScreen() {
  const { id = '' } = useParams<{ id: string }>();
  const api = useApi();
  const [period, setPeriod] = useState<Period>(DEFAULT_PERIOD);
  const [source, setSource] = useState<Source>();
  const [stats, setStats] = useState<Stats>();
  const [error, setError] = useState<string>();
  const [instructions, setInstructions] = useState(false);

  useEffect(() => {
    let current = true;
    const path = { params: { path: { id } } };
    Promise.all([
      api.GET('/marketing_sources/{id}', path),
      api.GET('/marketing_sources/{id}/stats', {
        params: { path: { id }, query: periodRange(period) },
      }),
    ])
      .then(([one, figures]) => {
        if (!current) return;
        if (!one.data) return setError(apiErrorText(one.error, one.response));
        if (!figures.data) return setError(apiErrorText(figures.error, figures.response));
        setError(undefined);
        setSource(one.data);
        setStats(figures.data);
      })
      .catch((cause: unknown) => current && setError(apiErrorText(cause)));
    return () => {
      current = false;
    };
  }, [api, id, period]);

  return (
    <Screen title={source ? source.name : 'Marketing source'}>
      <p>
        <Link href={SOURCES_PATH}>Back to Marketing Sources</Link>
      </p>
      {error ? <ErrorMessage>{error}</ErrorMessage> : null}
      {source ? (
        <div class="source-head">
          <p class="help">
            {SOURCE_TYPE_LABELS[source.source_type]} · {STATUS_LABELS[source.status]}
          </p>
          <button type="button" class="secondary small" onClick={() => setInstructions(true)}>
            <span class="with-icon">
              <LinkIcon />
              Integration Instructions
            </span>
          </button>
        </div>
      ) : null}
      {source && instructions ? (
        <IntegrationInstructionsDialog source={source} onClose={() => setInstructions(false)} />
      ) : null}
      <div class="toolbar">
        <PeriodChooser id="source-period" value={period} onChange={setPeriod} />
      </div>
      {!stats && !error ? <p aria-busy="true">Loading the figures…</p> : null}
      {stats ? (
        <>
          <dl class="totals">
            <div>
              <dt>Accepted</dt>
              <dd>{formatCount(stats.accepted)}</dd>
            </div>
            <div>
              <dt>Duplicate</dt>
              <dd>{formatCount(stats.duplicate)}</dd>
            </div>
            <div>
              <dt>Rejected</dt>
              <dd>{formatCount(stats.rejected.total)}</dd>
            </div>
            <div>
              <dt>Outcomes</dt>
              <dd>{formatCount(outcomesTotal(stats.outcomes))}</dd>
            </div>
            <div>
              <dt>Do not contact</dt>
              <dd>{formatCount(stats.outcomes.do_not_contact ?? 0)}</dd>
            </div>
          </dl>
          <h2>Per day</h2>
          <DayChart days={stats.by_day} />
          <div class="table-scroll">
            <table>
              <caption id="days-caption">
                Figures per day (UTC), newest first, last {period} days
              </caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col" class="number">
                    Accepted
                  </th>
                  <th scope="col" class="number">
                    Duplicate
                  </th>
                  <th scope="col" class="number">
                    Rejected
                  </th>
                  <th scope="col" class="number">
                    Outcomes
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...stats.by_day].reverse().map((day) => (
                  <tr key={day.date} data-date={day.date}>
                    <th scope="row">{day.date}</th>
                    <td class="number" data-column="accepted">
                      {formatCount(day.accepted)}
                    </td>
                    <td class="number" data-column="duplicate">
                      {formatCount(day.duplicate)}
                    </td>
                    <td class="number" data-column="rejected">
                      {formatCount(day.rejected.total)}
                    </td>
                    <td class="number" data-column="outcomes">
                      {formatCount(outcomesTotal(day.outcomes))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h2>Rejected, by reason</h2>
          {stats.rejected.by_reason.length === 0 ? (
            <p>No submission was rejected in this period.</p>
          ) : (
            <table class="reasons">
              <caption class="visually-hidden">Rejected submissions by field and problem</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Problem</th>
                  <th scope="col" class="number">
                    Submissions
                  </th>
                </tr>
              </thead>
              <tbody>
                {stats.rejected.by_reason.map((reason) => (
                  <tr key={`${reason.field}:${reason.code}`}>
                    <th scope="row">
                      {reason.field ? <code>{reason.field}</code> : "A field of the seller's own"}
                    </th>
                    <td>{REASON_LABELS[reason.code] ?? reason.code}</td>
                    <td class="number">{formatCount(reason.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
    </Screen>
  );
}
