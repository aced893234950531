import { z } from 'zod';

export const LIST_MESSAGES = {
  page: 'Page must be a whole number from 1',
  pageSize: 'Page size must be a whole number from 1 to 100',
  searchTooLong: 'Search for at most 100 characters',
} as const;

const wholeNumber = (message: string, min: number, max: number, fallback: number) =>
  z
    .string({ error: message })
    .regex(/^\d{1,6}$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message))
    .optional()
    .transform((value) => value ?? fallback);

/** ?search=&status=&page=&pageSize= of the admin lists; `status` is 'all' (or absent) or what `status` accepts. */
export function listQuery(status: z.ZodType<string, string>, statusMessage: string) {
  return z.object({
    search: z
      .string({ error: LIST_MESSAGES.searchTooLong })
      .trim()
      .max(100, LIST_MESSAGES.searchTooLong)
      .optional()
      .transform((value) => value ?? ''),
    status: z
      .string({ error: statusMessage })
      .trim()
      .toLowerCase()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined || value === '' || value === 'all') return null;
        if (status.safeParse(value).success) return value;
        ctx.addIssue({ code: 'custom', message: statusMessage });
        return z.NEVER;
      }),
    page: wholeNumber(LIST_MESSAGES.page, 1, 100_000, 1),
    pageSize: wholeNumber(LIST_MESSAGES.pageSize, 1, 100, 20),
  });
}
