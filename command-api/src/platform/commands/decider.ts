import type { DomainEvent } from '@honeylend/contracts';

/** A command refused by the domain: the status and code the API answers with, in the spec's words. */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 422,
    readonly code: string,
    message: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * One decider per aggregate. Pure: time and ids come in the command (`now`, `memberId`), never
 * from the clock or a random source, so given/when/then tests are exact.
 */
export interface Decider<State, Command, Event extends DomainEvent = DomainEvent> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

export function fold<State, Event extends DomainEvent>(decider: Decider<State, never, Event>, events: Event[]): State {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
}
