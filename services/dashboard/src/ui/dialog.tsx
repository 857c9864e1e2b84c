import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ErrorMessage } from '../components';

let dialogCount = 0;

/**
 * A modal dialog on the native <dialog>: opened with showModal() when it mounts (the
 * browser traps focus in it and moves focus to its first control, or to the one with
 * `autofocus`), Escape or Cancel calls onClose, and focus goes back to what had it
 * before (the button that opened it) when it unmounts. Render it only while open.
 */
export function Modal({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  wide?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [titleId] = useState(() => `dialog-title-${++dialogCount}`);
  const close = useRef(onClose);
  close.current = onClose;
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    element.addEventListener('cancel', onCancel);
    element.showModal();
    return () => {
      element.removeEventListener('cancel', onCancel);
      if (element.open) element.close();
      // The opener may be gone (a deleted row's button): the screen's heading then.
      if (opener?.isConnected) opener.focus();
      else document.getElementById('screen-title')?.focus();
    };
  }, []);
  return (
    <dialog ref={dialog} class={wide ? 'modal modal-wide' : 'modal'} aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/**
 * "Are you sure?" before an action: the question, Cancel, and the action's button.
 * `onConfirm` runs the action; the error it returns (in words) is shown in the
 * dialog, which stays open; nothing returned closes it.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  danger = false,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<string | undefined>;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    const failure = await onConfirm();
    if (!mounted.current) return;
    setBusy(false);
    if (failure) setError(failure);
    else onClose();
  };
  return (
    <Modal title={title} onClose={onClose}>
      {children}
      {error ? <ErrorMessage>{error}</ErrorMessage> : null}
      <div class="dialog-actions">
        <button type="button" class="secondary" onClick={onClose} autofocus>
          Cancel
        </button>
        <button
          type="button"
          class={danger ? 'danger' : undefined}
          disabled={busy}
          aria-busy={busy}
          onClick={() => void confirm()}
        >
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
