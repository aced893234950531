/**
 * Whether staff text asks a borrower for money, in English, Filipino or Taglish. Advance-fee fraud
 * ("your loan is approved, pay a release fee first") is the classic harm of lending apps, and its
 * sibling is the staff member who asks for the instalment on their own GCash. Staff may write about
 * the loan's own amounts ("your instalment of ₱3,200 is due on 3 March; pay it in the app"), but
 * never: a fee, deposit or charge to unlock, release or process anything; money sent to a number,
 * an account or a person; a payment as the condition of an approval or a release. The product's own
 * ways to pay (the wallet, and GCash, Maya, bank or counter payments quoting the loan number) need
 * none of those.
 *
 * The text is first normalised (lowercase, no accents, a status's underscores as spaces) and the
 * things that matter are written as tokens: the product's own loan and withdrawal numbers, dates and
 * payment references as ‹ref›, then mobile numbers (09xx, +63 9xx) as ‹mobile›, landlines as
 * ‹landline›, amounts (₱, PHP, P, pesos, piso, 3k) as ‹amount› and any other run of eight digits or
 * more as ‹account›. The rules read the tokens sentence by sentence.
 */

const MOBILE = /(?<![\d+])\(?(?:\+\s?63[\s.-]?|63[\s.-]?|0)9\d{2}\)?[\s.-]?\d{3}[\s.-]?\d{4}(?!\d)/g;
const LANDLINE = /\(0?\d{1,3}\)\s?\d{3,4}[\s-]?\d{4}(?!\d)/g;
const OWN_NUMBERS = /\b(?:ln|wd)-\d{4}-\d+\b|\b\d{4}-\d{2}-\d{2}\b/g;
const REFERENCE = /\b(?:ref(?:erence)?|transaction|txn|trace|receipt)\b\.?(?:\s*(?:no\.?|number|#))?\s*[:.]?\s*(?:[a-z]+\s)?\d[\d -]{4,}\d/g;
const NUMBER_WORDS =
  "(?:isang|dalawang|tatlong|apat na|limang|anim na|pitong|walong|siyam na|sampung|daan|daang|raan|raang|libo|libong|sanlibo|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|fifty|hundred|thousand|at|and|'t)";
const AMOUNTS = [
  /(?:₱|\bphp\b|\bphp(?=\d)|\bp\b\.?|\bp(?=\d))\s?\d[\d,]*(?:\.\d+)?(?:\s?k\b)?/g,
  /\b\d[\d,]*(?:\.\d+)?\s?k?\s?(?:pesos?|piso|php)\b/g,
  /\b\d+(?:\.\d)?k\b/g,
  new RegExp(`\\b(?:${NUMBER_WORDS}\\s+)+(?:pesos?|piso)\\b`, 'g'),
];
const ACCOUNT = /(?<![\w.,])\d(?:[ -]?\d){7,}(?![\w])/g;

/** Paying, and sending money, in the three registers (Taglish prefixes like mag-, pa-, i- are split off by the hyphen; "pa-GCash" is a verb). */
const PAY =
  /\b(?:pay|pays|paying|payment|payments|payable|settle|settlement|bayad|bayaran|bayarin|babayaran|magbayad|nagbayad|magbabayad|pagbabayad|ibayad|pambayad|pakibayad|pakibayaran|(?:pa|i|mag|paki)-?(?:gcash|maya)|hulog|ihulog|maghulog|pakihulog|deposit|deposito|magdeposito|send|transfer|wire|remit|padala|ipadala|magpadala|pakipadala|cash[ -]?in|top[ -]?up)\b/;
/** Sending money somewhere, as an instruction (not "was sent", "na-send", "naipadala", "bank transfer"). */
const SEND = /(?<!\bna-)(?<!\b(?:bank|via|by|through|a|the|online|wire)\s)\b(?:send|i-send|isend|transfer|i-transfer|wire|remit|padala|ipadala|magpadala|pakipadala)\b/;
const MONEY_OBJECT = /‹amount›|\b(?:money|funds|amount|pera|halaga|gcash|g-cash|maya|paymaya|palawan|cebuana|lhuillier|western union|remittance)\b/;
/** "to your bank account", "sa bank account nyo": money going to the borrower's own account, not from it. */
const TO_BORROWER = /\b(?:to your|into your|sa (?:iyong|inyong|your))\s+(?:own\s+)?(?:bank|account|wallet|bpi|bdo|gcash)|\b(?:account|bank|wallet) (?:mo|nyo|ninyo)\b/;

/** Words that make a charge of their own: nothing Honeylend charges is paid to unlock or process a loan. */
const FEE =
  /\b(?:fees?|deposit|deposito|magdeposito|cash[ -]?in|unlock|unlocking|unfreeze|(?:release|processing|process|service|handling|activation|admin|administrative|notarial|verification|insurance|approval|disbursement)\s+(?:charges?|costs?)|paunang bayad|advance payment|down ?payment|bayad sa pag-?(?:proseso|process|release))\b/;
/** "no fees", "never ask for a fee", "walang bayad": a fee word said to deny it. */
const NEGATED = /\b(?:no|never|not|without|free|zero|walang|wala|hindi|huwag|hwag)\b/;
/** Things a loan here never costs extra for. */
const CHARGE = /\b(?:insurance|notarial|notary|membership|activation|collateral|documentary stamp|doc stamp|advance|premium)\b/;
/** A payment as the condition of the loan's progress: "to release", "before approval", "para ma-release", "bago i-release". */
const PURPOSE_PARTS = [
  String.raw`\b(?:to|so (?:that )?(?:we|you|it) (?:can|will)|in order to|before(?: we(?: can)?)?)\s+(?:(?:your|the|my|its)\s+)?(?:loan\s+|funds\s+|money\s+|account\s+)?(?:release|releasing|approve|approval|process|processing|activate|activation|unlock|unfreeze|disburse|disbursement|speed up|claim it|claim your|i-disburse)\b`,
  String.raw`\b(?:para|upang|bago|hanggang)\s+(?:(?:po|mo|nyo|namin|ang)\s+)?(?:ma-?|mai-?|i-?|mag-?|maka-?|ma-?re)?(?:release|rerelease|labas|ilabas|aprubahan|approve|process|proseso|activate|unlock|disburse|kuha|verify)\b`,
  String.raw`\bbago (?:ang |ng )?(?:release|disbursement|approval|pag-?release)\b`,
  String.raw`\b(?:then|tapos|saka|after (?:that|payment|you pay))\s+(?:i-?|ma-?)?re-?releas`,
];
const PURPOSE = new RegExp([...PURPOSE_PARTS, String.raw`\bfor (?:approval|release|processing|disbursement|activation)\b`].join('|'));
/** An amount demanded before the loan moves: "₱1,500 ang kailangan bago i-release", "may singil na ₱1,500 para mailabas". */
const AMOUNT_THEN_PURPOSE = new RegExp(`‹amount›.*(?:${PURPOSE_PARTS.join('|')})`);
const NEED = /\b(?:need|needs|needed|required|require|requires|kailangan|kelangan|dapat|singil|sisingilin)\b/;
/** "need ng 500 pesos for the release": the need, then the amount, then what it is for. */
const NEED_AMOUNT_PURPOSE = new RegExp(`${NEED.source}.*‹amount›.*(?:${PURPOSE.source}|\\bfor the (?:release|approval|processing|disbursement)\\b)`);
/** "pay first", "magbayad muna", "₱2,500 first". */
const FIRST = new RegExp(String.raw`(?:${PAY.source}|‹amount›)(?:\s+\S+){0,3}?\s+muna\b|(?:‹amount›|\bpayment|\bpay|\bfee)\s+first\b`);
/** The payment goes to a person or their own number: "my GCash", "GCash ko", "sa officer mo", "kay Juan". */
const PERSONAL = new RegExp(
  [
    String.raw`\b(?:my|our|his|her|their|personal|own)\s+(?:own\s+|personal\s+)?(?:gcash|g-cash|maya|account|bank|number|wallet)`,
    String.raw`\bpersonal\s+(?:na|kong|nyang|niyang|ng)?\s*(?:gcash|maya|account|bank|number)`,
    String.raw`\b(?:gcash|g-cash|maya|account|number|numero|bank)\s+(?:ko|namin|niya|nya|ng (?:agent|officer|ahente|staff)|ni)\b`,
    String.raw`\b(?:to|sa|kay)\s+(?:(?:our|your|my|the|ang|iyong|inyong)\s+)?(?:loan\s+)?(?:agent|officer|collector|ahente|kolektor|staff|teller)\b`,
    String.raw`\bkay\s+[a-z]+|\bsa akin\b|\bsakin\b|\bto me\b`,
  ].join('|'),
);
const NUMBER = /‹mobile›|‹account›/;
/** A channel named next to a number: "GCash 0917…", "BDO account 0012…", "numerong ito 0928…". */
const DESTINATION = new RegExp(
  String.raw`\b(?:gcash|g-cash|maya|paymaya|palawan|cebuana|lhuillier|western union|bdo|bpi|metrobank|landbank|unionbank|security bank|rcbc|pnb|bank|account|acct|number|numero|no)\b[^.!?‹]{0,24}(?:‹mobile›|‹account›)`,
);

function normalise(text: string): string {
  let tokens = ` ${text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[_\s]+/g, ' ')} `;
  tokens = tokens.replace(OWN_NUMBERS, ' ‹ref› ').replace(MOBILE, ' ‹mobile› ').replace(LANDLINE, ' ‹landline› ').replace(REFERENCE, ' ‹ref› ');
  for (const amount of AMOUNTS) tokens = tokens.replace(amount, ' ‹amount› ');
  return tokens.replace(ACCOUNT, ' ‹account› ').replace(/\s+/g, ' ');
}

function sentencesOf(tokens: string): string[] {
  return tokens.split(/[.!?\n]+/).filter((sentence) => sentence.trim() !== '');
}

/**
 * Whether `pattern` occurs in `sentence` other than denied by a no/never/hindi at most `reach` words
 * before it: "Honeylend never asks for a release fee" and "hindi kailangang magbayad para ma-release"
 * are the advice staff give against the scam, not the scam.
 */
function asserted(pattern: RegExp, sentence: string, reach: number): boolean {
  for (const match of sentence.matchAll(new RegExp(pattern.source, 'g'))) {
    const before = sentence.slice(0, match.index).trim().split(' ').slice(-reach).join(' ');
    if (!NEGATED.test(before)) return true;
  }
  return false;
}

type Rule = (sentence: string, message: string) => boolean;
const paysOrSends = (text: string) => PAY.test(text) || SEND.test(text);

/** Each rule names what it found; the first that holds for a sentence is the answer. */
const RULES: [string, Rule][] = [
  ['a fee, deposit or charge', (sentence) => asserted(FEE, sentence, 6)],
  ['a payment to a phone or account number', (sentence) => paysOrSends(sentence) && NUMBER.test(sentence)],
  ['a payment channel with a phone or account number', (sentence, message) => DESTINATION.test(sentence) && paysOrSends(message)],
  ['a payment to a person', (sentence) => paysOrSends(sentence) && PERSONAL.test(sentence)],
  [
    'a payment as the condition of a release or approval',
    (sentence) =>
      ((asserted(PAY, sentence, 3) || asserted(SEND, sentence, 3)) && (PURPOSE.test(sentence) || FIRST.test(sentence))) ||
      (NEED.test(sentence) && AMOUNT_THEN_PURPOSE.test(sentence)) ||
      NEED_AMOUNT_PURPOSE.test(sentence),
  ],
  ['a charge for something extra', (sentence) => PAY.test(sentence) && CHARGE.test(sentence)],
  ['money sent somewhere', (sentence) => SEND.test(sentence) && MONEY_OBJECT.test(sentence) && !TO_BORROWER.test(sentence)],
];

/** What made a message a request for money (e.g. "a payment to a phone or account number"), or null when it asks for none. */
export function moneyRequestIn(text: string): string | null {
  const message = normalise(text);
  for (const sentence of sentencesOf(message)) {
    for (const [found, rule] of RULES) if (rule(sentence, message)) return found;
  }
  return null;
}

/** A phone or account number (a status name is a step's name and has no use for either). */
export function numberIn(text: string): boolean {
  return NUMBER.test(normalise(text));
}
