#!/usr/bin/env bash
# Run once by the `eventstore-certs` service of docker-compose.yml (image eventstore/es-gencert-cli):
# a certificate authority and one certificate per EventStoreDB node, kept in the `eventstore-certs`
# volume across restarts (made only when missing), and the CA's public certificate alone in the
# `eventstore-ca` volume for the roles, which need it to trust the nodes and nothing more.
set -euo pipefail

cd /certs
if [ ! -f ca/ca.crt ]; then
  es-gencert-cli create-ca -out ./ca
fi
for n in 1 2 3; do
  if [ ! -f "node$n/node.crt" ]; then
    es-gencert-cli create-node -ca-certificate ./ca/ca.crt -ca-key ./ca/ca.key -out "./node$n" \
      -ip-addresses "127.0.0.1,172.28.0.1$n" -dns-names "eventstore-$n,localhost"
  fi
done

# EventStoreDB runs as uid 1000 and reads its node's key; the CA key stays root's alone.
chown -R 1000:1000 /certs
chown root:root ca/ca.key
chmod 600 ca/ca.key node*/node.key
chmod 644 ca/ca.crt node*/node.crt

cp ca/ca.crt /ca/ca.crt
chmod 644 /ca/ca.crt
echo "EventStoreDB certificates ready"
