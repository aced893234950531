/** One text message to one E.164 number. */
export interface SmsMessage {
  to: string;
  body: string;
}

/** Delivers texts; resolves once the message is accepted, rejects when it was not. */
export interface SmsSender {
  /** `signal` aborts a send in flight, so shutting workers down never waits on a slow gateway. */
  send(message: SmsMessage, options?: { signal?: AbortSignal }): Promise<void>;
}
