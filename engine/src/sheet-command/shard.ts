/**
 * `sheet run --shard I/N` (issue 26 item 3): the I-th of N slices of the files given, so a CI
 * matrix (GitHub Actions `strategy.matrix`, GitLab `parallel:`) spreads a suite over N jobs
 * on the CI system's own runners. The slice depends on the files' names only, never on the
 * machine: the paths relative to the current directory with `/` separators, sorted by UTF-16
 * code unit (no locale), dealt round-robin (the k-th file in that order goes to shard k mod N
 * + 1), as Playwright's `--shard` deals test files. Every file is in exactly one shard; shards
 * differ by at most one file. The files of a shard keep the order they were given in.
 */
import path from 'node:path';

/** A parsed `--shard`: `index` 1-based, 1 <= index <= count. */
export interface Shard {
  index: number;
  count: number;
}

/** `--shard I/N` -> a shard, or the usage message. */
export function parseShard(s: string): Shard | string {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) return `--shard ${s}: use I/N with 1 <= I <= N, e.g. --shard 2/4`;
  return { index, count };
}

/** A file's name for sharding: relative to `cwd`, `/`-separated. */
export function shardKey(file: string, cwd: string): string {
  return path.relative(cwd, path.resolve(cwd, file)).split(path.sep).join('/');
}

/** The files of shard `s`, in the order given. */
export function shardFiles(files: string[], s: Shard, cwd: string): string[] {
  const keys = files.map((f) => shardKey(f, cwd));
  const order = [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mine = new Set(order.filter((_, k) => k % s.count === s.index - 1));
  return files.filter((_, i) => mine.has(keys[i]!));
}
