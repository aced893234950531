import { toLoanAnswer, type BusinessDate, type LoanDoc } from '@honeylend/contracts';

/** Answers kept at most (the oldest goes first); a loan's answer is a few kilobytes. */
const KEPT = 5_000;
const answers = new Map<string, string>();

/**
 * A loan's answer as JSON text, made once per version of its document: the schedule and the
 * Truth-in-Lending rates (an internal rate of return found by iteration) depend only on the
 * document, and computing and serializing them again for every GET /api/loans/user was the largest
 * share of that endpoint's CPU. Any change to a loan gives its document a new version, hence a new
 * answer; before disbursement the schedule shown counts from the business date, so it is part of the key.
 */
export function loanAnswerJson(doc: LoanDoc, today: BusinessDate): string {
  const key = doc.account ? `${doc.id}:${doc.version}` : `${doc.id}:${doc.version}:${today}`;
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = JSON.stringify(toLoanAnswer(doc, today));
    if (answers.size >= KEPT) answers.delete(answers.keys().next().value!);
    answers.set(key, answer);
  }
  return answer;
}
