/**
 * What the operator states about itself: company registration, regulators, the SEC check link.
 * Design §7: shown only when configured. No configuration source exists yet, so this answers
 * null and the screens draw none of it; a source (an API answer or build-time settings) plugs in here.
 */
export interface OperatorDetails {
  company: { name: string; registrationNumber: string; dateRegistered: string; status: string; address: string } | null;
  regulators: { name: string }[];
  secCheckUrl: string | null;
}

export function operatorDetails(): OperatorDetails | null {
  return null;
}
