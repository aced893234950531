import PDFDocument from 'pdfkit';
import type { DisclosureAnswer } from '@honeylend/contracts';

/**
 * The Disclosure Statement as a PDF the borrower keeps: the exact text they were shown (in a
 * fixed-width font, so the schedule's columns stay aligned), then its SHA-256, the fingerprint the
 * acceptance recorded, so anyone can check a copy against the log. Built with pdfkit in memory (a
 * statement is a page or two).
 */
export function disclosurePdf(disclosure: DisclosureAnswer, loanNumber: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `Disclosure Statement ${loanNumber}`, Author: 'Honeylend', Subject: 'RA 3765 Disclosure Statement' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const [title, ...rest] = disclosure.statement.split('\n');
  doc
    .font('Helvetica-Bold')
    .fontSize(13)
    .text(title ?? '');
  doc.font('Courier').fontSize(8).moveDown(0.5);
  for (const line of rest) doc.text(line === '' ? ' ' : line);
  doc.moveDown();
  doc.font('Helvetica-Bold').fontSize(9).text('SHA-256 of this statement:');
  doc.font('Courier').fontSize(8).text(disclosure.hash);
  doc.font('Helvetica').fontSize(9).moveDown(0.5);
  doc.text(disclosure.acceptedAt ? `Accepted by the borrower on ${disclosure.acceptedAt} (UTC).` : `Not yet accepted. Accept by ${disclosure.acceptBy} (UTC) in the Honeylend app.`);
  doc.end();
  return done;
}
