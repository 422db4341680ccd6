;;; sheet-settings.el --- Engine settings  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The sheet-rest authors

;; Author: The sheet-rest authors
;; Maintainer: The sheet-rest authors
;; Version: 0.1.0
;; URL: https://github.com/sheet-rest/sheet-rest
;; Keywords: comm, tools

;; This file is not part of GNU Emacs.

;; Permission is hereby granted, free of charge, to any person
;; obtaining a copy of this software and associated documentation
;; files, to deal in the software without restriction, subject to the
;; MIT license terms shipped with sheet-rest (LICENSE).

;;; Commentary:

;; The engine's `Settings' (docs/protocol.md) from the current
;; buffer's values of sheet-mode's options, and of restclient.el's
;; `url-max-redirections' when a sheet sets it: sent in `initialize'
;; and with every request, so buffer-local values work.  Loaded by
;; sheet-engine.el.

;;; Code:

(require 'sheet-custom)
(require 'sheet-session)

(defun sheet-engine--jar-setting ()
  "`sheet-cookie-jar-file', expanded, else the session's cookie file.
The latter (`sheet-session-cookie-file') keeps the session's cookies
across engine restarts."
  (if sheet-cookie-jar-file
      (expand-file-name sheet-cookie-jar-file)
    (sheet-session-cookie-file)))

(defvar url-max-redirections)

(defun sheet-engine--redirect-settings ()
  "The redirect settings from the current buffer's values.
`sheet-follow-redirects', then restclient.el's `url-max-redirections'
\(url.el's) when a sheet set it away from its default, 30: 0
shows the redirect response as restclient.el does, N follows at
most N redirects."
  (let ((limit (and (boundp 'url-max-redirections)
                    (natnump url-max-redirections)
                    (/= url-max-redirections 30)
                    url-max-redirections)))
    (cond ((or (not sheet-follow-redirects) (eql limit 0))
           (list :followRedirects :json-false))
          (limit (list :followRedirects t :maxRedirects limit))
          (t (list :followRedirects t)))))

(defvar url-proxy-services)

(defun sheet-engine--proxy ()
  "The engine's `proxy' setting from url.el's `url-proxy-services', or nil.
When the user set an \"http\" or \"https\" entry (restclient.el
users have, since url.el reads it), those proxies are sent with the
\"no_proxy\" entry, an Emacs regexp, and the engine reads no proxy
variable.  Otherwise nil: the engine reads `http_proxy', `https_proxy',
`ALL_PROXY' and `NO_PROXY' of its environment, by curl's rules (see
docs/networks.md)."
  (let* ((services (and (boundp 'url-proxy-services) url-proxy-services))
         (http (cdr (assoc "http" services)))
         (https (cdr (assoc "https" services)))
         (no-proxy (cdr (assoc "no_proxy" services))))
    (when (or http https)
      (append (and http (list :http http))
              (and https (list :https https))
              (and no-proxy (list :noProxyRegexp no-proxy))))))

(defun sheet-engine--client-certificates ()
  "The engine's `clientCertificates' setting from `sheet-client-certificates'.
A hash table of host to (:cert FILE :key FILE :pass STRING) with the
files expanded, or nil when there are none."
  (when sheet-client-certificates
    (let ((table (make-hash-table :test #'equal)))
      (dolist (entry sheet-client-certificates table)
        (let ((cert (plist-get (cdr entry) :cert))
              (key (plist-get (cdr entry) :key))
              (pass (plist-get (cdr entry) :pass)))
          (unless (stringp cert)
            (user-error
             "The `sheet-client-certificates' entry for %s has no :cert"
             (car entry)))
          (puthash (car entry)
                   (append (list :cert (expand-file-name cert))
                           (and key (list :key (expand-file-name key)))
                           (and pass (list :pass pass)))
                   table))))))

(defun sheet-engine--settings ()
  "The engine settings from the current buffer's values of the options."
  (append
   (list :proxy (sheet-engine--proxy)
         :caFile (and sheet-ca-file (expand-file-name sheet-ca-file))
         :clientCertificates (sheet-engine--client-certificates)
         :http2 (if sheet-http2 t :json-false)
         :netrc (cond ((eq sheet-netrc t) "~/.netrc")
                      ((stringp sheet-netrc) (expand-file-name sheet-netrc)))
         :maxPasses sheet-vars-max-passes
         :threshold sheet-response-size-threshold
         :inhibitCookies (if sheet-inhibit-cookies t :json-false)
         :timeoutMs (if sheet-timeout
                        (max 1 (round (* 1000 sheet-timeout)))
                      0)
         :cookieJarFile (sheet-engine--jar-setting)
         :userAgent (if (stringp sheet-user-agent)
                        sheet-user-agent
                      (and sheet-user-agent
                           (concat "sheet-rest/" sheet-version))))
   (sheet-engine--redirect-settings)))

(provide 'sheet-settings)
;;; sheet-settings.el ends here
