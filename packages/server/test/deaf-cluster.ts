import type { Cluster } from "../src/log/cluster.ts";

/**
 * Shared with others, hears nothing, never leads: an instance whose notifications are all late (it has not
 * heard of the other instances' writes), for the tests of commands and reads on an instance that is behind.
 */
export class DeafCluster implements Cluster {
  readonly shared = true;
  readonly leader = false;
  publish(): Promise<void> {
    return Promise.resolve();
  }
  subscribe(): () => void {
    return () => {};
  }
  onResync(): () => void {
    return () => {};
  }
  onLeader(handler: (leader: boolean) => void): () => void {
    handler(false);
    return () => {};
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}
