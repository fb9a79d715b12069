#!/usr/bin/env bash
# Checks docker/ without a Docker engine (none runs here):
#   1. compose.yaml is valid for Debian's docker-compose (`config -q`), refuses to start without the
#      secrets, and wires what it must (db healthcheck, depends_on service_healthy, volumes, env vars).
#   2. The Dockerfile passes two linters from npm (dockerfile-utils, dockerfilelint), builds on
#      payara/micro of the pom's Payara version, runs as non-root, copies files that exist, and its
#      driver version is the pom's.
#   3. entrypoint.sh and healthcheck.sh pass shellcheck.
#   4. The image's runtime, simulated: the files laid out as the Dockerfile's COPY lines put them (under a
#      temp dir instead of /opt/payara), entrypoint.sh starts Payara Micro on MariaDB (env as in
#      compose.yaml), healthcheck.sh reports healthy by each of its three methods (curl, bash, java) and
#      unhealthy on a dead port, and the seat lifecycle passes; then once more without KEYRIGHT_DB_URL
#      (the embedded default). Loopback only, bounded in time, cleaned up.
# Installs docker-compose, shellcheck (Debian) and the npm linters (into target/docker-verify) if missing.
#   docker/verify.sh             all checks, about 2-3 minutes on 2 cores
#   docker/verify.sh --static    steps 1-3 only, about 10 seconds once the tools are installed
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../.ci/deploy-lib.sh
source "$ROOT/.ci/deploy-lib.sh"
STARTED=$SECONDS
STATIC=0
[ "${1:-}" = --static ] && STATIC=1
cd "$ROOT"

WORK=$(mktemp -d /tmp/keyright-docker-verify.XXXXXX)
DB="keyright_deploy_docker_$$"
DB_USER="kr_docker_$$"
PGID=""
cleanup() {
    local rc=$?
    [ -n "$PGID" ] && stop_group "$PGID"
    [ "$STATIC" = 1 ] || drop_database "$DB" "$DB_USER"
    if [ "$rc" -ne 0 ] && [ -f "$WORK/server.log" ]; then
        echo "--- last 30 lines of the server log:" >&2; tail -n 30 "$WORK/server.log" | cut -c1-400 >&2
    fi
    rm -rf "$WORK"
    log "docker/verify.sh: $([ "$rc" -eq 0 ] && echo PASSED || echo FAILED) in $((SECONDS - STARTED)) s"
}
trap cleanup EXIT

# --- tools ----------------------------------------------------------------------------------------------
apt_install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null 2>&1 || {
        apt-get update -q >/dev/null 2>&1
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null; }
}
command -v docker-compose >/dev/null || { log "installing docker-compose (Debian)"; apt_install docker-compose; }
command -v shellcheck >/dev/null || { log "installing shellcheck (Debian)"; apt_install shellcheck; }
TOOLS="$ROOT/target/docker-verify"
if [ ! -x "$TOOLS/node_modules/.bin/dockerfilelint" ] || [ ! -x "$TOOLS/node_modules/.bin/dockerfile-utils" ]; then
    log "installing dockerfilelint and dockerfile-utils (npm) into target/docker-verify"
    mkdir -p "$TOOLS"
    (cd "$TOOLS" && npm install --no-audit --no-fund --loglevel=error dockerfilelint@1.8.0 dockerfile-utils@0.16.3 >/dev/null)
fi

# --- 1. compose.yaml ------------------------------------------------------------------------------------
COMPOSE=(docker-compose --env-file docker/env.example -f docker/compose.yaml)
"${COMPOSE[@]}" config -q || die "compose.yaml: docker-compose config -q failed"
"${COMPOSE[@]}" config > "$WORK/compose.resolved.yaml"
if env -i PATH="$PATH" HOME="$HOME" docker-compose -f docker/compose.yaml config -q > "$WORK/nosecrets.txt" 2>&1; then
    die "compose.yaml: accepted without KEYRIGHT_DB_PASSWORD / KEYRIGHT_ADMIN_PASSWORD / KEYRIGHT_KEY_SECRET"
fi
grep -q "set KEYRIGHT_.* in docker/.env" "$WORK/nosecrets.txt" || die "compose.yaml: no clear message for missing secrets: $(cat "$WORK/nosecrets.txt")"
RESOLVED=$(python3 -c 'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' "$WORK/compose.resolved.yaml" 2>/dev/null) \
    || RESOLVED=$(/usr/bin/python3 -c 'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' "$WORK/compose.resolved.yaml")
check() { jq -e "$1" <<< "$RESOLVED" >/dev/null || die "compose.yaml: $2"; }
check '.services.seats.depends_on.db.condition == "service_healthy"' "seats must depend on db being healthy"
check '.services.db.healthcheck.test | index("healthcheck.sh") != null' "db has no healthcheck"
check '.services.db.volumes | any(test("^db-data:/var/lib/mysql"))' "db data is not on a named volume"
check '.volumes | has("db-data")' "volume db-data is not declared"
check '.services.seats.environment.KEYRIGHT_DB_URL | startswith("jdbc:mariadb://db:3306/")' "KEYRIGHT_DB_URL does not point at the db service"
check '.services.seats.environment.KEYRIGHT_DB_PASSWORD == .services.db.environment.MARIADB_PASSWORD' "the app and the db disagree on the password"
check '.services.seats.environment.KEYRIGHT_DB_USER == .services.db.environment.MARIADB_USER' "the app and the db disagree on the user"
check '[.services.seats.environment | keys[]] | contains(["KEYRIGHT_ADMIN_PASSWORD", "KEYRIGHT_KEY_SECRET"])' "admin password or key secret not wired"
check '.services.seats.build.dockerfile == "docker/Dockerfile"' "seats is not built from docker/Dockerfile"
log "ok - compose.yaml: valid (docker-compose $(docker-compose version --short)), refuses to run without secrets, db healthy before seats, named volumes, env wired"

# --- 2. Dockerfile ----------------------------------------------------------------------------------------
"$TOOLS/node_modules/.bin/dockerfile-utils" lint docker/Dockerfile || die "Dockerfile: dockerfile-utils lint found problems"
# dockerfilelint 1.8.0 mis-parses the hyphenated HEALTHCHECK flag --start-period (its regex is --\w+): that one
# known false positive is ignored, every other finding fails.
"$TOOLS/node_modules/.bin/dockerfilelint" -o json docker/Dockerfile > "$WORK/dockerfilelint.json" || true
ISSUES=$(jq -r '.files[].issues[] | select((.content | test("^HEALTHCHECK .*--start-period")) and .title == "Invalid Argument Format" | not) | "line \(.line): \(.title): \(.content)"' "$WORK/dockerfilelint.json")
[ -z "$ISSUES" ] || die "Dockerfile: dockerfilelint: $ISSUES"
# One logical line per instruction (continuations joined), comments dropped.
sed -e '/^[[:space:]]*#/d' docker/Dockerfile | sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta' > "$WORK/Dockerfile.flat"
POM_PAYARA=$(sed -n 's:.*<payara.version>\(.*\)</payara.version>.*:\1:p' pom.xml)
POM_DRIVER=$(sed -n 's:.*<mariadb.driver.version>\(.*\)</mariadb.driver.version>.*:\1:p' pom.xml)
grep -qx "FROM payara/micro:$POM_PAYARA-jdk17" "$WORK/Dockerfile.flat" || die "Dockerfile: not FROM payara/micro:$POM_PAYARA-jdk17 (the pom's Payara version)"
grep -qx "ARG MARIADB_DRIVER_VERSION=$POM_DRIVER" "$WORK/Dockerfile.flat" || die "Dockerfile: MARIADB_DRIVER_VERSION is not the pom's $POM_DRIVER"
LAST_USER=$(awk '$1 == "USER" {u = $2} END {print u}' "$WORK/Dockerfile.flat")
[ -n "$LAST_USER" ] && [ "$LAST_USER" != root ] && [ "$LAST_USER" != 0 ] || die "Dockerfile: the image does not end as a non-root user"
grep -q '^HEALTHCHECK .*healthcheck.sh' "$WORK/Dockerfile.flat" && grep -q '/.well-known/jwks.json' docker/healthcheck.sh \
    || die "Dockerfile: no HEALTHCHECK on an application URL"
require_build
COPIES=$(grep '^COPY ' "$WORK/Dockerfile.flat" | sed "s/\${MARIADB_DRIVER_VERSION}/$POM_DRIVER/g")
while read -r _ line; do
    # shellcheck disable=SC2206
    args=($line); dest=${args[-1]}; unset 'args[-1]'
    for src in "${args[@]}"; do
        [ -f "$src" ] || die "Dockerfile: COPY source $src does not exist (after mvn package)"
        kept=0
        while read -r pattern; do
            # shellcheck disable=SC2053
            [[ $src == ${pattern#!} ]] && kept=1
        done < <(grep '^!' docker/Dockerfile.dockerignore)
        [ "$kept" = 1 ] || die "Dockerfile.dockerignore leaves $src out of the build context"
    done
done <<< "$COPIES"
log "ok - Dockerfile: lint clean (dockerfile-utils, dockerfilelint), FROM payara/micro:$POM_PAYARA-jdk17, driver $POM_DRIVER, runs as $LAST_USER, every COPY source exists"

# --- 3. shell scripts ---------------------------------------------------------------------------------------
shellcheck docker/entrypoint.sh docker/healthcheck.sh || die "shellcheck found problems"
log "ok - entrypoint.sh and healthcheck.sh pass shellcheck"
if [ "$STATIC" = 1 ]; then log "static checks passed (--static: no simulated run)"; exit 0; fi

# --- 4. the image's runtime, simulated ---------------------------------------------------------------------
ensure_mariadb
for tool in curl jq openssl; do command -v $tool >/dev/null || die "$tool is missing"; done
SIM="$WORK/opt/payara"
mkdir -p "$SIM/data"
while read -r _ line; do
    # shellcheck disable=SC2206
    args=($line); dest=${args[-1]/#\/opt\/payara/$SIM}; unset 'args[-1]'
    if [[ $dest == */ ]]; then mkdir -p "$dest"; else mkdir -p "$(dirname "$dest")"; fi
    cp "${args[@]}" "$dest"
done <<< "$COPIES"
HTTP=$(free_port)
printf 'set configs.config.server-config.network-config.network-listeners.network-listener.http-listener.address=127.0.0.1\n' > "$WORK/loopback.asadmin"

# boot_image NAME [VAR=value...]: entrypoint.sh with the compose file's environment, as the container would.
boot_image() {
    local name=$1; shift
    log "[$name] starting entrypoint.sh (port $HTTP)"
    (
        cd "$SIM"
        exec env "$@" KEYRIGHT_HOME="$SIM" PAYARA_MICRO_JAR="$MICRO_JAR" KEYRIGHT_DATA_DIR="$SIM/data" \
            KEYRIGHT_PREBOOT_FILE="$WORK/loopback.asadmin" \
            MEM_MAX_RAM_PERCENTAGE=60.0 JVM_ARGS="-Xmx512m" \
            setsid timeout 600 /bin/sh "$SIM/entrypoint.sh" --port "$HTTP" --rootdir "$WORK/micro-$name"
    ) > "$WORK/server.log" 2>&1 &
    PGID=$!
    local boot=$SECONDS
    wait_for_url "http://127.0.0.1:$HTTP/.well-known/jwks.json" 300 "$PGID" || die "[$name] the application did not answer within 300 s"
    log "[$name] ready after $((SECONDS - boot)) s"
}
healthcheck() { # healthcheck PATH-DIR PORT: runs healthcheck.sh with only the tools in PATH-DIR
    env -i PATH="$1" KEYRIGHT_HOME="$SIM" KEYRIGHT_HEALTH_PORT="$2" /bin/sh "$SIM/healthcheck.sh" >/dev/null 2>&1
}
mkdir -p "$WORK/bin-curl" "$WORK/bin-bash" "$WORK/bin-java"
for t in sh curl; do ln -s "$(command -v $t)" "$WORK/bin-curl/$t"; done
for t in sh bash; do ln -s "$(command -v $t)" "$WORK/bin-bash/$t"; done
for t in sh java; do ln -s "$(readlink -f "$(command -v $t)")" "$WORK/bin-java/$t"; done

DB_PASSWORD="pw-$(openssl rand -hex 12)"
create_database "$DB" "$DB_USER" "$DB_PASSWORD"
ADMIN_PASSWORD="docker-$(openssl rand -hex 8)"
boot_image mariadb KEYRIGHT_DB_URL="jdbc:mariadb://127.0.0.1:3306/$DB?sessionVariables=innodb_lock_wait_timeout=3" \
    KEYRIGHT_DB_USER="$DB_USER" KEYRIGHT_DB_PASSWORD="$DB_PASSWORD" KEYRIGHT_ADMIN_PASSWORD="$ADMIN_PASSWORD" \
    KEYRIGHT_KEY_SECRET="docker-verify-$(openssl rand -hex 16)" KEYRIGHT_ISSUER=keyright-seats
grep '^{' "$WORK/server.log" | jq -r '.LogMessage // empty' | grep -F "ready on the data source jdbc/keyright" >/dev/null \
    || die "[mariadb] the application is not on jdbc/keyright (or the log is not JSON)"
DEAD=$(free_port)
for method in curl bash java; do
    healthcheck "$WORK/bin-$method" "$HTTP" || die "healthcheck.sh ($method) reports a healthy server unhealthy"
    if healthcheck "$WORK/bin-$method" "$DEAD"; then die "healthcheck.sh ($method) reports a dead port healthy"; fi
done
for method in curl bash java; do
    env -i PATH="$WORK/bin-$method" KEYRIGHT_HOME="$SIM" KEYRIGHT_HEALTH_PORT="$HTTP" KEYRIGHT_HEALTH_PATH=/v1/health \
        /bin/sh "$SIM/healthcheck.sh" >/dev/null 2>&1 || die "healthcheck.sh ($method) with KEYRIGHT_HEALTH_PATH=/v1/health: unhealthy"
    if env -i PATH="$WORK/bin-$method" KEYRIGHT_HOME="$SIM" KEYRIGHT_HEALTH_PORT="$HTTP" KEYRIGHT_HEALTH_PATH=/no-such-path \
        /bin/sh "$SIM/healthcheck.sh" >/dev/null 2>&1; then die "healthcheck.sh ($method) reports a 404 healthy"; fi
done
log "ok - healthcheck.sh: healthy on the running server (jwks and /v1/health), unhealthy on a dead port and on a 404, with curl, with bash only, with java only"
"$ROOT/.ci/lifecycle-smoke" "http://127.0.0.1:$HTTP" "$ADMIN_PASSWORD" | sed 's/^/    /' || die "[mariadb] the seat lifecycle failed"
TRACE_HEAD=$(curl -s -o /dev/null -D - -X TRACE "http://127.0.0.1:$HTTP/v1/seats/pool")
grep -qi '^Server: Payara' <<< "$TRACE_HEAD" && die "[mariadb] the container's banner is back (hardening.asadmin not applied): $TRACE_HEAD"
grep -q '^HTTP/1.1 405' <<< "$TRACE_HEAD" || die "[mariadb] TRACE is not refused by the application: $TRACE_HEAD"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$HTTP/openapi")" = 404 ] || die "[mariadb] Payara's /openapi is served"
log "ok - entrypoint.sh with KEYRIGHT_DB_URL: MariaDB through mariadb.asadmin, JSON logs, seat lifecycle passes, hardening.asadmin applied (no banner, TRACE 405, no /openapi)"
stop_group "$PGID"; PGID=""

ADMIN_PASSWORD="docker-$(openssl rand -hex 8)"
boot_image embedded KEYRIGHT_ADMIN_PASSWORD="$ADMIN_PASSWORD"
grep '^{' "$WORK/server.log" | jq -r '.LogMessage // empty' | grep -F "ready on the embedded database in $SIM/data" >/dev/null \
    || die "[embedded] the application is not on the embedded database in the data volume"
healthcheck "$WORK/bin-curl" "$HTTP" || die "[embedded] unhealthy"
[ -f "$SIM/data/server.secret" ] || die "[embedded] no server.secret in the data volume"
log "ok - entrypoint.sh without KEYRIGHT_DB_URL: embedded database and server.secret in the data volume, healthy"
stop_group "$PGID"; PGID=""
log "all docker checks passed"
