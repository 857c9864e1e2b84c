import { useCallback, useEffect, useState } from 'preact/hooks';
import { Link, useLocation, useParams } from 'wouter-preact';
import type { Schema } from '../api/client';
import { apiErrorText } from '../api/errors';
import { ErrorMessage, Screen } from '../components';
import { useApi } from '../session';
import { ConfirmButton } from '../ui/confirm';
import { FieldError, type FormErrors, formErrorsOf, invalidProps } from '../ui/form-errors';
import { formatDateTime, formatDelay } from '../ui/format';
import { SubscriptionsSection } from './subscriptions';
import '../ui/ui.css';
import { TEMPLATE_PLACEHOLDERS } from '../ui/placeholders';

type Playbook = Schema<'Playbook'>;
type Step = Playbook['steps'][number];

const PAGE_SIZE = 20;

/** Playbooks: the account's playbooks, New playbook, and the account-wide subscriptions. */
export function PlaybooksScreen() {
  const api = useApi();
  const [playbooks, setPlaybooks] = useState<Playbook[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    async (after?: string) => {
      setLoading(true);
      setError(undefined);
      try {
        const {
          data,
          error: failed,
          response,
        } = await api.GET('/playbooks', {
          params: { query: { limit: PAGE_SIZE, ...(after ? { cursor: after } : {}) } },
        });
        if (failed || !data) setError(apiErrorText(failed, response));
        else {
          setPlaybooks((shown) => (after && shown ? [...shown, ...data.data] : data.data));
          setCursor(data.next_cursor);
        }
      } catch (cause) {
        setError(apiErrorText(cause));
      } finally {
        setLoading(false);
      }
    },
    [api],
  );

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <Screen title="Playbooks">
      <p class="help">
        A playbook is what happens to each lead a marketing source sends: SMS and calls, in order,
        each after a delay.
      </p>
      <p>
        <Link href="/playbooks/new" class="button">
          New playbook
        </Link>
      </p>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      {playbooks === null && !error && <p aria-busy="true">Loading playbooks…</p>}
      {playbooks?.length === 0 && (
        <p class="empty">
          No playbooks yet. Choose <strong>New playbook</strong> to write the first one, then pick
          it for a marketing source so its leads go through it.
        </p>
      )}
      {playbooks && playbooks.length > 0 && (
        <table class="list">
          <caption class="visually-hidden">Your playbooks, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Steps</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {playbooks.map((playbook) => (
              <tr key={playbook.id}>
                <td>
                  <Link href={`/playbooks/${playbook.id}`}>{playbook.name}</Link>
                </td>
                <td>{stepsSummary(playbook.steps)}</td>
                <td>{formatDateTime(playbook.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <button
          type="button"
          class="secondary"
          disabled={loading}
          onClick={() => void load(cursor)}
        >
          Show more playbooks
        </button>
      )}
      <SubscriptionsSection playbookId={null} />
    </Screen>
  );
}

function stepsSummary(steps: readonly Step[]): string {
  if (steps.length === 0) return 'No steps';
  return steps.map((step) => (step.type === 'sms' ? 'SMS' : 'Call')).join(', ');
}

/** The delay units the editor offers, largest first. */
const UNITS = [
  { name: 'days', seconds: 86_400 },
  { name: 'hours', seconds: 3_600 },
  { name: 'minutes', seconds: 60 },
  { name: 'seconds', seconds: 1 },
] as const;

/** A step as the form holds it: the delay as a number and a unit. */
interface StepDraft {
  key: number;
  type: 'sms' | 'call';
  delay: string;
  unit: number;
  template: string;
}

let nextKey = 1;

function draftOf(step: Step): StepDraft {
  const unit =
    UNITS.find((u) => step.delay_seconds > 0 && step.delay_seconds % u.seconds === 0) ?? UNITS[2];
  return {
    key: nextKey++,
    type: step.type,
    delay: String(step.delay_seconds / unit.seconds),
    unit: unit.seconds,
    template: step.template ?? '',
  };
}

function newStep(): StepDraft {
  return { key: nextKey++, type: 'sms', delay: '0', unit: 60, template: '' };
}

function stepOf(draft: StepDraft): Step {
  const delay = draft.delay.trim() === '' ? Number.NaN : Number(draft.delay) * draft.unit;
  const step: Step = {
    type: draft.type,
    // Not a number: sent as null, so the API names the field (422).
    delay_seconds: Number.isFinite(delay) ? delay : (null as unknown as number),
  };
  if (draft.template !== '' || draft.type === 'sms') step.template = draft.template;
  return step;
}

/** A playbook's page: `/playbooks/new` to create one, `/playbooks/<id>` to edit one. */
export function PlaybookScreen() {
  const { id } = useParams<{ id: string }>();
  const isNew = id === 'new';
  const api = useApi();
  const [, navigate] = useLocation();
  const [playbook, setPlaybook] = useState<Playbook | null>(null);
  const [loadError, setLoadError] = useState<string>();
  const [name, setName] = useState('');
  const [steps, setSteps] = useState<StepDraft[]>(() => (isNew ? [newStep()] : []));
  const [errors, setErrors] = useState<FormErrors>();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string>();
  const [deleteError, setDeleteError] = useState<string>();

  useEffect(() => {
    if (isNew) return;
    let gone = false;
    void (async () => {
      try {
        const { data, error, response } = await api.GET('/playbooks/{id}', {
          params: { path: { id } },
        });
        if (gone) return;
        if (error || !data) setLoadError(apiErrorText(error, response));
        else {
          setPlaybook(data);
          setName(data.name);
          setSteps(data.steps.map(draftOf));
        }
      } catch (cause) {
        if (!gone) setLoadError(apiErrorText(cause));
      }
    })();
    return () => {
      gone = true;
    };
  }, [api, id, isNew]);

  const changeStep = (index: number, change: Partial<StepDraft>) => {
    setSteps((all) => all.map((step, i) => (i === index ? { ...step, ...change } : step)));
    setSaved(undefined);
  };
  // Moving or removing steps renumbers them: errors named by index no longer fit.
  const reshape = (next: StepDraft[]) => {
    setSteps(next);
    setErrors(undefined);
    setSaved(undefined);
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...steps];
    const [step] = next.splice(index, 1);
    next.splice(index + by, 0, step!);
    reshape(next);
    // Keep the keyboard on the button of the step that moved.
    const target = index + by;
    requestAnimationFrame(() => {
      const same = document.getElementById(`step-${target}-${by < 0 ? 'up' : 'down'}`);
      const other = document.getElementById(`step-${target}-${by < 0 ? 'down' : 'up'}`);
      ((same as HTMLButtonElement | null)?.disabled ? other : same)?.focus();
    });
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setErrors(undefined);
    setSaved(undefined);
    const body = { name, steps: steps.map(stepOf) };
    const labelOf = (field: string) => {
      if (field === 'name') return 'Name';
      const step = /^steps\[(\d+)\]\.(type|delay_seconds|template)$/.exec(field);
      if (!step) return undefined;
      const n = Number(step[1]) + 1;
      if (step[2] === 'type') return `Step ${n} type`;
      if (step[2] === 'delay_seconds') return `Step ${n} delay`;
      return steps[n - 1]?.type === 'call' ? `Step ${n} call script` : `Step ${n} SMS text`;
    };
    try {
      const result = isNew
        ? await api.POST('/playbooks', { body })
        : await api.PATCH('/playbooks/{id}', { params: { path: { id } }, body });
      if (result.error || !result.data) {
        setErrors(formErrorsOf(result.error, result.response, labelOf));
        return;
      }
      setPlaybook(result.data);
      setSaved(`Saved “${result.data.name}”.`);
      if (isNew) navigate(`/playbooks/${result.data.id}`, { replace: true });
    } catch (cause) {
      setErrors({ fields: {}, summary: apiErrorText(cause) });
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    setDeleteError(undefined);
    try {
      const { error, response } = await api.DELETE('/playbooks/{id}', {
        params: { path: { id } },
      });
      if (error) {
        setDeleteError(
          response.status === 409
            ? 'A marketing source still uses this playbook: choose another playbook for it first, then delete this one.'
            : apiErrorText(error, response),
        );
      } else navigate('/playbooks');
    } catch (cause) {
      setDeleteError(apiErrorText(cause));
    }
  };

  const title = isNew ? 'New playbook' : 'Edit playbook';
  if (loadError) {
    return (
      <Screen title={title}>
        <ErrorMessage>{loadError}</ErrorMessage>
        <p>
          <Link href="/playbooks">Back to Playbooks</Link>
        </p>
      </Screen>
    );
  }
  if (!isNew && !playbook) {
    return (
      <Screen title={title}>
        <p aria-busy="true">Loading the playbook…</p>
      </Screen>
    );
  }
  const fieldError = (field: string) => errors?.fields[field];

  return (
    <Screen title={title}>
      <p>
        <Link href="/playbooks">Back to Playbooks</Link>
      </p>
      <form class="editor" onSubmit={(event) => void save(event)} noValidate>
        {errors && <ErrorMessage>{errors.summary}</ErrorMessage>}
        <div class="field">
          <label for="playbook-name">Name</label>
          <input
            {...invalidProps('playbook-name', fieldError('name'))}
            value={name}
            maxLength={200}
            required
            onInput={(event) => {
              setName(event.currentTarget.value);
              setSaved(undefined);
            }}
          />
          <FieldError id="playbook-name">{fieldError('name')}</FieldError>
        </div>

        <h2 id="steps-heading">Steps</h2>
        <p class="help" id="placeholders-help">
          Steps run in order, each after its delay (the first after the lead arrives). An SMS text
          may insert the lead’s values with these placeholders:{' '}
          {TEMPLATE_PLACEHOLDERS.map((p, i) => (
            <span key={p}>
              {i > 0 && ', '}
              <code>{`{{${p}}}`}</code>
            </span>
          ))}
          .
        </p>
        {steps.length === 0 && (
          <p class="empty">
            No steps: leads of this playbook are only worked through activities you report. Choose{' '}
            <strong>Add step</strong> to send an SMS or place a call.
          </p>
        )}
        <ol class="steps" aria-labelledby="steps-heading">
          {steps.map((step, index) => {
            const at = `steps[${index}]`;
            const n = index + 1;
            const templateError = fieldError(`${at}.template`);
            const delayError = fieldError(`${at}.delay_seconds`);
            const typeError = fieldError(`${at}.type`);
            return (
              <li key={step.key}>
                <fieldset>
                  <legend>Step {n}</legend>
                  <div class="step-row">
                    <div class="field">
                      <label for={`step-${index}-type`}>Step {n} type</label>
                      <select
                        {...invalidProps(`step-${index}-type`, typeError)}
                        value={step.type}
                        onChange={(event) =>
                          changeStep(index, {
                            type: event.currentTarget.value === 'call' ? 'call' : 'sms',
                          })
                        }
                      >
                        <option value="sms">SMS</option>
                        <option value="call">Call</option>
                      </select>
                      <FieldError id={`step-${index}-type`}>{typeError}</FieldError>
                    </div>
                    <div class="field">
                      <label for={`step-${index}-delay`}>Step {n} delay</label>
                      <input
                        {...invalidProps(`step-${index}-delay`, delayError)}
                        type="number"
                        min={0}
                        inputMode="numeric"
                        value={step.delay}
                        onInput={(event) => changeStep(index, { delay: event.currentTarget.value })}
                      />
                      <FieldError id={`step-${index}-delay`}>{delayError}</FieldError>
                    </div>
                    <div class="field">
                      <label for={`step-${index}-unit`}>Step {n} delay unit</label>
                      <select
                        id={`step-${index}-unit`}
                        value={String(step.unit)}
                        onChange={(event) =>
                          changeStep(index, { unit: Number(event.currentTarget.value) })
                        }
                      >
                        {UNITS.map((unit) => (
                          <option key={unit.name} value={String(unit.seconds)}>
                            {unit.name}
                          </option>
                        ))}
                      </select>
                    </div>
                  </div>
                  <div class="field">
                    <label for={`step-${index}-template`}>
                      {step.type === 'sms'
                        ? `Step ${n} SMS text`
                        : `Step ${n} call script (optional)`}
                    </label>
                    <textarea
                      {...invalidProps(
                        `step-${index}-template`,
                        templateError,
                        'placeholders-help',
                      )}
                      rows={3}
                      maxLength={5000}
                      value={step.template}
                      onInput={(event) =>
                        changeStep(index, { template: event.currentTarget.value })
                      }
                    />
                    <FieldError id={`step-${index}-template`}>{templateError}</FieldError>
                  </div>
                  <div class="actions">
                    <button
                      type="button"
                      class="secondary"
                      id={`step-${index}-up`}
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                    >
                      Move step {n} up
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      id={`step-${index}-down`}
                      disabled={index === steps.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      Move step {n} down
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() => reshape(steps.filter((_, i) => i !== index))}
                    >
                      Remove step {n}
                    </button>
                  </div>
                  {Number(step.delay) > 0 && Number.isFinite(Number(step.delay)) && (
                    <p class="help">
                      Runs {formatDelay(Number(step.delay) * step.unit)} after{' '}
                      {index === 0 ? 'the lead arrives' : `step ${index}`}.
                    </p>
                  )}
                </fieldset>
              </li>
            );
          })}
        </ol>
        <div class="actions">
          <button type="button" class="secondary" onClick={() => reshape([...steps, newStep()])}>
            Add step
          </button>
          <button type="submit" disabled={saving}>
            Save
          </button>
        </div>
        <p role="status" class="saved">
          {saved}
        </p>
      </form>
      {!isNew && playbook && (
        <>
          <SubscriptionsSection playbookId={playbook.id} />
          <section class="danger-zone" aria-labelledby="delete-heading">
            <h2 id="delete-heading">Delete this playbook</h2>
            {deleteError && <ErrorMessage>{deleteError}</ErrorMessage>}
            <ConfirmButton
              label="Delete playbook"
              question={`Delete the playbook “${playbook.name}”?`}
              confirmLabel="Yes, delete the playbook"
              onConfirm={remove}
            />
          </section>
        </>
      )}
    </Screen>
  );
}
