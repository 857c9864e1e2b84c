import { useState } from 'preact/hooks';
import { ConfirmDialog } from './dialog';

/**
 * A destructive action asked twice: the button opens ConfirmDialog (the modal
 * question with Cancel, focused, and the confirming button). The screen shows
 * what went wrong itself, so the dialog closes once `onConfirm` is done.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  onConfirm,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        {label}
      </button>
      {asking ? (
        <ConfirmDialog
          title={question}
          confirmLabel={confirmLabel}
          danger
          onConfirm={async () => {
            await onConfirm();
            return undefined;
          }}
          onClose={() => setAsking(false)}
        >
          <p>This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
