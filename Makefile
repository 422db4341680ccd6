# Entry points people type. Each target installs what it needs first (scripts/ensure-deps.sh).
SHELL := /bin/bash
export NODE_JQ_SKIP_INSTALL_BINARY := true
NODE_BIN := node_modules/.bin
ENGINE := engine/dist/engine.cjs
EMACS ?= emacs

.PHONY: all deps build build-engine build-client-lib test check demo emacs lint bench clean

all: build

deps:
	@scripts/ensure-deps.sh all

## build: type-check the engine and bundle it into one file that starts fast; build the client library.
build:
	@scripts/ensure-deps.sh npm
	@$(MAKE) --no-print-directory build-engine build-client-lib

# ws's optional native add-ons: a module that fails to load (ws then uses its own JavaScript).
WS_NATIVE = --alias:bufferutil=./engine/src/ws/optional-native.cjs --alias:utf-8-validate=./engine/src/ws/optional-native.cjs

build-engine:
	$(NODE_BIN)/tsc -p engine/tsconfig.json --noEmit
	$(NODE_BIN)/esbuild engine/src/main.ts --bundle --platform=node --target=node20 --format=cjs $(WS_NATIVE) \
	  --outfile=$(ENGINE) --log-level=warning --legal-comments=none
	$(NODE_BIN)/esbuild engine/src/shell-verbs/entry.ts --bundle --platform=node --target=node20 --format=cjs $(WS_NATIVE) --outfile=engine/dist/rest-cli.cjs --log-level=warning --legal-comments=none
	$(NODE_BIN)/esbuild engine/src/sheet-command/entry.ts --bundle --platform=node --target=node20 --format=cjs $(WS_NATIVE) --outfile=engine/dist/sheet.cjs --log-level=warning --legal-comments=none
	$(NODE_BIN)/esbuild engine/src/sheet-command/import-cli.ts --bundle --platform=node --target=node20 --format=cjs $(WS_NATIVE) --outfile=engine/dist/convert.cjs --log-level=warning --legal-comments=none
	$(NODE_BIN)/esbuild engine/src/sheet-command/shell-path-entry.ts --bundle --platform=node --target=node20 --format=cjs --outfile=engine/dist/shell-path.cjs --log-level=warning --legal-comments=none
	node scripts/ascii-bundle.mjs $(ENGINE) engine/dist/rest-cli.cjs engine/dist/sheet.cjs engine/dist/convert.cjs engine/dist/shell-path.cjs

build-client-lib:
	npm run --silent --if-present build -w client-lib

## test: every suite (vitest, ERT, bats); ends with "N passed, N failed".
test:
	@scripts/ensure-deps.sh all
	@$(MAKE) --no-print-directory build
	@node test/run.mjs

## check: the loop after each edit: type-check, lint and the unit tests that start nothing (test/check.mjs), side by side.
check:
	@scripts/ensure-deps.sh all
	@node test/check.mjs

## demo: start the example API, run every request of examples/demo.sheet through Emacs.
demo:
	@scripts/ensure-deps.sh emacs
	@$(MAKE) --no-print-directory build
	@examples/run-demo.sh

## emacs: the example API and an interactive Emacs on the example sheet.
emacs:
	@scripts/ensure-deps.sh emacs
	@$(MAKE) --no-print-directory build
	@examples/run-emacs.sh

## lint: byte-compile/checkdoc/package-lint the elisp, shellcheck and zsh -n the shell file.
lint:
	@scripts/ensure-deps.sh all
	@scripts/lint.sh

## bench: every benchmark; results in docs/benchmarks.md.
bench:
	@scripts/ensure-deps.sh all
	@$(MAKE) --no-print-directory build
	@node test/bench/run.mjs

clean:
	rm -rf engine/dist client-lib/dist
