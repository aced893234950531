import { describe, expect, it } from 'vitest';
import { stateFields } from './stateDiff';

describe('state fields', () => {
  it('flattens nested state and marks what the last event changed', () => {
    const previous = { exists: true, status: 'active', balanceCentavos: 8_000_000, profile: { fullName: 'Maria Santos', address: null }, withdrawals: {} };
    const state = { exists: true, status: 'active', balanceCentavos: 7_850_000, profile: { fullName: 'Maria Santos', address: '12 Mabini St' }, withdrawals: { w1: { amountCentavos: 150_000, status: 'pending' } } };
    expect(stateFields(state, previous)).toEqual([
      { path: 'exists', value: 'true', changed: false },
      { path: 'status', value: 'active', changed: false },
      { path: 'balanceCentavos', value: '7850000', changed: true },
      { path: 'profile.fullName', value: 'Maria Santos', changed: false },
      { path: 'profile.address', value: '12 Mabini St', changed: true },
      { path: 'withdrawals.w1.amountCentavos', value: '150000', changed: true },
      { path: 'withdrawals.w1.status', value: 'pending', changed: true },
    ]);
  });

  it('lists a field the event removed', () => {
    expect(stateFields({ rules: {} }, { rules: { r1: '10.0.0.0/8' } })).toEqual([
      { path: 'rules', value: '{}', changed: true },
      { path: 'rules.r1', value: '(removed)', changed: true },
    ]);
  });

  it('marks every field of the first revision as new, and nothing when there is no state', () => {
    expect(stateFields({ exists: false }, null)).toEqual([{ path: 'exists', value: 'false', changed: true }]);
    expect(stateFields(null, null)).toEqual([{ path: '(state)', value: '—', changed: true }]);
  });
});
