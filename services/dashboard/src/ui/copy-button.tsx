import { useEffect, useState } from 'preact/hooks';

/**
 * "Copy" for one text: writes it to the clipboard and says so (announced to
 * screen readers). A browser that refuses the clipboard: `select`, when given,
 * selects the text on the page for Ctrl+C, and the message says to press it;
 * else it says to select the text. `what` completes the button's name.
 */
export function CopyButton({
  text,
  what,
  select,
  primary = false,
}: {
  text: string;
  what: string;
  select?: () => void;
  /** The panel's main action (a secret shown once), not a small button beside a value. */
  primary?: boolean;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const reset = setTimeout(() => setState('idle'), 4000);
    return () => clearTimeout(reset);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      select?.();
      setState('failed');
    }
  };
  return (
    <span class="copy">
      <button
        type="button"
        class={primary ? undefined : 'secondary small'}
        onClick={() => void copy()}
      >
        {state === 'copied' ? 'Copied' : 'Copy'}
        <span class="visually-hidden"> {what}</span>
      </button>
      <span role="status" class={state === 'failed' ? 'error' : 'help'}>
        {state === 'copied'
          ? 'Copied to the clipboard.'
          : state === 'failed'
            ? select
              ? 'The browser refused the clipboard: the text is selected, press Ctrl+C (⌘C) to copy it.'
              : 'Copying was refused by the browser: select the text and copy it.'
            : ''}
      </span>
    </span>
  );
}
