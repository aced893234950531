import { expect } from 'vitest';
import type { DomainEvent } from '@honeylend/contracts';
import { DomainError, type Decider } from '../decider.js';

/** given(decider, [...events]).when(command).then([...events]) / .thenThrows(code, message) */
export function given<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>, history: Event[]) {
  return {
    when(command: Command) {
      const run = () =>
        decider.decide(
          command,
          history.reduce((s, e) => decider.evolve(s, e), decider.initialState()),
        );
      return {
        then(expected: Event[]) {
          expect(run()).toEqual(expected);
        },
        thenThrows(code: string, message?: string) {
          let thrown: unknown;
          try {
            run();
          } catch (error) {
            thrown = error;
          }
          expect(thrown, `expected ${code} to be thrown`).toBeInstanceOf(DomainError);
          expect((thrown as DomainError).code).toBe(code);
          if (message !== undefined) expect((thrown as DomainError).message).toBe(message);
        },
      };
    },
  };
}
