package watch

const watchHelp = `Watch the store and turn what changes into events: a long-running process
that brings the mirror up to date every --every (default 1m) with the same
incremental sync as mirror sync, and delivers an event for each change, in
order, at least once, each with a stable id.

Events (their names and shape are a contract; docs/watch.md has them all):
  submission.created   submission.sent     submission.opened
  submission.clicked   submission.gone     rule.created
  rule.deleted         rule.started        rule.ended
  offer.changed        demand.threshold (from --alert)
Each is one JSON object: {"id", "type", "occurred_at", "detected_at",
"profile", "store", "data"}, data being the row as the API sent it.
submission.opened and submission.clicked need --details: the list does not
show them, so each cycle also re-reads the details mirror sync --details
would (paced within --share, ending by the next cycle).

Where they go: stdout, one a line (NDJSON), by default; --forward-to URL
POSTs each, signed with the secret of --secret or STORECTL_WEBHOOK_SECRET
(header Storectl-Signature: t=UNIX,v1=HMAC-SHA256 of "t.body");
--exec CMD runs a shell command per event with its JSON on stdin. A failed
delivery is retried with backoff for --retry-for (default 1h), then parked:
storectl watch events --failed lists those, storectl watch events resend
sends them again. A receiver answering 410 Gone stops the watch.

Nothing is lost: events are written to the mirror's outbox in the same
transaction as the page that showed the change, and marked once delivered;
a watch killed at any instant delivers what was pending when started again.
The first watch of a mirror takes it as it stands (no history) unless
--since DATE asks for the changes since then.

It runs as a service: one watch per profile; SIGTERM or Ctrl-C stops it
cleanly after the event in flight (exit 0); --all-profiles watches every
store at once; --debug adds a heartbeat line per cycle. It uses --share
(default 80%) of the token's request budget, so commands run beside it are
never starved. While it runs it keeps the mirror: bis find and the other
answers read it as it is, mirror sync waits for it.`
