import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(__dirname, '../../..');

/**
 * The built package as a user installs it: `npm pack` of client-lib (dist/ must be built: `make
 * build`), extracted into `<temp dir>/node_modules/angular-client-rest` as `npm install
 * <tarball>` lays it out, beside the packages named in `beside` (linked from the repository's
 * node_modules, so nothing is downloaded). Projects made in the temp directory resolve both.
 * @returns the temp directory and `remove()`, which deletes it.
 * @throws when npm pack or tar fails (their stderr in the message).
 */
export function installPacked(beside: string[]): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-lib-packed-'));
  const packed = spawnSync('npm', ['pack', './client-lib', '--pack-destination', dir, '--ignore-scripts', '--json'], { cwd: root, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack client-lib failed: ${packed.stderr}`);
  const tarball = path.join(dir, JSON.parse(packed.stdout)[0].filename);
  const installed = path.join(dir, 'node_modules/angular-client-rest');
  fs.mkdirSync(installed, { recursive: true });
  const tar = spawnSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar -xzf ${tarball} failed: ${tar.stderr}`);
  for (const name of beside) fs.symlinkSync(path.join(root, 'node_modules', name), path.join(dir, 'node_modules', name), 'dir');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
