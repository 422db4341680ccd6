import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Evaluate angular.js and angular-mocks.js in the jsdom window (as <script> tags would). */
export function loadAngular(angularPkg: string, mocksPkg: string): void {
  const w = window as any;
  const run = (file: string) => {
    const src = fs.readFileSync(file, 'utf8');
    // Indirect eval in the window's global scope: `window`, `document` are jsdom's.
    new Function('window', 'document', src).call(w, w, w.document);
  };
  run(require.resolve(`${angularPkg}/angular.js`));
  run(require.resolve(`${mocksPkg}/angular-mocks.js`));
  w.__angularPkg = angularPkg;
}
