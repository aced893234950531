#!/bin/sh
# Adds to ./.env (docker compose reads it) a random value for each secret docker-compose.yml needs
# that .env does not hold yet; never changes one already there. Hex only, so each is safe inside a
# URL (EVENTSTORE_URL and REDIS_URL carry two of them). The SMS gateway's URL and key are yours to
# add: the workers need them to text codes.
set -eu
ENV_FILE=${1:-.env}
touch "$ENV_FILE"
chmod 600 "$ENV_FILE"
for name in JWT_SECRET OTP_SECRET ADMIN_PASSWORD REDIS_PASSWORD EVENTSTORE_ADMIN_PASSWORD EVENTSTORE_OPS_PASSWORD EVENTSTORE_APP_PASSWORD GRAFANA_ADMIN_PASSWORD BACKUP_ENCRYPTION_KEY; do
  if ! grep -q "^$name=" "$ENV_FILE"; then
    echo "$name=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')" >> "$ENV_FILE"
    echo "added $name to $ENV_FILE"
  fi
done
if ! grep -q '^AUDIT_SIGNING_KEY=' "$ENV_FILE"; then
  # The Ed25519 key that signs the log's checkpoints, as the base64 of its PKCS#8 DER: the fixed
  # 16-byte PKCS#8 header of an Ed25519 key, then 32 random bytes (the key itself).
  key=$( (printf '\060\056\002\001\000\060\005\006\003\053\145\160\004\042\004\040'; head -c 32 /dev/urandom) | base64 | tr -d '\n')
  echo "AUDIT_SIGNING_KEY=$key" >> "$ENV_FILE"
  echo "added AUDIT_SIGNING_KEY to $ENV_FILE (keep a copy: checkpoints it signed are checked with its public key, lending audit public-key)"
fi
grep -q '^SMS_GATEWAY_URL=' "$ENV_FILE" || echo "now add SMS_GATEWAY_URL and SMS_API_KEY (your SMS gateway) to $ENV_FILE"
