// The library's own proof walk, without StandardMerkleTree.getProof's re-hash and re-verify of
// each proof (about a millisecond a proof: the whole budget of a request). The tree is the dump
// the library wrote at the freeze, never changed since; its root is checked once at load.
import { getProof } from '@openzeppelin/merkle-tree/dist/core.js';
import type { StandardMerkleTreeData } from '@openzeppelin/merkle-tree/dist/standard.js';
import type { Kysely } from 'kysely';
import type { AllowlistProof } from '../../../shared/allowlist/allowlist-schema.ts';
import type { Database } from '../../store/schema.ts';
import { noSnapshotAnswer, notOnListAnswer, proofAnswer, type ProofAnswer } from './proof-answers.ts';
import { latestSnapshotId, snapshotById } from './snapshots.ts';

/** How long an instance serves a snapshot before asking the database whether a newer one exists. */
export const PROOF_RECHECK_MS = 5_000;

interface Loaded {
  id: string;
  root: string;
  /** Every node's hash, root first (the dump's `tree`). */
  tree: string[];
  /**
   * Lower-case address → its leaf's place in `tree`: a proof is then a walk up the tree, no search
   * (and no EIP-55 checksum, a keccak, per request).
   */
  index: Map<string, number>;
  /**
   * Lower-case address → its answer, written on its first request: bounded by the snapshot (only
   * addresses on it are kept), and never stale, since the snapshot never changes.
   */
  answers: Map<string, ProofAnswer>;
}

/**
 * Proofs for the sale page, from memory: the latest snapshot's tree is loaded once and kept; every
 * few seconds one small query asks whether another instance froze a newer one. A snapshot never
 * changes, so a proof served from a loaded tree is never wrong, at most a few seconds old.
 */
export class ProofCache {
  private loaded: Loaded | null = null;
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  private async refresh(): Promise<void> {
    const id = await latestSnapshotId(this.db);
    if (id === null) {
      this.loaded = null;
      return;
    }
    if (this.loaded?.id === id) return;
    const row = await snapshotById(this.db, id);
    if (!row) return;
    const dump = JSON.parse(row.tree) as StandardMerkleTreeData<[string]>;
    if (dump.tree[0] !== row.root) throw new Error(`allowlist snapshot ${id}: its tree does not have its root`);
    const index = new Map<string, number>();
    for (const { value, treeIndex } of dump.values) index.set(value[0].toLowerCase(), treeIndex);
    this.loaded = { id, root: row.root, tree: dump.tree, index, answers: new Map() };
  }

  private due(): boolean {
    return this.checking !== null || this.now() - this.checkedAt >= PROOF_RECHECK_MS;
  }

  private async checked(): Promise<void> {
    if (this.now() - this.checkedAt >= PROOF_RECHECK_MS) {
      // Requests that arrive together share one check.
      this.checking ??= this.refresh().finally(() => {
        this.checkedAt = this.now();
        this.checking = null;
      });
      await this.checking;
    }
  }

  /** The latest snapshot's root and this address's proof; null when it is not on it (or none exists). */
  async proof(address: string): Promise<AllowlistProof | null | 'no-snapshot'> {
    await this.checked();
    const loaded = this.loaded;
    if (!loaded) return 'no-snapshot';
    const i = loaded.index.get(address.toLowerCase());
    return i === undefined ? null : { root: loaded.root, proof: getProof(loaded.tree, i) };
  }

  /** What the route answers for this address (proof-answers.ts), after the periodic check when it is due. */
  async answer(address: string): Promise<ProofAnswer> {
    await this.checked();
    return this.answerFromLoaded(address);
  }

  /**
   * The same answer without waiting, for the fast path; undefined while the periodic check is due
   * or under way, so the caller hands the request to the route, which waits for it. Either way a
   * request is answered from the snapshot the route would answer from.
   */
  answerNow(address: string): ProofAnswer | undefined {
    return this.due() ? undefined : this.answerFromLoaded(address);
  }

  private answerFromLoaded(address: string): ProofAnswer {
    const loaded = this.loaded;
    if (!loaded) return noSnapshotAnswer;
    const key = address.toLowerCase();
    const known = loaded.answers.get(key);
    if (known) return known;
    const i = loaded.index.get(key);
    if (i === undefined) return notOnListAnswer(address);
    const answer = proofAnswer({ root: loaded.root, proof: getProof(loaded.tree, i) });
    loaded.answers.set(key, answer);
    return answer;
  }
}
