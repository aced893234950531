import { formatPesos, manilaDateOf, type ReminderReason } from '@honeylend/contracts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function spelledDate(date: string): string {
  const { year, month, day } = manilaDateOf(date);
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

/** Honeylend's own ways to pay, named in every reminder; never an account, a number or a person. */
export const OWN_WAYS_TO_PAY = 'Pay in the Honeylend app from your wallet, or by GCash, Maya, bank or over the counter quoting your loan number';

/**
 * The fixed reminder templates (design §9): the amount, the due date and the product's own ways
 * to pay, nothing else — they pass the same no-money-request filter staff texts do.
 */
export function reminderText(reason: ReminderReason, loanNumber: string, instalment: number, amountCentavos: number, dueDate: string): { title: string; message: string } {
  const amount = formatPesos(amountCentavos);
  const when = spelledDate(dueDate);
  switch (reason) {
    case 'before_due':
      return { title: `Instalment ${instalment} due soon`, message: `Instalment ${instalment} of loan ${loanNumber}, ${amount}, is due on ${when}. ${OWN_WAYS_TO_PAY} ${loanNumber}.` };
    case 'due_today':
      return { title: `Instalment ${instalment} due today`, message: `Instalment ${instalment} of loan ${loanNumber}, ${amount}, is due today, ${when}. ${OWN_WAYS_TO_PAY} ${loanNumber}.` };
    case 'overdue':
      return {
        title: `Instalment ${instalment} overdue`,
        message: `Instalment ${instalment} of loan ${loanNumber}, ${amount}, was due on ${when} and is unpaid. Late charges start after the grace days. ${OWN_WAYS_TO_PAY} ${loanNumber}.`,
      };
  }
}
