import { idFloor, isId, newId } from './ids.js';

describe('newId', () => {
  it('is prefixed, 26 lower-case Crockford characters, unique and in creation order', () => {
    const ids = Array.from({ length: 20_000 }, () => newId('delivery'));
    for (const id of ids.slice(0, 100)) expect(isId('delivery', id)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws every random character from the whole alphabet', () => {
    // The random part of ids made in different milliseconds (within one
    // millisecond ulid increments the last one): each of the 32 characters
    // appears about equally often over the 16 random positions taken together.
    const counts = new Map<string, number>();
    let last = '';
    let made = 0;
    const deadline = Date.now() + 5000;
    while (made < 600 && Date.now() < deadline) {
      const id = newId('attempt').slice('att_'.length);
      if (id.slice(0, 10) === last) continue;
      last = id.slice(0, 10);
      made++;
      for (const ch of id.slice(10)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    expect(made).toBeGreaterThan(300);
    expect(counts.size).toBe(32);
    const mean = (made * 16) / 32;
    for (const n of counts.values()) expect(Math.abs(n - mean)).toBeLessThan(mean * 0.3);
  });
});

describe('idFloor', () => {
  it('sorts at or before every id made from its instant on, and after those made before', async () => {
    const before = newId('delivery');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const at = new Date();
    const floor = idFloor('delivery', at);
    expect(isId('delivery', floor)).toBe(true);
    const after = newId('delivery');
    expect(before < floor).toBe(true);
    expect(floor <= after).toBe(true);
    expect(idFloor('delivery', new Date('1969-12-31T00:00:00Z'))).toBe(`dlv_${'0'.repeat(26)}`);
  });
});
