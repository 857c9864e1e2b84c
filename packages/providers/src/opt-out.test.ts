import { OPT_OUT_INSTRUCTION, withOptOutInstruction } from './opt-out.js';

describe("a play's first SMS and its opt-out instruction", () => {
  it.each([
    ['Hi Ana', true, `Hi Ana ${OPT_OUT_INSTRUCTION}`],
    ['Hi Ana\n', true, `Hi Ana\n${OPT_OUT_INSTRUCTION}`],
    ['', true, OPT_OUT_INSTRUCTION],
    ['Hi Ana. Text STOP to end.', true, 'Hi Ana. Text STOP to end.'],
    // "stop" in lower case is not the keyword carriers match: still appended.
    ["Don't stop now", true, `Don't stop now ${OPT_OUT_INSTRUCTION}`],
    // STOPPED is not the keyword either.
    ['STOPPED by?', true, `STOPPED by? ${OPT_OUT_INSTRUCTION}`],
    ['Still there?', false, 'Still there?'],
  ])('%j (first: %s) → %j', (body, first, expected) => {
    expect(withOptOutInstruction(body, first)).toBe(expected);
  });
});
