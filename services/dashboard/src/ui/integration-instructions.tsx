import { useEffect, useState } from 'preact/hooks';
import type { Schema } from '../api/client';
import { apiErrorText } from '../api/errors';
import { ErrorMessage } from '../components';
import { useApi } from '../session';
import { CopyButton } from './copy-button';
import { Modal } from './dialog';

type Instructions = Schema<'IntegrationInstructions'>;

function Example({ title, text, what }: { title: string; text: string; what: string }) {
  return (
    <section class="example">
      <div class="example-head">
        <h3>{title}</h3>
        <CopyButton text={text} what={what} />
      </div>
      <pre>
        <code>{text}</code>
      </pre>
    </section>
  );
}

/**
 * A source's Integration Instructions, to hand to its seller, as
 * GET /marketing_sources/{id}/integration gives them: the post URL, the fields, and
 * the curl and HTML examples, each with Copy. Fetched at every opening, so a rotated
 * URL shows at once.
 */
export function IntegrationInstructionsDialog({
  source,
  onClose,
}: {
  source: { id: string; name: string };
  onClose: () => void;
}) {
  const api = useApi();
  const [instructions, setInstructions] = useState<Instructions>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let current = true;
    api
      .GET('/marketing_sources/{id}/integration', { params: { path: { id: source.id } } })
      .then(({ data, error: failure, response }) => {
        if (!current) return;
        if (data) setInstructions(data);
        else setError(apiErrorText(failure, response));
      })
      .catch((cause: unknown) => current && setError(apiErrorText(cause)));
    return () => {
      current = false;
    };
  }, [api, source.id]);
  return (
    <Modal title={`Integration Instructions for ${source.name}`} onClose={onClose} wide>
      <div class="dialog-actions top">
        <button type="button" class="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {error ? <ErrorMessage>{error}</ErrorMessage> : null}
      {!instructions && !error ? <p aria-busy="true">Loading the instructions…</p> : null}
      {instructions ? (
        <div class="instructions">
          <p>
            Give these to the seller of <strong>{source.name}</strong>. The post URL holds a secret
            key: share it only with this seller. Rotating it stops the old one at once.
          </p>
          <section class="example">
            <div class="example-head">
              <h3 id="post-url-title">Post URL</h3>
              <CopyButton text={instructions.post_url} what="the post URL" />
            </div>
            <p class="help">
              {instructions.method}, as {instructions.content_types.join(' or ')}.
            </p>
            <code class="post-url" data-testid="post-url">
              {instructions.post_url}
            </code>
          </section>
          <section>
            <h3 id="fields-title">Fields</h3>
            <div>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Required</th>
                    <th scope="col">Format</th>
                    <th scope="col">Example</th>
                  </tr>
                </thead>
                <tbody>
                  {instructions.fields.map((field) => (
                    <tr key={field.name}>
                      <th scope="row">
                        <code>{field.name}</code>
                      </th>
                      <td>{field.required ? 'Required' : 'Optional'}</td>
                      <td>{field.format ?? field.description}</td>
                      <td>
                        <code>{field.example}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p class="help">{instructions.extra_fields.description}</p>
          </section>
          <Example
            title="Example: curl with JSON"
            text={instructions.examples.curl_json}
            what="the curl JSON example"
          />
          <Example
            title="Example: curl with a form"
            text={instructions.examples.curl_form}
            what="the curl form example"
          />
          <Example
            title="Ready HTML form"
            text={instructions.examples.html_form}
            what="the HTML form"
          />
        </div>
      ) : null}
    </Modal>
  );
}
