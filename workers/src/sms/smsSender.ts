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

/** A text to one member: whose number `to` is, so the sender can tell the demo's people from real members. */
export interface MemberSmsMessage extends SmsMessage {
  memberId: string;
}

/** Delivers texts to members; what every job that texts a member sends through. */
export interface MemberSmsSender {
  send(message: MemberSmsMessage, options?: SmsSendOptions): Promise<void>;
}
