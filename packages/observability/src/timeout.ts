/**
 * `work`'s result, or a rejection with `error()` once `ms` have passed, whichever
 * comes first; the timer is cleared either way, so it never keeps the process
 * alive. `work` itself is not cancelled: a caller that can cancel it does so.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(error()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
