import { useEffect, useState } from 'preact/hooks';

/**
 * "Copy" for one text: writes it to the clipboard and says "Copied" (announced to
 * screen readers), or says that copying failed (a browser that refuses the
 * clipboard: select the text instead). `what` completes the button's name.
 */
export function CopyButton({ text, what }: { text: string; what: string }) {
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
      setState('failed');
    }
  };
  return (
    <span class="copy">
      <button type="button" class="secondary small" onClick={() => void copy()}>
        {state === 'copied' ? 'Copied' : 'Copy'}
        <span class="visually-hidden"> {what}</span>
      </button>
      <span role="status" class={state === 'failed' ? 'error' : 'help'}>
        {state === 'copied'
          ? 'Copied'
          : state === 'failed'
            ? 'Copying was refused by the browser: select the text and copy it.'
            : ''}
      </span>
    </span>
  );
}
