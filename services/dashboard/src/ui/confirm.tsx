import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A destructive action asked twice: the button opens a question with the
 * confirming button (focused) and Cancel, which gives focus back.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  onConfirm,
  busy = false,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  busy?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const cancelled = useRef(false);
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (cancelled.current) {
      cancelled.current = false;
      opener.current?.focus();
    }
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" class="danger" ref={opener} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <fieldset class="confirm">
      <legend>{question}</legend>
      <button
        type="button"
        class="danger"
        ref={confirm}
        disabled={busy}
        onClick={() => void onConfirm()}
      >
        {confirmLabel}
      </button>{' '}
      <button
        type="button"
        class="secondary"
        onClick={() => {
          cancelled.current = true;
          setAsking(false);
        }}
      >
        Cancel
      </button>
    </fieldset>
  );
}
