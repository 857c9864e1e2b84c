import { SendSlots } from './send-slots.js';

describe('SendSlots', () => {
  it('reserves at most the free slots; a run frees its slot when it settles', async () => {
    const slots = new SendSlots(3);
    expect(slots.reserve(2)).toBe(2);
    expect(slots.reserve(2)).toBe(1);
    expect(slots.reserve(1)).toBe(0);
    slots.release(1);
    let finish: () => void = () => {};
    expect(slots.run(() => new Promise<void>((resolve) => (finish = resolve)))).toBe(true);
    expect(slots.run(async () => Promise.reject(new Error('a failed send still frees')))).toBe(
      true,
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(slots.inUse).toBe(1);
    finish();
    await slots.drain();
    expect(slots.inUse).toBe(0);
  });

  it('drain waits for reservations still held by a fan-out, and then starts nothing new', async () => {
    const slots = new SendSlots(4);
    expect(slots.reserve(2)).toBe(2); // a fan-out in its query
    let drained = false;
    const draining = slots.drain().then(() => {
      drained = true;
    });
    expect(slots.reserve(1)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(drained).toBe(false);
    // The fan-out's query returns: one head claimed, one slot unused.
    slots.release(1);
    let ran = false;
    expect(
      slots.run(async () => {
        ran = true;
      }),
    ).toBe(false);
    await draining;
    expect(ran).toBe(false);
    expect(slots.inUse).toBe(0);
  });
});
