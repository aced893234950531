/** One text message to one E.164 number. */
export interface SmsMessage {
  to: string;
  body: string;
}

export interface SmsSendOptions {
  /** Aborts a send in flight, so shutting workers down never waits on a slow gateway. */
  signal?: AbortSignal;
  /** The same for every repeat of one message (a job re-run after a crash): the gateway delivers it once. */
  idempotencyKey?: string;
}

/** Delivers texts; resolves once the message is accepted, rejects when it was not. */
export interface SmsSender {
  send(message: SmsMessage, options?: SmsSendOptions): Promise<void>;
}
