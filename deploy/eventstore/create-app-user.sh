#!/bin/sh
# Run once by the `eventstore-users` service of docker-compose.yml (image curlimages/curl), after
# the three nodes answer: makes sure the `honeylend` user the roles connect as (EVENTSTORE_URL)
# exists with EVENTSTORE_APP_PASSWORD, creating it or resetting its password.
#
# It is in the $admins group because the roles read $all (the projections follow it; the api
# reports projection lag from its head), which a secure EventStoreDB allows only to admins.
# EVENTSTORE_ADMIN_PASSWORD (the built-in admin's, set on the nodes' first start) is used only
# here, never by the roles.
set -eu

: "${EVENTSTORE_ADMIN_PASSWORD:?}"
: "${EVENTSTORE_APP_PASSWORD:?}"
CA=/certs/ca/ca.crt
USER_JSON=$(printf '{"loginName":"honeylend","fullName":"Honeylend roles","groups":["$admins"],"password":"%s"}' "$EVENTSTORE_APP_PASSWORD")
RESET_JSON=$(printf '{"newPassword":"%s"}' "$EVENTSTORE_APP_PASSWORD")

call() { # method url [body] -> prints the HTTP status
  curl -sS -o /dev/null -w '%{http_code}' --cacert "$CA" -u "admin:$EVENTSTORE_ADMIN_PASSWORD" \
    -H 'Content-Type: application/json' -X "$1" ${3:+-d "$3"} "$2"
}

# Any node will do, but a follower may still be joining: try each until one answers.
for attempt in 1 2 3 4 5 6 7 8 9 10; do
  for node in eventstore-1 eventstore-2 eventstore-3; do
    base="https://$node:2113"
    existing=$(call GET "$base/users/honeylend" || echo 000)
    case "$existing" in
      200) status=$(call POST "$base/users/honeylend/command/reset-password" "$RESET_JSON" || echo 000) ;;
      404) status=$(call POST "$base/users/" "$USER_JSON" || echo 000) ;;
      401) echo "EventStoreDB refused the admin password: EVENTSTORE_ADMIN_PASSWORD must be the one the nodes first started with" >&2; exit 1 ;;
      *) status=$existing ;;
    esac
    case "$status" in
      200 | 201) echo "EventStoreDB user honeylend ready (via $node)"; exit 0 ;;
    esac
  done
  sleep 3
done
echo "could not create the EventStoreDB user honeylend (last answer: $status)" >&2
exit 1
