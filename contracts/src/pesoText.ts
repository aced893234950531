/**
 * Pesos as people type them: "25000", "25,000", "₱25,000.50", "PHP 25,000". Thousands separators
 * must group by three ("2,50" is refused, not guessed). Answers the pesos, or null.
 */
export function parsePesoText(text: string): number | null {
  const bare = text.trim().replace(/^(₱|PHP|Php|php|P)\s*/, '');
  if (!/^(\d+|\d{1,3}(,\d{3})+)(\.\d{1,2})?$/.test(bare)) return null;
  return Number(bare.replace(/,/g, ''));
}
