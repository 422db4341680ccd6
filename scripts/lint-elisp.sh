#!/usr/bin/env bash
# Lint the Emacs Lisp of sheet-mode (called by scripts/lint.sh, i.e. `make lint`):
# byte-compile with warnings as errors, lines under 80 columns, checkdoc, and package-lint (Debian's elpa-package-lint
# under /usr/share/emacs/site-lisp/elpa-src/), with elisp/sheet-mode.el as the main file of the
# one package (the MELPA recipe elisp/sheet-mode.recipe). Exit 1 when any of them complains.
# test/elisp/sheet-mode-install-test.el runs this script, so `make test` checks it too.
#
# Two package-lint findings are accepted, each for a stated reason, and only on the exact line:
# - "uninstallable in all released Emacs versions" on the Package-Requires line: Debian's
#   package-lint 0.16 predates the release of Emacs 28 and says this of any (emacs "28.x");
#   28.1 is what the mode needs (jsonrpc.el as built in) and what the project requires.
# - "reserved key sequence" for C-c C-g and C-c n n: restclient.el's keys, which sheet-mode
#   keeps unchanged on purpose (docs/sheet-mode.md, "Decisions"); and for C-c C-h, the
#   response history, the key issue 25 item 5 names (C-c <f1> still lists the C-c keys).
# - "Aliases should start with the package's prefix" for restclient-get-var and
#   restclient-set-var: restclient.el's names, kept so existing sheets work (issue 9; only
#   defined when restclient.el has not defined them); and for restclient-mode, so a file whose
#   first line says -*- mode: restclient -*- opens in sheet-mode (only when restclient.el is
#   not installed; docs/sheet-mode.md, "Lisp").
# Anything else package-lint reports fails the lint.
set -u
cd "$(dirname "$0")/.." || exit 1
emacs=${EMACS:-emacs}
files=(elisp/*.el)
rc=0
out=$(mktemp -d "${TMPDIR:-/tmp}/lint-elisp.XXXXXX")
trap 'rm -rf "$out"' EXIT

printf -- '-- byte-compile (warnings are errors)\n'
cp "${files[@]}" "$out/"
"$emacs" --batch -Q -L "$out" \
  --eval '(setq byte-compile-error-on-warn t)' \
  -f batch-byte-compile "$out"/*.el || rc=1

printf -- '-- lines under 80 columns\n'
awk 'length > 79 { printf "%s:%d: %d columns (at most 79)\n", FILENAME, FNR, length; bad = 1 }
     END { exit bad }' "${files[@]}" || rc=1

printf -- '-- checkdoc\n'
"$emacs" --batch -Q -L elisp --eval '
(progn
  (require (quote checkdoc))
  (let ((bad 0))
    (dolist (file command-line-args-left)
      (with-current-buffer (find-file-noselect file)
        (checkdoc-current-buffer t))
      (with-current-buffer (get-buffer-create checkdoc-diagnostic-buffer)
        (goto-char (point-min))
        (while (re-search-forward "^[^ \n*].*:[0-9]+: .*$" nil t)
          (setq bad (1+ bad))
          (message "%s" (match-string 0)))
        (let ((inhibit-read-only t)) (erase-buffer))))
    (setq command-line-args-left nil)
    (kill-emacs (if (zerop bad) 0 1))))' "${files[@]}" || rc=1

printf -- '-- package-lint\n'
pl_dir=$(find /usr/share/emacs/site-lisp/elpa-src -maxdepth 1 -type d -name 'package-lint-[0-9]*' | sort | tail -n 1)
if [ -z "$pl_dir" ]; then
  printf 'package-lint is not installed (apt-get install elpa-package-lint)\n' >&2
  rc=1
else
  "$emacs" --batch -Q -L "$pl_dir" --eval '
(progn
  (require (quote package-lint))
  (package-initialize)
  (let ((bad 0)
        ;; One package, sheet-mode (elisp/sheet-mode.recipe): the other
        ;; files take its prefix and dependencies and carry no
        ;; Package-Requires of their own.
        (package-lint-main-file (expand-file-name "elisp/sheet-mode.el")))
    (dolist (file command-line-args-left)
      (with-current-buffer (find-file-noselect file)
        (pcase-dolist (`(,line ,col ,type ,msg) (package-lint-buffer))
          (let ((text (save-excursion
                        (goto-char (point-min))
                        (forward-line (1- line))
                        (buffer-substring-no-properties (line-beginning-position) (line-end-position)))))
            (unless (or (and (string-match-p "uninstallable in all released Emacs versions" msg)
                             (string-match-p "^;; Package-Requires: ((emacs \"28\\.1\"))$" text))
                        (and (string-match-p "Aliases should start with the package" msg)
                             (string-match-p "(defalias (quote restclient-\\([gs]et-var\\|mode\\))\\|(defalias .restclient-\\([gs]et-var\\|mode\\) " text))
                        (and (string-match-p "key sequence is reserved" msg)
                             (string-match-p "(kbd \"\\(C-c C-g\\|C-c n n\\|C-c C-h\\)\")" text)))
              (setq bad (1+ bad))
              (message "%s:%d:%d: %s: %s" file line col type msg))))))
    (setq command-line-args-left nil)
    (kill-emacs (if (zerop bad) 0 1))))' "${files[@]}" || rc=1
fi

[ "$rc" = 0 ] && printf 'elisp: clean\n'
exit "$rc"
