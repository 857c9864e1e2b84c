/**
 * The answers of a batched SQL function that returns (item, ...) rows, item being
 * the position in its input from 1: in input order, each present once.
 */
export function answersByItem<T>(
  rows: readonly ({ item: number } & T)[],
  count: number,
  fn: string,
): T[] {
  const answers: T[] = new Array(count);
  let answered = 0;
  for (const { item, ...answer } of rows) {
    if (item >= 1 && item <= count && !(item - 1 in answers)) answered++;
    answers[item - 1] = answer as unknown as T;
  }
  if (answered !== count || rows.length !== count) {
    throw new Error(`${fn} answered ${rows.length} rows for ${count} items`);
  }
  return answers;
}
