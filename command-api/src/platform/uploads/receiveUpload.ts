import { Writable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import formidable from 'formidable';
import { ApiError } from '../errors/apiError.js';

export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

/**
 * Reads the one file of a multipart request (field `file`) into memory, refusing more than
 * MAX_UPLOAD_BYTES while it streams in. Nothing touches the disk until the caller has checked
 * the bytes, so a refused upload leaves nothing behind.
 */
export async function receiveUpload(req: IncomingMessage): Promise<Buffer> {
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
    throw new ApiError(400, 'UPLOAD_EXPECTED', 'Send the image as multipart/form-data in the field "file"');
  }
  const chunks = new Map<string, Buffer[]>();
  const form = formidable({
    maxFiles: 1,
    maxFileSize: MAX_UPLOAD_BYTES,
    maxTotalFileSize: MAX_UPLOAD_BYTES,
    maxFields: 5,
    maxFieldsSize: 10_000,
    allowEmptyFiles: false,
    fileWriteStreamHandler: (file) => {
      const parts: Buffer[] = [];
      chunks.set((file as unknown as { newFilename: string }).newFilename, parts);
      return new Writable({
        write(chunk: Buffer, _encoding, done) {
          parts.push(chunk);
          done();
        },
      });
    },
  });
  let files: formidable.Files;
  try {
    [, files] = await form.parse(req);
  } catch (error) {
    const httpCode = (error as { httpCode?: number }).httpCode;
    if (httpCode === 413 || /maxFileSize|maxTotalFileSize/i.test(String((error as Error).message))) {
      throw new ApiError(413, 'FILE_TOO_LARGE', 'The image is larger than 8 MB');
    }
    throw new ApiError(400, 'UPLOAD_INVALID', 'The upload could not be read. Send one image in the field "file".');
  }
  const file = files.file?.[0];
  if (!file) throw new ApiError(400, 'UPLOAD_MISSING_FILE', 'Send the image in the field "file"');
  // The name is never used (files are stored under random ids), but no browser sends a path as a
  // file name: one that does is probing for a path traversal, and is told so.
  const name = file.originalFilename ?? '';
  if (/[\\/\0]/.test(name) || name === '..') throw new ApiError(400, 'UPLOAD_INVALID_NAME', 'The file name must not contain a path');
  return Buffer.concat(chunks.get(file.newFilename) ?? []);
}
