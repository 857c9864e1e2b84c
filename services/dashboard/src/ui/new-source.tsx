import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { Schema } from '../api/client';
import { apiErrorText } from '../api/errors';
import { ErrorMessage } from '../components';
import { useApi } from '../session';
import { Modal } from './dialog';
import { FieldError, formErrorsOf, invalidProps } from './form-errors';
import { PLAYBOOKS_PATH, SOURCE_TYPE_LABELS, type SourceType } from './sources';

type Playbook = Schema<'PlaybookList'>['data'][number];
type Source = Schema<'MarketingSource'>;
type FormField = 'name' | 'source_type' | 'playbook_id';

const LABELS: Record<FormField, string> = {
  name: 'Name',
  source_type: 'Source type',
  playbook_id: 'Playbook',
};

const FIELD_IDS: Record<FormField, string> = {
  name: 'new-source-name',
  source_type: 'new-source-type',
  playbook_id: 'new-source-playbook',
};

/**
 * "New marketing source": Name, Source type and Playbook; Save creates it with
 * POST /marketing_sources. Without a playbook there is nothing to choose: it says to
 * create one first.
 */
export function NewSourceDialog({
  playbooks,
  onCreated,
  onClose,
}: {
  playbooks: Playbook[] | undefined;
  onCreated: (source: Source) => void;
  onClose: () => void;
}) {
  const api = useApi();
  const [name, setName] = useState('');
  const [sourceType, setSourceType] = useState<SourceType>('vendor');
  const [playbookId, setPlaybookId] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [error, setError] = useState<string>();
  const chosenPlaybook = playbookId || playbooks?.[0]?.id || '';

  // After a refusal, keyboard focus goes to the first field to correct.
  useEffect(() => {
    const first = (['name', 'source_type', 'playbook_id'] as const).find((field) => errors[field]);
    if (first) document.getElementById(FIELD_IDS[first])?.focus();
  }, [errors]);

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const {
        data,
        error: failure,
        response,
      } = await api.POST('/marketing_sources', {
        body: {
          name,
          source_type: sourceType,
          playbook_id: chosenPlaybook,
          status: 'active',
          consent_required: 'any',
        },
      });
      if (data) {
        onCreated(data);
        return;
      }
      if (response.status === 422 && failure) {
        const { fields, summary } = formErrorsOf(failure, response, (field) =>
          field in LABELS ? LABELS[field as FormField] : undefined,
        );
        setErrors(fields);
        setError(
          Object.keys(fields).length > 0
            ? `The marketing source was not saved: correct the fields marked below. ${summary}`
            : summary,
        );
      } else {
        setErrors({});
        setError(apiErrorText(failure, response));
      }
    } catch (cause) {
      setError(apiErrorText(cause));
    }
    setBusy(false);
  };

  const fieldProps = (field: FormField, help?: string) =>
    invalidProps(FIELD_IDS[field], errors[field], help);

  if (playbooks !== undefined && playbooks.length === 0) {
    return (
      <Modal title="New marketing source" onClose={onClose}>
        <p>
          A marketing source sends its leads through a playbook, and this account has none yet.
          Create a playbook first in <Link href={PLAYBOOKS_PATH}>Playbooks</Link>, then come back
          here.
        </p>
        <div class="dialog-actions">
          <button type="button" class="secondary" onClick={onClose} autofocus>
            Close
          </button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title="New marketing source" onClose={onClose}>
      <form class="form" onSubmit={(event) => void save(event)} noValidate>
        {error ? <ErrorMessage>{error}</ErrorMessage> : null}
        <label for="new-source-name">Name</label>
        <input
          {...fieldProps('name', 'new-source-name-help')}
          value={name}
          autofocus
          autocomplete="off"
          aria-required="true"
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <p id="new-source-name-help" class="help">
          The seller, form or campaign, as you call it (up to 200 characters).
        </p>
        <FieldError id={FIELD_IDS.name}>{errors.name}</FieldError>

        <label for="new-source-type">Source type</label>
        <select
          {...fieldProps('source_type')}
          value={sourceType}
          onChange={(event) => setSourceType(event.currentTarget.value as SourceType)}
        >
          {(Object.keys(SOURCE_TYPE_LABELS) as SourceType[]).map((type) => (
            <option key={type} value={type}>
              {SOURCE_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
        <FieldError id={FIELD_IDS.source_type}>{errors.source_type}</FieldError>

        <label for="new-source-playbook">Playbook</label>
        <select
          {...fieldProps('playbook_id', 'new-source-playbook-help')}
          value={chosenPlaybook}
          disabled={playbooks === undefined}
          onChange={(event) => setPlaybookId(event.currentTarget.value)}
        >
          {playbooks === undefined ? <option value="">Loading the playbooks…</option> : null}
          {playbooks?.map((playbook) => (
            <option key={playbook.id} value={playbook.id}>
              {playbook.name}
            </option>
          ))}
        </select>
        <p id="new-source-playbook-help" class="help">
          What happens to each lead this source sends.
        </p>
        <FieldError id={FIELD_IDS.playbook_id}>{errors.playbook_id}</FieldError>

        <div class="dialog-actions">
          <button type="button" class="secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" disabled={busy} aria-busy={busy}>
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}
