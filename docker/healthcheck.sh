#!/bin/sh
# Docker HEALTHCHECK of the Keyright Seats image: healthy when the application itself answers
# GET /.well-known/jwks.json with 200 (a failed deployment leaves Payara Micro answering 404 on the port).
# That is liveness. KEYRIGHT_HEALTH_PATH=/v1/health makes it readiness instead (503 while the database is
# unreachable): right for a load balancer, but then a database outage marks every node unhealthy.
# Uses curl when the image has it, else bash's /dev/tcp, else a Java single-file program: no extra packages.
set -u
URL_PATH=${KEYRIGHT_HEALTH_PATH:-/.well-known/jwks.json}
PORT=${KEYRIGHT_HEALTH_PORT:-8080}
if command -v curl >/dev/null 2>&1; then
    exec curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:$PORT$URL_PATH"
fi
if command -v bash >/dev/null 2>&1; then
    # shellcheck disable=SC2016
    exec bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
        printf "GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n" "$2" >&3
        IFS=" " read -r _ status _ <&3 && [ "$status" = 200 ]' healthcheck "$PORT" "$URL_PATH"
fi
exec java "${KEYRIGHT_HOME:-/opt/payara}/HealthCheck.java" "http://127.0.0.1:$PORT$URL_PATH"
