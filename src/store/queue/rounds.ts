/**
 * Fair taking across workspaces: jobs are taken round-robin by workspace, per queue. Within a round
 * each workspace with a due job gets one, the oldest due job first (so workspaces take their turns in
 * the order of their oldest due job); a workspace already served this round waits until no other
 * workspace has a due job, and then a new round starts. So one workspace's 5,000 queued uploads hold
 * another's single document back by about one job per worker slot, not by 5,000, and a workspace
 * alone on the queue still gets every slot.
 *
 * The rounds are this process's: each worker process takes its own turns (several workers are each
 * fair, so together they are too). Jobs within one workspace stay first-in first-out.
 */
export class WorkspaceRounds {
  private readonly served = new Map<string, Set<string>>();

  /**
   * Takes one job of `queue` in turn: first the oldest due job of a workspace not served this round
   * (`take` given those served, to leave out), else, in a new round, the oldest due job of any.
   */
  async take<T extends { workspaceId: string }>(queue: string, take: (exceptWorkspaces: string[]) => Promise<T | null>): Promise<T | null> {
    let served = this.served.get(queue);
    let taken = served?.size ? await take([...served]) : null;
    if (!taken) {
      served = new Set();
      this.served.set(queue, served);
      taken = await take([]);
    }
    if (taken) served!.add(taken.workspaceId);
    return taken;
  }
}
