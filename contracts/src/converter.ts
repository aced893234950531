/** The currency converter's currencies and fallback rates (spec §9). No zod here: the dashboard's first load imports these; the schemas are in ./jobs.ts. */

export const CONVERTER_CURRENCY_CODES = ['USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD', 'SGD', 'HKD'] as const;
export type ConverterCurrency = (typeof CONVERTER_CURRENCY_CODES)[number];

export interface ConverterCurrencyInfo {
  code: ConverterCurrency;
  name: string;
  symbol: string;
  flag: string;
}

export const CONVERTER_CURRENCIES: readonly ConverterCurrencyInfo[] = [
  { code: 'USD', name: 'US Dollar', symbol: '$', flag: '🇺🇸' },
  { code: 'EUR', name: 'Euro', symbol: '€', flag: '🇪🇺' },
  { code: 'GBP', name: 'British Pound', symbol: '£', flag: '🇬🇧' },
  { code: 'JPY', name: 'Japanese Yen', symbol: '¥', flag: '🇯🇵' },
  { code: 'AUD', name: 'Australian Dollar', symbol: 'A$', flag: '🇦🇺' },
  { code: 'CAD', name: 'Canadian Dollar', symbol: 'C$', flag: '🇨🇦' },
  { code: 'SGD', name: 'Singapore Dollar', symbol: 'S$', flag: '🇸🇬' },
  { code: 'HKD', name: 'Hong Kong Dollar', symbol: 'HK$', flag: '🇭🇰' },
];

export const DEFAULT_CONVERTER_CURRENCY: ConverterCurrency = 'USD';
export const DEFAULT_CONVERTER_AMOUNT = 1000;

/** Indicative units of each currency per peso, shown (labelled "fallback") until a live fetch succeeds. */
export const FALLBACK_RATES_PER_PESO: Readonly<Record<ConverterCurrency, number>> = {
  USD: 0.018,
  EUR: 0.016,
  GBP: 0.014,
  JPY: 2.65,
  AUD: 0.027,
  CAD: 0.024,
  SGD: 0.024,
  HKD: 0.141,
};

/** Days of history kept and served; the converter shows the last 7. */
export const RATE_HISTORY_DAYS = 30;
export const RATES_REFRESH_EVERY_MS = 3600_000;
export const DEFAULT_RATES_URL = 'https://open.er-api.com/v6/latest/PHP';
