/**
 * One colour per loan status, the same in the table's tags and the charts: the antd preset name
 * for a Tag and its hex (antd's palette) for a chart. Custom review steps show in purple.
 */
const LOAN_STATUS_COLOURS: Record<string, { tag: string; hex: string }> = {
  pending: { tag: 'gold', hex: '#faad14' },
  approved: { tag: 'green', hex: '#52c41a' },
  active: { tag: 'blue', hex: '#1677ff' },
  completed: { tag: 'default', hex: '#8c8c8c' },
  denied: { tag: 'red', hex: '#ff4d4f' },
  account_issue: { tag: 'orange', hex: '#fa8c16' },
  lapsed: { tag: 'default', hex: '#bfbfbf' },
  cancelled: { tag: 'default', hex: '#595959' },
};
const CUSTOM_STATUS_COLOUR = { tag: 'purple', hex: '#722ed1' };

export function loanStatusColour(status: string): string {
  return (LOAN_STATUS_COLOURS[status] ?? CUSTOM_STATUS_COLOUR).tag;
}

export function loanStatusChartColour(status: string): string {
  return (LOAN_STATUS_COLOURS[status] ?? CUSTOM_STATUS_COLOUR).hex;
}
