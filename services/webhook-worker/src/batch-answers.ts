/**
 * The answers of a batched SQL function that returns (item, ...) rows, item being
 * the position in its input from 1: in input order, each present once.
 */
export function answersByItem<R extends { item: number }>(
  rows: readonly R[],
  count: number,
  fn: string,
): Omit<R, 'item'>[] {
  const answers: Omit<R, 'item'>[] = new Array(count);
  for (const { item, ...answer } of rows) {
    if (!(item >= 1 && item <= count) || item - 1 in answers) {
      throw new Error(`${fn} answered item ${item} twice or out of range (${count} items)`);
    }
    answers[item - 1] = answer;
  }
  if (rows.length !== count) {
    throw new Error(`${fn} answered ${rows.length} of ${count} items`);
  }
  return answers;
}
