import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** An error in words, announced to screen readers as it appears. */
export function ErrorMessage({ children }: { children: ComponentChildren }) {
  return (
    <p class="error" role="alert">
      {children}
    </p>
  );
}

/**
 * A screen's frame: its heading (focused when the screen opens, so keyboard and
 * screen-reader users start there) and the document title.
 */
export function Screen({ title, children }: { title: string; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · leadhook dashboard`;
    heading.current?.focus();
  }, [title]);
  return (
    <section class="screen" aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children}
    </section>
  );
}
