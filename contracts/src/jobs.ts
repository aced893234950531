/** BullMQ queue names shared by the producers (command-api) and the consumers (workers). */
export const QUEUE_NAMES = {
  otp: 'otp',
  notifications: 'notifications',
  rates: 'rates',
} as const;
