import { EVENT_LABELS, OUTCOME_LABELS, reservedLabel } from '@leadhook/contracts';
import { targetUrlProblem } from './target-url.js';
import type { ErrorDetail } from './validation.js';

/**
 * The checks on a subscription that the body schema cannot express: labels
 * against the activity catalog, and the subscriber URL against the literal SSRF
 * guard. Each returns every problem, so a 422 lists them all.
 */

const ALL = '*';

function labelProblems(kind: 'events' | 'outcomes', labels: readonly string[]): ErrorDetail[] {
  const [own, other, noun, otherKind] =
    kind === 'events'
      ? [EVENT_LABELS, OUTCOME_LABELS, 'an event', 'outcomes']
      : [OUTCOME_LABELS, EVENT_LABELS, 'an outcome', 'events'];
  if (labels.includes(ALL)) {
    return labels.length === 1
      ? []
      : [
          {
            field: kind,
            code: 'invalid',
            message: `"*" selects every label of ${kind}: send it alone.`,
          },
        ];
  }
  const problems: ErrorDetail[] = [];
  labels.forEach((label, index) => {
    if (own.includes(label)) return;
    if (reservedLabel(label)) {
      problems.push({
        field: `${kind}[${index}]`,
        code: 'reserved_label',
        message: `"${label}" is reserved: leadhook sends it only as the test delivery (POST /subscriptions/{id}/test), which every subscription gets when tested; it cannot be selected.`,
      });
      return;
    }
    const hint = other.includes(label)
      ? ` It is a label of ${otherKind}: list it there.`
      : ' See GET /activity_catalog.';
    problems.push({
      field: `${kind}[${index}]`,
      code: 'unknown_label',
      message: `"${label}" is not ${noun} label.${hint}`,
    });
  });
  return problems;
}

/** The catalog checks on a subscription's final events and outcomes. */
export function selectionProblems(
  events: readonly string[],
  outcomes: readonly string[],
): ErrorDetail[] {
  const problems = [...labelProblems('events', events), ...labelProblems('outcomes', outcomes)];
  if (events.length === 0 && outcomes.length === 0) {
    problems.push({
      field: null,
      code: 'no_labels',
      message: 'Select at least one label: events and outcomes are both empty.',
    });
  }
  return problems;
}

const URL_MESSAGES = {
  invalid: 'url is not a valid absolute URL.',
  scheme: 'url must be an http or https URL.',
  private_target:
    'url points at a loopback, private, link-local or metadata address (or localhost); deliveries there are refused.',
} as const;

/** The SSRF guard's early check on `url`, as error details. */
export function urlProblems(url: string, allowPrivateTargets: boolean): ErrorDetail[] {
  const problem = targetUrlProblem(url, { allowPrivateTargets });
  return problem === null
    ? []
    : [
        {
          field: 'url',
          code: problem === 'private_target' ? 'private_target' : 'invalid',
          message: URL_MESSAGES[problem],
        },
      ];
}
