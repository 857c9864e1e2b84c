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
  for (const { item, ...answer } of rows) {
    if (!(item >= 1 && item <= count) || item - 1 in answers) {
      throw new Error(`${fn} answered item ${item} twice or out of range (${count} items)`);
    }
    answers[item - 1] = answer as unknown as T;
  }
  if (rows.length !== count) {
    throw new Error(`${fn} answered ${rows.length} of ${count} items`);
  }
  return answers;
}
