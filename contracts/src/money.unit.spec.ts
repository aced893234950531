import { describe, expect, it } from 'vitest';
import { centavosToPesos, formatPesos, hasWholeCentavos, pesosToCentavos } from './money.js';

describe('money', () => {
  it('turns pesos into integer centavos without binary-fraction drift', () => {
    expect(pesosToCentavos(0.29)).toBe(29);
    expect(pesosToCentavos(80_000)).toBe(8_000_000);
    expect(pesosToCentavos(4_000_000)).toBe(400_000_000);
    expect(centavosToPesos(123_456)).toBe(1234.56);
  });

  it('knows when an amount has a fraction of a centavo', () => {
    expect(hasWholeCentavos(10.25)).toBe(true);
    expect(hasWholeCentavos(10.255)).toBe(false);
  });

  it('formats amounts as the UI shows them', () => {
    expect(formatPesos(8_000_000)).toBe('₱80,000.00');
    expect(formatPesos(-150)).toBe('-₱1.50');
  });
});
