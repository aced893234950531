import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import Router from '@koa/router';
import { streams, type FileDoc } from '@honeylend/contracts';
import { authenticate } from '../../platform/sessions/authenticate.js';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { memberDecider } from '../decide.js';
import { memberOnWriteSide } from '../memberOnWriteSide.js';
import { checkImage } from '../../platform/uploads/checkImage.js';
import { receiveUpload } from '../../platform/uploads/receiveUpload.js';
import { UploadQuota } from '../../platform/uploads/uploadQuota.js';
import { unmaskedMembers } from '../../staff/personalData/personalDataView.js';
import { endpoint } from '../../platform/http/endpoint.js';
import { pathParam } from '../../platform/http/pathId.js';
import * as answers from '../../platform/http/answerSchemas.js';

/** A signed document URL's query (see SignedFileUrls); without one, the bearer token decides. */
export const signedFileQuery = z.object({ expires: z.string().optional(), sig: z.string().optional() });
import { addressAllowed, addressRefused } from '../../platform/allowList/allowList.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function uploadRoutes(deps: ApiDeps): Router {
  const { store, readModels, progress, tokens, files, signedFileUrls } = deps;
  const router = new Router({ prefix: '/api' });
  const quota = new UploadQuota(deps.redis, deps.jobs.keys.prefix);

  /** A borrower's identity document image: JPEG, PNG or WebP by its bytes, at most 8 MB. */
  router.post(
    '/upload',
    authenticate(tokens, readModels, ['borrower']),
    // Checked on the member's stream before a byte is read: a revoked token stores nothing.
    memberOnWriteSide(store),
    endpoint(
      {
        summary: 'Upload an identity document image (JPEG, PNG or WebP by its bytes, at most 8 MB)',
        upload: { field: 'file', mediaTypes: ['image/jpeg', 'image/png', 'image/webp'] },
        status: 201,
        answer: answers.uploadAnswer,
        refusals: ['422 IMAGE_TOO_LARGE', '429 UPLOAD_QUOTA_REACHED'],
      },
      async (ctx) => {
        const memberId = callerOf(ctx).id;
        const bytes = await receiveUpload(ctx.req);
        const contentType = checkImage(bytes);
        // Taken once the image is known good (a bad file is a 400 whatever the quota says): at most 8 MB is read past it.
        await quota.take(memberId, bytes.length, deps.now());
        const fileId = randomUUID();
        await files.save(fileId, bytes);
        const result = await handleCommand(
          store,
          streams.member(memberId),
          memberDecider,
          {
            type: 'RecordUpload',
            memberId,
            fileId,
            contentType,
            sizeBytes: bytes.length,
            sha256: createHash('sha256').update(bytes).digest('hex'),
            uploadedBy: memberId,
            now: deps.now().toISOString(),
          },
          metadataOf(ctx, memberId),
        );
        ctx.status = 201;
        await readAfterWrite(ctx, progress, result.position, async () => undefined);
        ctx.body = { url: signedFileUrls.urlFor(fileId), fileId, contentType, size: bytes.length };
      },
    ),
  );

  /**
   * A document image, for its owner and for admins: either through a signed URL (for <img>), or
   * with a bearer token. Anyone else: 401 without credentials, 403 with someone else's.
   */
  router.get(
    '/files/:fileId',
    endpoint(
      { summary: 'A document image, by its signed URL or with the bearer token of its owner or staff', query: signedFileQuery, answer: { file: ['image/jpeg', 'image/png', 'image/webp'] } },
      async (ctx, { query: { expires, sig } }) => {
        const fileId = pathParam(ctx, 'fileId')!.toLowerCase();
        if (!UUID.test(fileId)) throw new ApiError(404, 'FILE_NOT_FOUND', 'File not found');
        const record = await deps.redis.get(readModels.keys.file(fileId));
        const file = record ? (JSON.parse(record) as FileDoc) : null;
        if (!signedFileUrls.isValid(fileId, expires, sig)) {
          await authenticate(tokens, readModels, ['borrower', 'admin', 'superadmin', 'auditor'])(ctx, async () => undefined);
          const caller = callerOf(ctx);
          if (caller.role === 'borrower' && caller.id !== file?.memberId) {
            throw file ? new ApiError(403, 'FORBIDDEN', 'This document belongs to someone else') : new ApiError(404, 'FILE_NOT_FOUND', 'File not found');
          }
          // Staff reach members' documents only from the allow-listed addresses, as they reach the admin routes.
          if (caller.role !== 'borrower' && !(await addressAllowed(deps, ctx.ip))) throw addressRefused(ctx.ip);
          // An identity document is personal data: an auditor sees it only once they unmasked its member.
          if (caller.role === 'auditor' && !(file && (await unmaskedMembers(deps, caller.id)).has(file.memberId))) {
            throw new ApiError(403, 'MASKED', 'Identity documents are masked for auditors: unmask the member first (with a reason).');
          }
        }
        if (!file) throw new ApiError(404, 'FILE_NOT_FOUND', 'File not found');
        const stored = await files.open(fileId);
        if (!stored) throw new ApiError(404, 'FILE_NOT_FOUND', 'File not found');
        ctx.type = file.contentType;
        ctx.length = stored.size;
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Content-Disposition', 'inline');
        ctx.set('Cache-Control', 'private, no-store');
        ctx.body = stored.stream;
      },
    ),
  );

  return router;
}
