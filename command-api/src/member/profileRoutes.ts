import Router from '@koa/router';
import { profileUpdateBody, streams, toUserAnswer, type DocumentKind, type MemberDoc, type ProfileChanges } from '@honeylend/contracts';
import { authenticate, authenticatedRead } from '../auth/authenticate.js';
import { handleCommand } from '../domain/commandHandler.js';
import { ApiError } from '../http/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../http/context.js';
import { readAfterWrite } from '../consistency/readAfterWrite.js';
import { memberDecider } from './decide.js';
import { fileIdFromUrl } from '../uploads/signedFileUrls.js';
import { endpoint } from '../http/endpoint.js';
import * as answers from '../http/answerSchemas.js';

const DOCUMENT_FIELDS = { idFrontUrl: 'idFront', idBackUrl: 'idBack', selfieUrl: 'selfie' } as const;

/** The file ids behind the document URLs sent. */
function documentsFrom(body: Partial<Record<keyof typeof DOCUMENT_FIELDS, string>>): Partial<Record<DocumentKind, string>> {
  const documents: Partial<Record<DocumentKind, string>> = {};
  for (const [field, kind] of Object.entries(DOCUMENT_FIELDS) as [keyof typeof DOCUMENT_FIELDS, DocumentKind][]) {
    const value = body[field];
    if (value === undefined) continue;
    // The body schema takes only the URLs an upload answers (documentUrlField): the id is there.
    documents[kind] = fileIdFromUrl(value)!;
  }
  return documents;
}

export function profileRoutes(deps: ApiDeps): Router {
  const { store, readModels, progress, tokens } = deps;
  const router = new Router({ prefix: '/api/user' });
  const borrowerRead = authenticatedRead(tokens, readModels, ['borrower']);

  const userAnswer = (doc: MemberDoc | null) => {
    if (!doc) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Account not found');
    return toUserAnswer(doc, (fileId) => deps.signedFileUrls.urlFor(fileId));
  };

  router.get('/profile', endpoint({ summary: "The borrower's own profile", answer: answers.userAnswer }, async (ctx) => {
    ctx.body = userAnswer(await borrowerRead(ctx, (memberId) => readModels.member(memberId)));
  }));

  router.put('/profile', authenticate(tokens, readModels, ['borrower']), endpoint({ summary: "Change the borrower's own profile (document URLs: ones an upload of theirs answered)", body: profileUpdateBody, answer: answers.userAnswer }, async (ctx, { body }) => {
    const { monthlySalary, idFrontUrl, idBackUrl, selfieUrl, ...rest } = body;
    const changes: ProfileChanges = { ...rest, ...(monthlySalary !== undefined ? { monthlySalaryCentavos: monthlySalary } : {}) };
    const documents = documentsFrom({ idFrontUrl, idBackUrl, selfieUrl });
    const memberId = callerOf(ctx).id;
    const result = await handleCommand(
      store,
      streams.member(memberId),
      memberDecider,
      { type: 'UpdateProfile', memberId, changes, documents, now: deps.now().toISOString() },
      metadataOf(ctx, memberId),
    );
    ctx.body = await readAfterWrite(ctx, progress, result.position, async () => userAnswer(await readModels.member(memberId)));
  }));

  return router;
}
