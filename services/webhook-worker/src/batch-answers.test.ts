import { answersByItem } from './batch-answers.js';

describe('answersByItem', () => {
  it('orders rows by their item and refuses a missing or repeated one', () => {
    expect(
      answersByItem<{ item: number; v: string }>(
        [
          { item: 2, v: 'b' },
          { item: 1, v: 'a' },
        ],
        2,
        'f',
      ),
    ).toEqual([{ v: 'a' }, { v: 'b' }]);
    expect(() => answersByItem([{ item: 1 }, { item: 1 }], 2, 'f')).toThrow(
      'f answered item 1 twice or out of range (2 items)',
    );
    expect(() => answersByItem([{ item: 3 }], 2, 'f')).toThrow('out of range');
    expect(() => answersByItem([{ item: 1 }], 2, 'f')).toThrow('f answered 1 of 2 items');
  });
});
