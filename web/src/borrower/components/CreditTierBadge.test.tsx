import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CreditTierBadge } from './CreditTierBadge';

function shown() {
  const badge = screen.getByTestId('credit-badge');
  return {
    score: badge.querySelector('.credit-badge__score')?.textContent,
    label: badge.querySelector('.credit-badge__tier')?.textContent,
    stars: screen.getByRole('img').getAttribute('aria-label'),
    lit: badge.querySelectorAll('.credit-badge__stars path[fill="currentColor"]').length,
  };
}

describe('the credit-tier badge (spec §3 tiers)', () => {
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
  ])('shows %i as %s with %i lit stars of 5', (score, label, stars) => {
    render(<CreditTierBadge score={score} />);
    expect(shown()).toEqual({ score: String(score), label, stars: `${stars} of 5 stars`, lit: stars });
  });

  it('shows the default 500 when no score is known', () => {
    render(<CreditTierBadge score={null} />);
    expect(shown()).toEqual({ score: '500', label: 'Average Credit', stars: '2 of 5 stars', lit: 2 });
  });
});
