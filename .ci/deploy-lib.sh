# shellcheck shell=bash
# Shared helpers of server-config/verify.sh, docker/verify.sh and .ci/portability (sourced, not run).
# Everything binds to 127.0.0.1; every database and user made here is dropped by drop_database.

# The project root (the folder holding pom.xml).
ROOT=${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD_MICRO_VERSION=6.2025.10   # the pom's payara.version: `mvn package` puts this one in target/
PAYARA_MICRO_VERSION=${PAYARA_MICRO_VERSION:-$BUILD_MICRO_VERSION}
MARIADB_DRIVER_VERSION=${MARIADB_DRIVER_VERSION:-3.5.11}
MICRO_JAR="$ROOT/target/payara-micro-$PAYARA_MICRO_VERSION.jar"
# A JDK 21+ for the Jakarta EE 11 servers (Payara Micro 7, GlassFish 8); the WAR itself stays Java 17.
JAVA25_HOME=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
DRIVER_JAR="$ROOT/target/lib/mariadb-java-client-$MARIADB_DRIVER_VERSION.jar"
WAR=${KEYRIGHT_WAR:-$ROOT/target/keyright-seats.war}   # KEYRIGHT_WAR: test another build of the WAR

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
# die records what failed in FAILURE, for a report a script's exit trap writes last (server-config/verify.sh).
FAILURE=""
die() { FAILURE="$*"; printf '[%s] FAILED: %s\n' "$(date +%H:%M:%S)" "$*" >&2; exit 1; }

# The WAR, the Payara Micro jar and the MariaDB driver, built by `mvn package` (built here only if missing).
require_build() {
    if [ ! -f "$WAR" ] || [ ! -f "$DRIVER_JAR" ] || { [ ! -f "$MICRO_JAR" ] && [ "$PAYARA_MICRO_VERSION" = "$BUILD_MICRO_VERSION" ]; }; then
        log "target/ lacks the WAR, Payara Micro or the driver: mvn -q -B package -DskipTests"
        (cd "$ROOT" && mvn -q -B -ntp package -DskipTests) || die "the build failed"
    fi
    # Another Payara Micro than the build's (PAYARA_MICRO_VERSION=7.2026.11): fetched from Maven Central (~100 MB once).
    if [ ! -f "$MICRO_JAR" ]; then
        log "mvn dependency:copy fish.payara.extras:payara-micro:$PAYARA_MICRO_VERSION"
        (cd "$ROOT" && mvn -q -B -ntp org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
            -Dartifact="fish.payara.extras:payara-micro:$PAYARA_MICRO_VERSION" -DoutputDirectory="$ROOT/target") \
            || die "cannot download Payara Micro $PAYARA_MICRO_VERSION"
    fi
}

# A free TCP port on 127.0.0.1 in 20000-39999 (never 8080/8180).
free_port() {
    local port
    for _ in $(seq 1 200); do
        port=$((20000 + RANDOM % 20000))
        if ! ss -Htln "sport = :$port" | grep -q . ; then
            echo "$port"; return 0
        fi
    done
    die "no free port"
}

# MariaDB on 127.0.0.1:3306, installed and started when it is missing or down.
ensure_mariadb() {
    if ! command -v mariadbd >/dev/null && [ ! -x /usr/sbin/mariadbd ]; then
        log "installing mariadb-server"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q mariadb-server >/dev/null || {
            apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q mariadb-server >/dev/null; } \
            || die "cannot install mariadb-server"
    fi
    if ! (exec 3<>/dev/tcp/127.0.0.1/3306) 2>/dev/null; then
        log "starting MariaDB"
        start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql
        for _ in $(seq 1 120); do (exec 3<>/dev/tcp/127.0.0.1/3306) 2>/dev/null && return 0; sleep 0.5; done
        die "MariaDB did not start on 127.0.0.1:3306"
    fi
}

mariadb_root() { mariadb -uroot "$@" 2>/dev/null || mariadb -h127.0.0.1 -uroot "$@"; }

# create_database DB USER PASSWORD: a fresh database and its user, made by the operator's own script
# (server-config/mariadb-setup.sql), for the user at 127.0.0.1 and at localhost.
create_database() {
    local db=$1 user=$2 password=$3 host
    password=${password//\\/\\\\}; password=${password//\'/\'\'}   # an SQL string literal
    mariadb_root -e "DROP DATABASE IF EXISTS \`$db\`;" || die "cannot drop database $db"
    for host in 127.0.0.1 localhost; do
        mariadb_root -e "SET @db='$db', @user='$user', @host='$host', @password='$password'; $(cat "$ROOT/server-config/mariadb-setup.sql")" \
            || die "cannot create database $db with server-config/mariadb-setup.sql"
    done
}

drop_database() {
    local db=$1 user=$2
    mariadb_root -e "DROP DATABASE IF EXISTS \`$db\`; DROP USER IF EXISTS '$user'@'127.0.0.1'; DROP USER IF EXISTS '$user'@'localhost';" || true
}

# wait_for_url URL SECONDS PID [curl args]: until URL answers 200, the process dies, or time runs out.
# It asks every WAIT_EVERY seconds (default 1); with WAIT_ANSWERS (a file) it appends there every answer it got,
# as "<status> <content type>", each once, up to and including the 200 (a refused connection is not an answer).
wait_for_url() {
    local url=$1 seconds=$2 pid=$3; shift 3
    local deadline=$((SECONDS + seconds)) answer
    while [ $SECONDS -lt $deadline ]; do
        answer=$(curl -s -o /dev/null -w '%{http_code} %{content_type}' --max-time 5 "$@" "$url" || true)
        if [ -n "${WAIT_ANSWERS:-}" ] && [ "${answer%% *}" != 000 ] && ! grep -qxF "$answer" "$WAIT_ANSWERS"; then
            echo "$answer" >> "$WAIT_ANSWERS"
        fi
        if [ "${answer%% *}" = 200 ]; then return 0; fi
        kill -0 "$pid" 2>/dev/null || return 1
        sleep "${WAIT_EVERY:-1}"
    done
    return 1
}

# stop_group PGID: TERM the process group started with setsid, then KILL what is left after 20 s.
stop_group() {
    local pgid=$1
    kill -TERM -- "-$pgid" 2>/dev/null || return 0
    for _ in $(seq 1 40); do kill -0 -- "-$pgid" 2>/dev/null || return 0; sleep 0.5; done
    kill -KILL -- "-$pgid" 2>/dev/null || true
}

# A throwaway PKCS12 keystore (alias keyright, EC P-256, for 127.0.0.1/localhost, valid 2 days) and its
# certificate as PEM for curl --cacert: make_keystore DIR PASSWORD
make_keystore() {
    local dir=$1 password=$2
    keytool -genkeypair -alias keyright -keyalg EC -groupname secp256r1 -sigalg SHA256withECDSA -validity 2 \
        -dname "CN=127.0.0.1, O=Keyright verify" -ext "SAN=ip:127.0.0.1,dns:localhost" \
        -storetype PKCS12 -keystore "$dir/keystore.p12" -storepass "$password" -keypass "$password" >/dev/null 2>&1 \
        || die "keytool -genkeypair failed"
    keytool -exportcert -rfc -alias keyright -keystore "$dir/keystore.p12" -storepass "$password" > "$dir/cert.pem" 2>/dev/null \
        || die "keytool -exportcert failed"
}

# Listening TCP sockets of a process and its children, as "address:port" lines.
listeners_of() {
    local pids
    pids=$(pgrep -g "$1" | paste -sd'|')
    [ -n "$pids" ] || return 0
    ss -Htlnp | grep -E "pid=($pids)," | awk '{print $4}'
}
