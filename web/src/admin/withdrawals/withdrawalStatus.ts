export const WITHDRAWAL_STATUS_COLOURS: Record<string, string> = { pending: 'gold', approved: 'blue', completed: 'green', rejected: 'red' };
