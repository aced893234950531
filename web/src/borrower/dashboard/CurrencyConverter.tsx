import { CONVERTER_CURRENCIES, DEFAULT_CONVERTER_AMOUNT, DEFAULT_CONVERTER_CURRENCY, FALLBACK_RATES_PER_PESO, type ConverterCurrency, type RatesAnswer } from '@honeylend/contracts';
import { useCallback, useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { formatDateTime } from '../../shared/money';
import { FormField, SelectField } from '../components/FormField';
import { RefreshIcon } from '../components/icons';
import { filterAmountInput, formatRate, sparklinePoints, trendOf, type RateTrend } from './converter';

type RatesState = { status: 'loading' } | { status: 'ready'; rates: RatesAnswer } | { status: 'failed' };

/** The offline answer: the fixed indicative rates, no history (spec §8: a failed fetch uses them). */
const FALLBACK: RatesAnswer = {
  base: 'PHP',
  rates: FALLBACK_RATES_PER_PESO,
  asOf: null,
  source: 'fallback',
  history: Object.fromEntries(CONVERTER_CURRENCIES.map((currency) => [currency.code, []])) as unknown as RatesAnswer['history'],
};

const CURRENCY_OPTIONS = CONVERTER_CURRENCIES.map((currency) => ({ value: currency.code, label: `${currency.code} · ${currency.name}` }));

function useRates() {
  const [state, setState] = useState<RatesState>({ status: 'loading' });
  const load = useCallback(async (signal?: AbortSignal) => {
    setState((current) => (current.status === 'ready' ? current : { status: 'loading' }));
    try {
      const rates = await apiRequest<RatesAnswer>('/api/rates', { signal, cache: 'no-store' });
      setState({ status: 'ready', rates });
    } catch (error) {
      if (signal?.aborted) return;
      console.error('Could not fetch exchange rates; showing the indicative rates', error);
      setState({ status: 'failed' });
    }
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);
  return { state, refresh: () => load() };
}

/** Spec §2 converter: PHP into one of 8 currencies, with the rate, its day-on-day change and a real 7-day trend. */
export function CurrencyConverter() {
  const { state, refresh } = useRates();
  const [amount, setAmount] = useState(String(DEFAULT_CONVERTER_AMOUNT));
  const [currency, setCurrency] = useState<ConverterCurrency>(DEFAULT_CONVERTER_CURRENCY);
  const [refreshing, setRefreshing] = useState(false);

  const answer = state.status === 'ready' ? state.rates : state.status === 'failed' ? FALLBACK : null;
  const info = CONVERTER_CURRENCIES.find((entry) => entry.code === currency)!;
  const rate = answer?.rates[currency] ?? FALLBACK_RATES_PER_PESO[currency];
  const pesos = Number(amount || '0');
  const converted = Number.isFinite(pesos) ? pesos * rate : 0;
  const trend = answer ? trendOf(answer.history[currency]) : null;
  const indicative = answer?.source !== 'live';

  async function onRefresh() {
    setRefreshing(true);
    await refresh();
    setRefreshing(false);
  }

  return (
    <section className="card converter" aria-labelledby="converter-title">
      <div className="card__header">
        <h2 id="converter-title" className="card__title">
          Currency converter
        </h2>
        <button type="button" className="icon-button icon-button--soft" aria-label="Refresh rates" onClick={() => void onRefresh()} disabled={refreshing} aria-busy={refreshing || undefined}>
          <RefreshIcon size={20} />
        </button>
      </div>
      <div className="converter__inputs">
        <FormField label="Amount (PHP)" name="converterAmount" inputMode="decimal" autoComplete="off" value={amount} onValueChange={(value) => setAmount(filterAmountInput(value))} />
        <SelectField label="Convert to" name="converterCurrency" value={currency} onValueChange={(value) => setCurrency(value as ConverterCurrency)} options={CURRENCY_OPTIONS} />
      </div>
      {answer ? (
        <>
          <p className="converter__result" aria-live="polite">
            <span className="converter__from">₱{pesos.toLocaleString('en-PH', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} =</span>{' '}
            <strong>
              {info.symbol}
              {converted.toLocaleString('en-PH', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}
            </strong>{' '}
            <span className="converter__code">{currency}</span>
          </p>
          <p className="converter__rate">
            1 PHP = {formatRate(rate)} {currency} <TrendChange trend={trend} />
          </p>
          <TrendLine trend={trend} currency={currency} />
          <p className={`converter__source${indicative ? ' converter__source--indicative' : ''}`}>
            {indicative ? 'Indicative rates: live rates are unavailable right now.' : `Live rates${answer.asOf ? `, updated ${formatDateTime(answer.asOf)}` : ''}.`}
          </p>
        </>
      ) : (
        <p className="muted" role="status">
          Loading...
        </p>
      )}
    </section>
  );
}

function TrendChange({ trend }: { trend: RateTrend | null }) {
  if (!trend) return null;
  const arrow = trend.direction === 'up' ? '▲' : trend.direction === 'down' ? '▼' : '▬';
  const sign = trend.changePercent > 0 ? '+' : '';
  return (
    <span className={`trend trend--${trend.direction}`}>
      <span aria-hidden="true">{arrow}</span> {sign}
      {trend.changePercent.toFixed(2)}%<span className="visually-hidden"> ({trend.direction} since the day before)</span>
    </span>
  );
}

function TrendLine({ trend, currency }: { trend: RateTrend | null; currency: string }) {
  if (!trend) return <p className="converter__no-trend">7-day trend: no trend yet</p>;
  const width = 280;
  const height = 56;
  const first = trend.points[0];
  const last = trend.points[trend.points.length - 1];
  return (
    <figure className="converter__trend">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        height={height}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${currency} over ${trend.points.length} days: from ${formatRate(first.rate)} on ${first.date} to ${formatRate(last.rate)} on ${last.date}`}
      >
        <polyline points={sparklinePoints(trend.points, width, height)} fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinejoin="round" strokeLinecap="round" vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption>7-day trend</figcaption>
    </figure>
  );
}
