/**
 * The read models' checkpoints are positions of another event store than the one the projections
 * read (EVENTSTORE_URL switched while Redis was kept, a store restored from an older copy):
 * applying this store's events after them would skip or repeat them. Nothing is applied; the
 * operator rebuilds the read models from this store.
 */
export class ReadModelsOfAnotherStore extends Error {
  override readonly name = 'ReadModelsOfAnotherStore';
  constructor(detail: string) {
    super(`${detail}. The projections are stopped: run \`lending replay\` to rebuild the read models from this event store.`);
  }
}
