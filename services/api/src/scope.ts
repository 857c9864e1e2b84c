/**
 * The `where` of one of the account's objects that is not (soft) deleted: the id
 * of another account's object, or of a deleted one, matches nothing and answers
 * 404 (docs/api.md, "Errors").
 */
export const live = (accountId: string, id: string) => ({ id, accountId, deletedAt: null });
