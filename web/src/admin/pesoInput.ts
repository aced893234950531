import type { InputNumberProps } from 'antd';

/** 42000 as 42,000; the decimals as typed. */
function withThousands(value: number | string | undefined): string {
  if (value === undefined || value === '') return '';
  const [whole = '', fraction] = String(value).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction === undefined ? '' : `.${fraction}`}`;
}

/**
 * A peso amount in an InputNumber: shown as ₱ 42,000 while the field's value (and what is sent to
 * the API) stays the number 42000. The parser answers the digits as text, which InputNumber turns
 * into its number (and an emptied field into null).
 */
export const PESO_INPUT: Pick<InputNumberProps, 'prefix' | 'formatter' | 'parser'> = {
  prefix: '₱',
  formatter: withThousands,
  parser: (text) => (text ?? '').replace(/[₱,\s]/g, ''),
};
