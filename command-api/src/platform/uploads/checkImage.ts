import { ApiError } from '../errors/apiError.js';
import { imageDimensions, isAcceptableSize, MAX_IMAGE_SIDE } from './imageDimensions.js';
import { hasHiddenPayload } from './imageIntegrity.js';
import { detectImageType, type ImageContentType } from './imageType.js';

const NOT_AN_IMAGE = () => new ApiError(415, 'UNSUPPORTED_FILE_TYPE', 'Only JPEG, PNG or WebP images are accepted');

/**
 * Every check an uploaded document passes before it is stored, whoever uploads it: the type by
 * its bytes, a readable header, no pixel flood (judged from the header, never by decoding), and
 * nothing riding along with the picture. Answers the content type the file will be served with.
 */
export function checkImage(bytes: Buffer): ImageContentType {
  const contentType = detectImageType(bytes);
  if (!contentType) throw NOT_AN_IMAGE();
  const dimensions = imageDimensions(bytes, contentType);
  if (!dimensions) throw NOT_AN_IMAGE();
  if (!isAcceptableSize(dimensions)) {
    throw new ApiError(422, 'IMAGE_TOO_LARGE', `The image is too large: at most ${MAX_IMAGE_SIDE} pixels a side and 50 megapixels`);
  }
  if (hasHiddenPayload(bytes, contentType)) {
    throw new ApiError(415, 'IMAGE_HAS_HIDDEN_CONTENT', 'The file carries something besides the image. Please upload a plain photo.');
  }
  return contentType;
}
