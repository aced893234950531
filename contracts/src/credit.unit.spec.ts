import { describe, expect, it } from 'vitest';
import { creditTierOf } from './credit.js';

describe('credit tiers (spec §3)', () => {
  it.each([
    [0, 'Bad Credit', 1],
    [499, 'Bad Credit', 1],
    [500, 'Average Credit', 2],
    [599, 'Average Credit', 2],
    [600, 'Good Credit', 3],
    [749, 'Good Credit', 3],
    [750, 'Perfect Credit', 5],
    [1000, 'Perfect Credit', 5],
    [1001, 'Unknown', 0],
    [-1, 'Unknown', 0],
  ])('score %i is %s with %i stars', (score, label, stars) => {
    expect(creditTierOf(score)).toEqual({ label, stars });
  });
});
