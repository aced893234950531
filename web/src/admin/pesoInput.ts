import type { InputNumberProps } from 'antd';

/** 42000 as 42,000; the decimals as typed. */
function withThousands(value: number | string | undefined): string {
  if (value === undefined || value === '') return '';
  const [whole = '', fraction] = String(value).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** Centavos are always shown as two digits (1,250.50, never 1,250.5); whole pesos keep none. */
function withCentavos(value: number | string | undefined): number | string | undefined {
  if (value === undefined || value === '' || !String(value).includes('.')) return value;
  const amount = Number(value);
  return Number.isFinite(amount) ? amount.toFixed(2) : value;
}

/**
 * A peso amount in an InputNumber: shown as ₱ 42,000 while the field's value (and what is sent to
 * the API) stays the number 42000. While the admin types, the text is left as typed (a trailing
 * "1,250.5" must not jump to ".50" under the caret). The parser answers the digits as text, which
 * InputNumber turns into its number (and an emptied field into null).
 */
export const PESO_INPUT: Pick<InputNumberProps, 'prefix' | 'formatter' | 'parser'> = {
  prefix: '₱',
  formatter: (value, info) => withThousands(info?.userTyping ? value : withCentavos(value)),
  parser: (text) => (text ?? '').replace(/[₱,\s]/g, ''),
};
