/**
 * Banks and e-wallets borrowers in the Philippines are paid to, offered as suggestions for the
 * bank name (a free-text field: a bank not listed is simply typed, "Other").
 */
export const PHILIPPINE_BANKS = [
  'BDO Unibank',
  'BPI',
  'Metrobank',
  'Land Bank of the Philippines',
  'Philippine National Bank (PNB)',
  'Security Bank',
  'China Bank',
  'RCBC',
  'UnionBank',
  'EastWest Bank',
  'Development Bank of the Philippines',
  'PSBank',
  'AUB (Asia United Bank)',
  'CIMB Bank',
  'Maya Bank',
  'GoTyme Bank',
  'Tonik',
  'GCash',
  'Maya',
  'ShopeePay',
] as const;
