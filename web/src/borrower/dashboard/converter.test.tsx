import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fallbackRatesAnswer, jsonResponse, routeFetch } from '../../testing/http';
import { CurrencyConverter } from './CurrencyConverter';
import { filterAmountInput, formatRate, trendOf } from './converter';

describe('the converter amount filter (spec §2: digits and one decimal point)', () => {
  it.each([
    ['1000', '1000'],
    ['1,250.50', '1250.50'],
    ['12a3b', '123'],
    ['1.2.3', '1.23'],
    ['..5', '.5'],
    ['-45', '45'],
    ['₱ 2 000', '2000'],
    ['1e5', '15'],
    ['', ''],
  ])('keeps %j as %j', (typed, kept) => {
    expect(filterAmountInput(typed)).toBe(kept);
  });

  it('filters what is typed into the amount field', async () => {
    render(<CurrencyConverter />);
    const amount = screen.getByLabelText<HTMLInputElement>('Amount (PHP)');
    expect(amount.value).toBe('1000');

    fireEvent.change(amount, { target: { value: '25a00.5.0x' } });
    expect(amount.value).toBe('2500.50');
    await screen.findByText(/1 PHP = 0\.01800 USD/);
    expect(screen.getByText('$45.01')).toBeTruthy();
  });
});

describe('rates and trend (design §7: real history only)', () => {
  it('shows 2 to 6 decimals', () => {
    expect(formatRate(0.018)).toBe('0.01800');
    expect(formatRate(2.65)).toBe('2.650');
    expect(formatRate(0.000123)).toBe('0.000123');
    expect(formatRate(56.2)).toBe('56.20');
  });

  it('has no trend with fewer than two days, and compares the last two otherwise', () => {
    expect(trendOf([])).toBeNull();
    expect(trendOf([{ date: '2026-01-10', rate: 0.0172 }])).toBeNull();
    expect(
      trendOf([
        { date: '2026-01-09', rate: 0.017 },
        { date: '2026-01-10', rate: 0.0172 },
      ]),
    ).toMatchObject({ direction: 'up', changePercent: 1.18 });
    expect(
      trendOf([
        { date: '2026-01-09', rate: 0.0172 },
        { date: '2026-01-10', rate: 0.017 },
      ])?.direction,
    ).toBe('down');
    expect(
      trendOf([
        { date: '2026-01-09', rate: 0.017 },
        { date: '2026-01-10', rate: 0.017 },
      ])?.direction,
    ).toBe('flat');
    const tenDays = Array.from({ length: 10 }, (_, day) => ({ date: `2026-01-${String(day + 1).padStart(2, '0')}`, rate: 0.017 + day / 10_000 }));
    expect(trendOf(tenDays)?.points.map((point) => point.date)).toEqual(tenDays.slice(-7).map((point) => point.date));
  });

  it("labels fallback rates as indicative and says 'no trend yet'", async () => {
    render(<CurrencyConverter />);
    expect(await screen.findByText('Indicative rates: live rates are unavailable right now.')).toBeTruthy();
    expect(screen.getByText('7-day trend: no trend yet')).toBeTruthy();
  });

  it('draws the real trend with its change for the chosen currency, among the 8 currencies', async () => {
    routeFetch({
      'GET /api/rates': () =>
        jsonResponse({
          ...fallbackRatesAnswer({
            EUR: [
              { date: '2026-01-09', rate: 0.016 },
              { date: '2026-01-10', rate: 0.0158 },
            ],
          }),
          source: 'live',
          asOf: '2026-01-10T04:00:00.000Z',
          rates: { ...fallbackRatesAnswer().rates, EUR: 0.0158 },
        }),
    });
    render(<CurrencyConverter />);
    const currency = screen.getByLabelText<HTMLSelectElement>('Convert to');
    expect([...currency.options].map((option) => option.value)).toEqual(['USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD', 'SGD', 'HKD']);
    await screen.findByText(/Live rates/);
    expect(screen.getByText('7-day trend: no trend yet')).toBeTruthy();

    act(() => {
      fireEvent.change(currency, { target: { value: 'EUR' } });
    });
    const trend = screen.getByRole('img', { name: /EUR over 2 days/ });
    expect(trend).toBeTruthy();
    expect(screen.getByText(/1 PHP = 0\.01580 EUR/).textContent).toContain('-1.25%');
    expect(within(screen.getByText(/1 PHP = 0\.01580 EUR/)).getByText(/down since the day before/)).toBeTruthy();
  });

  it('falls back to the indicative rates when the rates cannot be fetched', async () => {
    routeFetch({ 'GET /api/rates': () => jsonResponse({ message: 'Service unavailable' }, { status: 503 }) });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<CurrencyConverter />);
    expect(await screen.findByText('Indicative rates: live rates are unavailable right now.')).toBeTruthy();
    expect(screen.getByText(/1 PHP = 0\.01800 USD/)).toBeTruthy();
    expect(consoleError).toHaveBeenCalled();
  });
});
