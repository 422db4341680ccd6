// What the bundles get for `ws`'s optional native add-ons, `bufferutil` and `utf-8-validate`
// (Makefile: esbuild --alias): a module that fails to load, so `ws` takes its own JavaScript
// code, as it does when they are not installed, and the bundles require only Node built-ins
// (test/engine/npm-package.test.ts).
throw new Error('not bundled: ws uses its JavaScript fallback');
