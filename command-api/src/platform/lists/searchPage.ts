import type { Redis } from 'ioredis';
import { normalisePhone } from '@honeylend/contracts';

/**
 * One page of an admin list, newest first, filtered by the search box.
 *
 * Without a search the page is read straight from the list's sorted set (ZREVRANGE). With one,
 * a Lua script walks the sorted set inside Redis and matches each entry's search text (kept by
 * the projections in a hash; loans and withdrawals join their member's text by member id), so a
 * renamed member is found under the new name at once and only one page of ids crosses the wire.
 * A member the viewer sees masked is matched by their masked text (SearchVisibility).
 * That is a scan: about a millisecond per few thousand entries, which suits a lender's back
 * office of up to tens of thousands of rows. Beyond that a search index (RediSearch, a database
 * full-text index) should take over behind this same function.
 */
const SEARCH_SCRIPT = `
local ids = redis.call('ZREVRANGE', KEYS[1], 0, -1)
local offset = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local joinMember = ARGV[3] == '1'
local phone = ARGV[4]
local listedShown = ARGV[5] == 'shown'
local listedCount = tonumber(ARGV[6])
local listed = {}
for i = 7, 6 + listedCount do listed[ARGV[i]] = true end
local firstWord = 7 + listedCount
local masking = listedShown or listedCount > 0
local total = 0
local page = {}
for _, id in ipairs(ids) do
  local text = redis.call('HGET', KEYS[2], id) or ''
  local memberId = id
  if joinMember then memberId = string.match(text, '^[^\\n]*') end
  local shown = true
  if masking then
    if listedShown then shown = listed[memberId] == true else shown = listed[memberId] ~= true end
  end
  if not shown then text = redis.call('HGET', KEYS[4], id) or '' end
  if joinMember then
    text = text .. '\\n' .. (redis.call('HGET', shown and KEYS[3] or KEYS[5], memberId) or '')
  end
  local matched = phone ~= '' and string.find(text, phone, 1, true) ~= nil
  if not matched then
    matched = true
    for i = firstWord, #ARGV do
      if not string.find(text, ARGV[i], 1, true) then
        matched = false
        break
      end
    end
  end
  if matched then
    total = total + 1
    if total > offset and total <= offset + limit then page[#page + 1] = id end
  end
end
return { total, page }
`;

export interface SearchIndex {
  /** Sorted set of the listed ids, scored by creation time. */
  ids: string;
  /** Hash id → lowercased search text. */
  text: string;
  /** The same text as masked; for loans, whose own text holds nothing personal, the text itself. */
  maskedText: string;
  /** For loans and withdrawals: the members' search hash, joined through the member id on the text's first line. */
  memberText?: string;
  /** The members' masked search hash, joined for the members the viewer sees masked. */
  maskedMemberText?: string;
}

/**
 * Whose personal data the viewer sees: only the members `listed` as 'shown' (an auditor: the ones
 * they unmasked), or everyone but those `listed` as 'masked' (other staff: all but closed accounts).
 * Every other member is searched by their masked text, so a search tells the viewer nothing
 * the list does not show them.
 */
export interface SearchVisibility {
  listed: 'shown' | 'masked';
  memberIds: readonly string[];
}

export const EVERYONE_SHOWN: SearchVisibility = { listed: 'masked', memberIds: [] };

export interface IdPage {
  total: number;
  ids: string[];
}

/** Every word must appear (in any field); a query that is a phone number in any format also matches that number. */
export function searchTermsOf(search: string): { phone: string; words: string[] } {
  return { phone: normalisePhone(search)?.toLowerCase() ?? '', words: search.toLowerCase().split(/\s+/).filter(Boolean) };
}

export async function searchPage(redis: Redis, index: SearchIndex, search: string, offset: number, limit: number, visibility: SearchVisibility): Promise<IdPage> {
  if (search.trim() === '') {
    const [total, ids] = await Promise.all([redis.zcard(index.ids), redis.zrevrange(index.ids, offset, offset + limit - 1)]);
    return { total, ids };
  }
  const { phone, words } = searchTermsOf(search);
  const memberText = index.memberText ?? index.text;
  const answer = (await redis.eval(
    SEARCH_SCRIPT,
    5,
    index.ids,
    index.text,
    memberText,
    index.maskedText,
    index.maskedMemberText ?? memberText,
    offset,
    limit,
    index.memberText ? '1' : '0',
    phone,
    visibility.listed,
    visibility.memberIds.length,
    ...visibility.memberIds,
    ...words,
  )) as [number, string[]];
  return { total: answer[0], ids: answer[1] };
}

/** The JSON documents behind `ids`, in the same order; ids whose document is gone are skipped. */
export async function documentsOf<T>(redis: Redis, ids: string[], keyOf: (id: string) => string): Promise<T[]> {
  if (ids.length === 0) return [];
  const raws = await redis.mget(...ids.map(keyOf));
  return raws.filter((raw): raw is string => raw !== null).map((raw) => JSON.parse(raw) as T);
}

/** `{ items, total, page, pageSize }`, the shape of every admin list. */
export interface ListAnswer<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}
