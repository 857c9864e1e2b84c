import { answersByItem } from './batch-answers.js';

describe('answersByItem', () => {
  it('orders rows by their item and refuses a missing or repeated one', () => {
    expect(
      answersByItem<{ v: string }>(
        [
          { item: 2, v: 'b' },
          { item: 1, v: 'a' },
        ],
        2,
        'f',
      ),
    ).toEqual([{ v: 'a' }, { v: 'b' }]);
    expect(() => answersByItem([{ item: 1 }, { item: 1 }], 2, 'f')).toThrow(
      'f answered 2 rows for 2 items',
    );
    expect(() => answersByItem([{ item: 1 }], 2, 'f')).toThrow('f answered 1 rows for 2 items');
  });
});
