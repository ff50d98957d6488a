#!/usr/bin/env bash
# The RabbitMQ probe reads a queue's type and arguments from the management
# HTTP API (AMQP does not show them); tests/probe_brokers.rs needs it on
# 127.0.0.1:15672. Enabling the bundled plugin is the standard CI setup for a
# RabbitMQ service; it is idempotent (an enabled plugin stays as it is).
set -uo pipefail

if curl -fsS -o /dev/null -u guest:guest http://127.0.0.1:15672/api/overview 2>/dev/null; then
    exit 0
fi
if ! command -v rabbitmq-plugins >/dev/null 2>&1; then
    echo "rabbitmq-plugins not found: the RabbitMQ management tests will say what is missing"
    exit 0
fi
echo "== enabling rabbitmq_management for the RabbitMQ probe tests"
rabbitmq-plugins enable rabbitmq_management >/dev/null \
    || echo "could not enable rabbitmq_management: the RabbitMQ management tests will say so"
for _ in $(seq 1 30); do
    curl -fsS -o /dev/null -u guest:guest http://127.0.0.1:15672/api/overview 2>/dev/null && exit 0
    sleep 1
done
echo "the management API does not answer on 127.0.0.1:15672 yet"
exit 0
