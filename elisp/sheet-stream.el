;;; sheet-stream.el --- Live streams  -*- lexical-binding: t; -*-

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

;; A response whose body arrives over time (Server-Sent Events,
;; NDJSON, a chunked body read with `# @accept chunked') comes from the
;; engine as `sheet/streamEvents' notifications before `sheet/send'
;; answers (docs/protocol.md).  Each notification's events are queued;
;; they are inserted at the end of the response buffer at most every
;; `sheet-stream-flush-interval' seconds, so that a fast stream costs
;; one insertion per interval, not one per event.  A window whose point
;; was at the end stays at the end.  The mode line says how many events
;; came and since when.  Past `sheet-stream-max-chars' the oldest text
;; is cut from the head, and the first line says so.  While a stream
;; is shown `gc-cons-threshold' is raised (`sheet-stream-gc-cons-threshold'):
;; the collections of the whole heap a fast stream would set off every
;; few hundred events were the long busy stretches; Emacs collects once
;; idle after the last stream.
;;
;; When the stream ends the engine's answer fills the buffer as any
;; response (the kept events, then the trailer saying how it ended:
;; server closed, timed out, connection cut).  `sheet-cancel' (C-c C-k)
;; keeps what arrived and adds a trailer line saying so.
;;
;; A gRPC server-streaming or bidirectional call comes the same way:
;; each response message is an event, pretty JSON, and the mode line
;; and the trailer count messages; its answer is the array of the
;; messages with the gRPC status in the trailer.

;;; Code:

(require 'seq)
(require 'subr-x)
(require 'sheet-custom)
(require 'sheet-engine)
(require 'sheet-response)

(defvar sheet--sends)

(defvar sheet--streams (make-hash-table :test 'equal)
  "The streams being shown, by the context of their send.
Each value is a plist: :buffer, :pending (the batches' texts, newest first),
:count and :elapsed (the engine's, in ms), :timer (the next
insertion), :last (`float-time' of the last insertion), :cut
\(characters cut from the head so far), :unit (\"event\", or
\"message\" for a gRPC call's stream).")

(defun sheet-stream--send (context)
  "The plist of the send in flight whose context is CONTEXT, or nil."
  (catch 'found
    (maphash (lambda (_id send)
               (when (equal (plist-get send :context) context)
                 (throw 'found send)))
             sheet--sends)
    nil))

(defun sheet-stream--open (context send params)
  "Start showing the stream of SEND (for CONTEXT); PARAMS has its head."
  (let* ((head (plist-get params :head))
         (buf (sheet--response-buffer (or (plist-get head :method) "GET")
                                      (or (plist-get head :url) ""))))
    (with-current-buffer buf
      (setq-local mode-line-process nil))
    (pcase (plist-get send :display)
      ('select (pop-to-buffer buf))
      ('stay (display-buffer buf t)))
    (sheet-stream--gc-raise)
    (puthash context (list :buffer buf :pending nil :count 0 :elapsed 0
                           :timer nil :last 0 :cut 0
                           ;; A gRPC call's stream is of messages.
                           :unit (if (equal (plist-get head :method) "GRPC")
                                     "message"
                                   "event"))
             sheet--streams)))

(defvar sheet-stream--gc-saved nil
  "The `gc-cons-threshold' a stream raised, to give back; nil: not raised.")

(defvar sheet-stream--gc-timer nil
  "The idle timer that gives the threshold back and collects.")

(defun sheet-stream--gc-raise ()
  "Raise `gc-cons-threshold' while a stream is shown.
To `sheet-stream-gc-cons-threshold', unless it is higher already."
  (when sheet-stream--gc-timer
    (cancel-timer sheet-stream--gc-timer)
    (setq sheet-stream--gc-timer nil))
  (when (and sheet-stream-gc-cons-threshold
             (< gc-cons-threshold sheet-stream-gc-cons-threshold))
    (unless sheet-stream--gc-saved
      (setq sheet-stream--gc-saved gc-cons-threshold))
    (setq gc-cons-threshold sheet-stream-gc-cons-threshold)))

(defun sheet-stream--gc-lower ()
  "Once Emacs is idle and no stream is shown: give the threshold back, collect.
A threshold the user changed meanwhile is left as it is."
  (when (and sheet-stream--gc-saved (null sheet-stream--gc-timer))
    (setq sheet-stream--gc-timer
          (run-with-idle-timer sheet-stream-gc-idle-delay nil
                               #'sheet-stream--gc-restore))))

(defun sheet-stream--gc-restore ()
  "Give `gc-cons-threshold' back and collect, if no stream is shown."
  (setq sheet-stream--gc-timer nil)
  (when (and sheet-stream--gc-saved
             (zerop (hash-table-count sheet--streams)))
    (when (eql gc-cons-threshold sheet-stream-gc-cons-threshold)
      (setq gc-cons-threshold sheet-stream--gc-saved))
    (setq sheet-stream--gc-saved nil)
    (garbage-collect)))

(defun sheet-stream--events (params)
  "Queue the events of a `sheet/streamEvents' notification PARAMS."
  (let* ((context (plist-get params :context))
         (send (sheet-stream--send context))
         (stream (and send (or (gethash context sheet--streams)
                               (sheet-stream--open context send params)))))
    (when stream
      (let ((text (plist-get params :text)))
        (unless (equal text "")
          (plist-put stream :pending (cons text (plist-get stream :pending)))))
      (plist-put stream :count (plist-get params :count))
      (plist-put stream :elapsed (plist-get params :elapsedMs))
      (unless (plist-get stream :timer)
        ;; The first events after a quiet spell go in at once (latency);
        ;; a burst waits for the interval and goes in together.
        (let ((wait (- (+ (plist-get stream :last) sheet-stream-flush-interval)
                       (float-time))))
          ;; From a timer, never in the process filter: reading the
          ;; engine and inserting are two short busy stretches, not one.
          (plist-put stream :timer
                     (run-at-time (max wait 0) nil #'sheet-stream--flush
                                  context)))))))

(setq sheet-engine--stream-function #'sheet-stream--events)

(defconst sheet-stream--flush-chars 65536
  "Most characters one insertion takes; the rest waits for the next.
A backlog (Emacs was busy, the stream is fast) goes in by parts, with
input read between them.")

(defun sheet-stream--take (stream)
  "The oldest queued texts of STREAM, up to `sheet-stream--flush-chars'.
The others stay queued."
  (let ((texts (nreverse (plist-get stream :pending)))
        (size 0)
        taken)
    (while (and texts (or (null taken)
                          (< (+ size (length (car texts)))
                             sheet-stream--flush-chars)))
      (setq size (+ size (length (car texts))))
      (push (pop texts) taken))
    (plist-put stream :pending (nreverse texts))
    (nreverse taken)))

(defun sheet-stream--flush (context)
  "Insert the queued events of the stream of CONTEXT."
  (let ((stream (gethash context sheet--streams)))
    (when stream
      (plist-put stream :timer nil)
      (plist-put stream :last (float-time))
      (let ((buf (plist-get stream :buffer))
            (texts (sheet-stream--take stream)))
        (when (plist-get stream :pending)
          (plist-put stream :timer
                     (run-at-time 0 nil #'sheet-stream--flush context)))
        (when (buffer-live-p buf)
          (with-current-buffer buf
            (let* ((inhibit-read-only t)
                   (end (point-max))
                   (at-end (seq-filter (lambda (w) (= (window-point w) end))
                                       (get-buffer-window-list buf nil t)))
                   (point-at-end (= (point) end)))
              (save-excursion
                (goto-char (point-max))
                (dolist (text texts)
                  (insert text)))
              (sheet-stream--trim stream)
              (when point-at-end (goto-char (point-max)))
              (dolist (w at-end) (set-window-point w (point-max))))
            (setq mode-line-process
                  (format " [%d %s%s, %.1fs]" (plist-get stream :count)
                          (plist-get stream :unit)
                          (if (eql (plist-get stream :count) 1) "" "s")
                          (/ (plist-get stream :elapsed) 1000.0)))
            (force-mode-line-update)))))))

(defun sheet-stream--trim (stream)
  "Cut the oldest text of STREAM's buffer, the current one, past the bound.
The bound is `sheet-stream-max-chars'; the first line says how much
was cut."
  (when (and sheet-stream-max-chars
             (> (buffer-size) sheet-stream-max-chars))
    (goto-char (point-min))
    (when (> (plist-get stream :cut) 0)
      (delete-region (point) (line-beginning-position 2)))
    (let ((excess (- (buffer-size) sheet-stream-max-chars)))
      (goto-char (min (point-max) (+ (point-min) excess)))
      (forward-line 1)
      (plist-put stream :cut (+ (plist-get stream :cut)
                                (- (point) (point-min))))
      (delete-region (point-min) (point))
      (goto-char (point-min))
      (insert (format "[%d characters of older events cut: \
sheet-stream-max-chars is %d]\n"
                      (plist-get stream :cut) sheet-stream-max-chars)))))

(defvar sheet-stream--followed nil
  "The buffer of the stream that ended last, when point was at its end.")

(defun sheet-stream-end (context &optional answered)
  "The stream of CONTEXT ended: insert what is queued and forget it.
With ANSWERED non-nil the engine's answer, which fills the buffer
again, follows: what is queued is dropped instead.  Return the
stream's buffer, or nil if no stream was shown for CONTEXT."
  (let ((stream (gethash context sheet--streams)))
    (when stream
      (when answered (plist-put stream :pending nil))
      (while (plist-get stream :timer)
        (cancel-timer (plist-get stream :timer))
        (sheet-stream--flush context))
      (remhash context sheet--streams)
      (sheet-stream--gc-lower)
      (let ((buf (plist-get stream :buffer)))
        (when (buffer-live-p buf)
          (with-current-buffer buf
            (setq mode-line-process nil)
            (let ((windows (get-buffer-window-list buf nil t)))
              (setq sheet-stream--followed
                    (and (if windows
                             (seq-some (lambda (w)
                                         (= (window-point w) (point-max)))
                                       windows)
                           (= (point) (point-max)))
                         buf))))
          buf)))))

(defun sheet-stream-finish (stream-buffer buffer)
  "After the answer of a stream shown in STREAM-BUFFER filled BUFFER.
When point was at the end of the stream, it goes to the end of the
answer (the trailer), in the buffer and its windows."
  (when (and stream-buffer (eq buffer stream-buffer)
             (eq sheet-stream--followed stream-buffer)
             (buffer-live-p buffer))
    (with-current-buffer buffer
      (goto-char (point-max))
      (dolist (w (get-buffer-window-list buffer nil t))
        (set-window-point w (point-max)))))
  (setq sheet-stream--followed nil)
  buffer)

(defun sheet-stream-cancelled (context)
  "The user cancelled the send of CONTEXT: keep its events, say so.
A trailer line gives the number of events and the time; the buffer
is left editable, as a finished response is."
  (let* ((stream (gethash context sheet--streams))
         (count (and stream (plist-get stream :count)))
         (unit (and stream (plist-get stream :unit)))
         (elapsed (and stream (plist-get stream :elapsed)))
         (buf (sheet-stream-end context)))
    (when buf
      (with-current-buffer buf
        (let ((inhibit-read-only t)
              (at-end (= (point) (point-max))))
          (save-excursion
            (goto-char (point-max))
            (insert (format "# stream: %d %s%s, cancelled after %.1f s\n"
                            count unit (if (eql count 1) "" "s")
                            (/ elapsed 1000.0))))
          (when at-end (goto-char (point-max)))
          (setq buffer-read-only nil))))))

(provide 'sheet-stream)
;;; sheet-stream.el ends here
